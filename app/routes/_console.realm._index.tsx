import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { EntityTable } from '~/components/entity-table'
import { Icon } from '~/components/icon'
import { RouteError } from '~/components/route-error'
import realmList from '~/lists/realm'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.realm.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query } = await loadList(request, context, realmList)
  return { page, query }
}

export default function RealmListRoute() {
  const { page, query } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.list')}</h1>
      </div>
      <EntityTable
        spec={realmList}
        page={page}
        query={query}
        title={t('pages.realm.list')}
        selectable
        actions={(selected) => (
          <a className="btn" href={`/export/realm?code=${encodeURIComponent(selected.join(','))}`} download>
            <Icon name="download" /> {t('resources.realm.export_selected')}
          </a>
        )}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
