import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { RouteError } from '~/components/shell/route-error'
import { WordFilterEditor } from '~/components/realm/word-filter-editor'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmApiError, orErrorResponse, apiData } from '~/server/api.server'
import { requireAccess, requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.realm.word_filter' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'realm.word_filter')
  const code = realm.code ?? ''
  const { sentences } = await orErrorResponse(apiData(api.mas.realm[':realm'].word_filter.$get({ param: { realm: code } })))
  return { code, sentences, canEdit: user.permissions.mas_word_filter_edit === true }
}

/** Saves the current realm's word filter. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api, realm } = await requireAccess(request, context, { all: ['mas_word_filter_get', 'mas_word_filter_edit'] })
  const body = v.safeParse(v.object({ intent: v.literal('word_filter'), sentences: v.array(v.string()) }), await request.json().catch(() => null))
  if (!body.success)
    return data({ ok: false, errors: [{ field: 'sentences', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  try {
    await api.mas.realm[':realm'].word_filter.$put({ param: { realm: realm.code ?? '' }, json: { sentences: body.output.sentences } })
    return { ok: true, errors: [] as ErrorItem[] }
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors }, { status: err.status })
    throw err
  }
}

export default function WordFilterRoute() {
  const { code, sentences, canEdit } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.word_filter')}</h1>
      </div>
      <div className="card">
        <WordFilterEditor realm={code} sentences={sentences} canEdit={canEdit} />
      </div>
    </>
  )
}

export const ErrorBoundary = RouteError
