import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import { formatTime } from '~/lib/format'
import { useClock, ZoneCaption } from '~/components/ui/clock'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse, type RealmApi } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.tms.token.edit' }

const tokens = (api: RealmApi) => api.tms.token.task[':taskId'].room[':roomName']
const param = (params: Record<string, string | undefined>) => ({ taskId: params.taskId ?? '', roomName: params.roomName ?? '' })

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'tms.token.edit')
  return orErrorResponse(apiData(tokens(api).$get({ param: param(params) })))
}

/** Generates a new code for the task in this room (the previous one stops being valid). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'tms.token.edit')
  return apiResult(async () => {
    await tokens(api).$post({ param: param(params), json: {} })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}

export default function TokenEditRoute() {
  const { task, room, tokens } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const navigation = useNavigation()
  const { t } = useTranslation()
  const clock = useClock()
  const toast = useToast()
  useEffect(() => {
    if (!result) return
    if (result.ok) toast.push({ kind: 'success', message: 'tms.token.generated' })
    else toast.pushErrors(translatedErrors(t, result.errors), { title: 'tms.token.failed' })
  }, [result, toast, t])
  const active = tokens.find((k) => !k.revoked_at)
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.tms.token.edit')}</h1>
          <p className="hint">{t('tms.token.subtitle', { task: task.title, room: room.name })}</p>
        </div>
        <Link to="/tms/token" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <section className="card" aria-labelledby="current-code">
        <h2 id="current-code">{t('tms.token.current')}</h2>
        {active ? (
          <p className="token-code" aria-live="polite">
            <strong>{active.code}</strong>{' '}
            <span className="hint">{t('tms.token.made_by', { by: active.created_by, at: formatTime(active.created_at, clock) })}</span>
          </p>
        ) : (
          <p className="empty">{t('tms.token.none')}</p>
        )}
        {task.token ? null : <p className="hint">{t('validation.tms.token_disabled')}</p>}
        <Form method="post">
          <button type="submit" className="btn btn-primary" disabled={navigation.state !== 'idle' || !task.token}>
            {navigation.state === 'submitting' ? <span className="spinner" aria-hidden="true" /> : <Icon name="key" />}{' '}
            {t(active ? 'tms.token.regenerate' : 'tms.token.generate')}
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="code-history">
        <h2 id="code-history">{t('tms.token.history')}</h2>
        {tokens.length === 0 ? (
          <p className="empty">{t('table.empty')}</p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('resources.tms_token.fields.code')}</th>
                <th scope="col">{t('resources.tms_token.fields.created_by')}</th>
                <th scope="col">{t('resources.tms_token.fields.created_at')}</th>
                <th scope="col">{t('resources.tms_token.fields.revoked_at')}</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((k) => (
                <tr key={k.id}>
                  <td>{k.code}</td>
                  <td>{k.created_by}</td>
                  <td>{formatTime(k.created_at, clock)}</td>
                  <td>{k.revoked_at ? formatTime(k.revoked_at, clock) : t('tms.token.active')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ZoneCaption label={(zone) => t('table.time_zone', { zone })} />
      </section>
    </>
  )
}

export const ErrorBoundary = RouteError
