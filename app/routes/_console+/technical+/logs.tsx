import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CopyButton } from '~/components/ui/copy-button'
import { Dialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import errorLogList from '~/lists/error-log'
import type { ErrorLog } from '#shared/schemas/technical'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.technical.logs' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query } = await loadList(request, context, errorLogList)
  return { page, query }
}

/** Recent unexpected server errors with their request ids (what a user's error toast shows), kept 30 days. */
export default function TechnicalLogsRoute() {
  const { page, query } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const [open, setOpen] = useState<ErrorLog | null>(null)
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.technical.logs')}</h1>
          <p className="hint">{t('resources.error_log.description')}</p>
        </div>
      </div>
      <EntityTable<ErrorLog>
        spec={errorLogList}
        page={page}
        query={query}
        title={t('pages.technical.logs')}
        rowActions={(row) => (
          <button type="button" className="btn btn-icon" onClick={() => setOpen(row)}>
            <Icon name="info" label={t('resources.error_log.details', { id: row.request_id })} />
          </button>
        )}
      />
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={t('resources.error_log.details', { id: open?.request_id ?? '' })}
        labelledBy="error-details"
        className="wide"
      >
        {open ? (
          <>
            <p>
              <code>
                {open.method} {open.path}
              </code>{' '}
              <CopyButton text={open.request_id} label={t('resources.error_log.copy_id')} />
            </p>
            <p>{open.message}</p>
            <pre className="stack">{open.stack || t('resources.error_log.no_stack')}</pre>
          </>
        ) : null}
      </Dialog>
    </>
  )
}

export const ErrorBoundary = RouteError
