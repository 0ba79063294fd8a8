import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { WordFilterEditor, wordFilterFields } from '~/components/realm/word-filter-editor'
import { WordFilterBody } from '#shared/schemas/realm-settings'
import { orErrorResponse, apiData } from '~/server/api.server'
import { apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.realm.word_filter' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'realm.word_filter')
  const code = realm.code ?? ''
  const { sentences } = await orErrorResponse(apiData(api.mas.realm[':realm'].word_filter.$get({ param: { realm: code } })))
  return { code, sentences, canEdit: user.permissions.mas_word_filter_edit === true }
}

/** Saves the current realm's word filter (the editor's kit form; its errors answer on the form). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    access: { all: ['mas_word_filter_get', 'mas_word_filter_edit'] },
    schema: WordFilterBody,
    fields: wordFilterFields,
    call: (api, json, { realm }) => apiData(api.mas.realm[':realm'].word_filter.$put({ param: { realm: realm.code ?? '' }, json })),
    onSuccess: (_, submission) => submission.reply(),
  })

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
