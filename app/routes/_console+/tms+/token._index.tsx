import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import tokenList from '~/lists/tms-token'
import type { TaskToken } from '#shared/schemas/tms/token'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.tms.token.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query } = await loadList(request, context, tokenList)
  return { page, query }
}

/** Every task token of the realm, with who created it and when; each row leads to its task and room's codes. */
export default function TokenListRoute() {
  const { page, query } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.tms.token.list')}</h1>
      </div>
      <p className="hint">{t('tms.token.list_hint')}</p>
      <EntityTable<TaskToken>
        spec={tokenList}
        page={page}
        query={query}
        title={t('pages.tms.token.list')}
        rowActions={(row) => (
          <Link className="btn btn-icon" to={`/tms/token/edit/room/${encodeURIComponent(row.room_name)}/task/${row.task_id}`}>
            <Icon name="key" label={t('tms.token.open', { room: row.room_name, task: row.task_title })} />
          </Link>
        )}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
