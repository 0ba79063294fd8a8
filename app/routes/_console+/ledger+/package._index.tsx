import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import ledgerPackageList from '~/lists/ledger-package'
import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { apiData } from '~/server/api.server'
import { rowResult } from '~/server/entity-form.server'
import { invalid, type ActionResult } from './__ledger.server'

export const handle = { title: 'pages.ledger.package.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, ledgerPackageList)
  const deletedOnly = new URL(request.url).searchParams.get('deleted_only') === 'true'
  return {
    page,
    query,
    deletedOnly,
    canCreate: user.permissions.ledger_package_create,
    canEdit: user.permissions.ledger_package_edit,
    canDelete: user.permissions.ledger_package_delete,
  }
}

/** Deletes a package: it leaves the shop; purchases keep pointing at it (the API only marks it deleted). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.package.list')
  const id = String((await request.formData()).get('id') ?? '')
  if (!/^[A-Za-z0-9_-]{4,80}$/.test(id)) return invalid([{ field: 'id', cause: 'invalid', value: null, message: 'ledger.validation.invalid_id' }])
  return rowResult(apiData(api.ledger.package[':id'].$delete({ param: { id } })))
}

export default function PackageListRoute() {
  const { page, query, deletedOnly, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<ActionResult>()
  const [confirm, setConfirm] = useState<LedgerPackage | null>(null)

  useResultToast(fetcher, 'resources.ledger_package.deleted', 'resources.ledger_package.delete_failed')

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.package.list')}</h1>
        <div className="toolbar-actions">
          <Link to="/ledger/package/purchase" className="btn">
            <Icon name="coin" /> {t('pages.ledger.purchase')}
          </Link>
          {canCreate ? (
            <Link to="/ledger/package/create" className="btn btn-primary">
              <Icon name="plus" /> {t('pages.ledger.package.create')}
            </Link>
          ) : null}
        </div>
      </div>
      <EntityTable<LedgerPackage>
        spec={ledgerPackageList}
        page={page}
        query={query}
        title={t('pages.ledger.package.list')}
        rowActions={(row) =>
          deletedOnly ? null : (
            <>
              {canEdit ? (
                <Link className="btn btn-icon" to={`/ledger/package/edit/${encodeURIComponent(row.id)}`}>
                  <Icon name="edit" label={t('resources.ledger_package.edit', { name: row.name })} />
                </Link>
              ) : null}
              {canDelete ? (
                <button type="button" className="btn btn-icon" onClick={() => setConfirm(row)}>
                  <Icon name="trash" label={t('resources.ledger_package.delete', { name: row.name })} />
                </button>
              ) : null}
            </>
          )
        }
      />
      <ConfirmDialog
        open={confirm !== null}
        title={t('resources.ledger_package.delete', { name: confirm?.name ?? '' })}
        message={t('resources.ledger_package.delete_confirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('resources.ledger_package.delete_yes')}
        cancelLabel={t('ledger.cancel')}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) fetcher.submit({ id: confirm.id }, { method: 'post' })
          setConfirm(null)
        }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
