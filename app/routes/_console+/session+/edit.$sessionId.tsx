import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, SpecField } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { extraFieldSpecs } from '~/lib/form-fields'
import { SessionEdit } from '#shared/schemas/session'
import { apiData, orErrorResponse, type RealmApi } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute, type SessionUser } from '~/server/auth.server'
import { getT } from '~/server/i18n.server'
import { sessionFilterOptions } from './__session.server'
import { sessionFields } from './__session-upload'

/**
 * session/edit/{sessionId} (issue 15, `csm_session_edit`): a session's title, categories, reference date and the
 * realm's extra fields of sessions — the fields session/create asks, checked the same way by the API
 * (`PUT /api/csm/session/{id}`). Where it was recorded, its status and its video are not edited here.
 */

export const handle = { title: 'pages.session.edit' }

async function formFields(
  api: RealmApi,
  user: SessionUser,
  t: (key: string, o?: Record<string, string>) => string,
  current: { id: string; name: string | null }[],
) {
  const [options, extra] = await Promise.all([
    sessionFilterOptions(api, user, t),
    apiData(api.mas.extra_field.form[':entity'].$get({ param: { entity: 'session' } })),
  ])
  // The session's categories stay offered even when the lists do not have them (a deleted category, no permission).
  const known = new Set(options.category_id.map((o) => o.value))
  const categories = [...options.category_id, ...current.filter((c) => !known.has(c.id)).map((c) => ({ value: c.id, label: c.name ?? c.id }))]
  return sessionFields(categories, extraFieldSpecs(extra.items))
}

const load = (api: RealmApi, id: string) => orErrorResponse(apiData(api.csm.session[':id'].$get({ param: { id }, query: {} })))

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'session.edit')
  const session = await load(api, params.sessionId ?? '')
  return { session, fields: await formFields(api, user, await getT(request), session.categories), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'session.edit')
  const id = params.sessionId ?? ''
  const session = await load(api, id)
  return apiAction(request, context, {
    route: 'session.edit',
    schema: SessionEdit,
    fields: await formFields(api, user, await getT(request), session.categories),
    call: (api, json) => apiData(api.csm.session[':id'].$put({ param: { id }, json })),
    redirect: `/session/detail/${id}`,
    flash: (saved) => ({ kind: 'success', message: 'session.edit.saved', values: { name: saved.title } }),
  })
}

export default function SessionEditRoute() {
  const { session: s, fields, timeZone } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.session.edit')}: {s.title || t('session.untitled')}
        </h1>
        <Link to={`/session/detail/${s.id}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <KitForm
        schema={SessionEdit}
        fields={fields}
        lastResult={lastResult}
        defaultValue={{ title: s.title, category_ids: s.category_ids, reference_date: s.reference_date, extra: s.extras }}
        timeZone={timeZone}
        protect
      >
        {fields.map((f) => (
          <SpecField key={f.name} spec={f} timeZone={timeZone} />
        ))}
      </KitForm>
    </>
  )
}

export const ErrorBoundary = RouteError
