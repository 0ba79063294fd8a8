import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import roleList from '~/lists/role'
import type { ErrorItem } from '#shared/schemas/error'
import { RoleName, type RoleRow } from '#shared/schemas/role'
import { apiResult } from '~/server/api-action.server'
import { requireAccess } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import * as v from 'valibot'

export const handle = { title: 'pages.role.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, realm } = await loadList(request, context, roleList)
  return {
    page,
    query,
    realm: realm.code,
    canCreate: user.permissions.mas_role_create,
    canEdit: user.permissions.mas_role_edit,
    canDelete: user.permissions.mas_role_delete,
  }
}

/** Deletes a role (refused by the API while users hold it). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['mas_role_list', 'mas_role_delete'] })
  const form = await request.formData()
  const role = v.safeParse(RoleName, form.get('role') ?? '')
  if (!role.success)
    return data({ ok: false, errors: [{ field: 'role', cause: 'invalid', value: null, message: role.issues[0].message }] as ErrorItem[] }, { status: 400 })
  return apiResult(async () => {
    await api.mas.permission[':role'].$delete({ param: { role: role.output } })
    return { ok: true, errors: [] as ErrorItem[], deleted: role.output }
  })
}

export default function RoleListRoute() {
  const { page, query, realm, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<typeof action>()
  const [confirm, setConfirm] = useState<string | null>(null)

  useResultToast(fetcher, 'resources.role.deleted', 'resources.role.delete_failed')

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.role.list')}</h1>
        {canCreate ? (
          <Link to="/realm/role/create" className="btn btn-primary">
            <Icon name="plus" /> {t('pages.role.create')}
          </Link>
        ) : null}
      </div>
      <EntityTable<RoleRow>
        spec={roleList}
        page={page}
        query={query}
        title={t('pages.role.list')}
        rowActions={(row) => (
          <>
            {canEdit ? (
              <Link className="btn btn-icon" to={`/realm/role/${encodeURIComponent(realm ?? row.realm)}/edit/${encodeURIComponent(row.role)}`}>
                <Icon name="edit" label={t('resources.role.edit', { role: row.role })} />
              </Link>
            ) : null}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => setConfirm(row.role)}>
                <Icon name="trash" label={t('resources.role.delete', { role: row.role })} />
              </button>
            ) : null}
          </>
        )}
      />
      <ConfirmDialog
        open={confirm !== null}
        title={t('resources.role.delete', { role: confirm ?? '' })}
        message={t('resources.role.delete_confirm', { role: confirm ?? '' })}
        confirmLabel={t('resources.role.delete_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) fetcher.submit({ role: confirm }, { method: 'post' })
          setConfirm(null)
        }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
