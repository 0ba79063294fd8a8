import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { Dialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import auditLogList from '~/lists/audit-log'
import type { AuditLog } from '#shared/schemas/technical'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.technical.audit_logs' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query } = await loadList(request, context, auditLogList)
  return { page, query }
}

const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/** Who changed what in the realm, with each change's fields before and after (secrets masked). */
export default function AuditLogRoute() {
  const { page, query } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  const [open, setOpen] = useState<AuditLog | null>(null)
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.technical.audit_logs')}</h1>
      </div>
      <EntityTable<AuditLog>
        spec={auditLogList}
        page={page}
        query={query}
        title={t('pages.technical.audit_logs')}
        rowActions={(row) => (
          <button type="button" className="btn btn-icon" onClick={() => setOpen(row)}>
            <Icon name="info" label={t('resources.audit_log.details', { id: String(row.id) })} />
          </button>
        )}
      />
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={t('resources.audit_log.details', { id: String(open?.id ?? '') })}
        labelledBy="audit-details"
        className="wide"
      >
        {open ? (
          <>
            <p>
              {t('resources.audit_log.summary', {
                actor: open.actor,
                actor_realm: open.actor_realm,
                action: t(`resources.audit_log.action.${open.action}`, { defaultValue: open.action }),
                entity: open.entity,
                id: open.entity_id,
                at: formatTime(open.at, clock, 'second'),
              })}
            </p>
            <div className="table-wrap">
              <table className="data">
                <thead>
                  <tr>
                    <th scope="col">{t('resources.audit_log.field')}</th>
                    <th scope="col">{t('resources.audit_log.before')}</th>
                    <th scope="col">{t('resources.audit_log.after')}</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(open.changes).map(([field, [before, after]]) => (
                    <tr key={field}>
                      <th scope="row">
                        <code>{field}</code>
                      </th>
                      <td className="diff-removed">
                        <code>{show(before)}</code>
                      </td>
                      <td className="diff-added">
                        <code>{show(after)}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="hint">{t('resources.audit_log.request', { id: open.request_id || '—' })}</p>
          </>
        ) : null}
      </Dialog>
    </>
  )
}

export const ErrorBoundary = RouteError
