import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { ConfirmDialog } from '~/components/dialog'
import { EntityTable } from '~/components/entity-table'
import { Icon } from '~/components/icon'
import { RouteError } from '~/components/route-error'
import { useResultToast } from '~/components/toast'
import realmList from '~/lists/realm'
import { RealmCode } from '~/schemas/common'
import type { ErrorItem } from '~/schemas/error'
import { RealmApiError } from '~/server/api.server'
import { requireAccess } from '~/server/auth.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.realm.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, realm } = await loadList(request, context, realmList)
  return { page, query, current: realm.code, canCreate: user.permissions.mas_realm_create === true, canEdit: user.permissions.mas_realm_edit === true, canDelete: user.permissions.mas_realm_delete === true }
}

/** Deletes a realm (the API refuses the caller's own realm and realms with children). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['mas_realm_delete'], any: ['mas_realm_list', 'mas_realm_list_all'] })
  const code = v.safeParse(RealmCode, (await request.formData()).get('code') ?? '')
  if (!code.success) return data({ ok: false, errors: [{ field: 'code', cause: 'invalid', value: null, message: 'validation.realm_code' }] as ErrorItem[] }, { status: 400 })
  try {
    await api.delete(`mas/realm/${encodeURIComponent(code.output)}`)
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors }, { status: err.status })
    throw err
  }
  return { ok: true, errors: [] as ErrorItem[] }
}

export default function RealmListRoute() {
  const { page, query, current, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<typeof action>()
  const [confirm, setConfirm] = useState<string | null>(null)

  useResultToast(fetcher, 'resources.realm.deleted', 'resources.realm.delete_failed')

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.list')}</h1>
        {canCreate ? (
          <Link to="/realm/create" className="btn btn-primary">
            <Icon name="plus" /> {t('pages.realm.create')}
          </Link>
        ) : null}
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
        rowActions={(row) => (
          <>
            {canEdit ? (
              <Link className="btn btn-icon" to={`/realm/edit/${encodeURIComponent(row.code)}`}>
                <Icon name="edit" label={t('resources.realm.edit', { name: row.name })} />
              </Link>
            ) : null}
            {canDelete && row.code !== current ? (
              <button type="button" className="btn btn-icon" onClick={() => setConfirm(row.code)}>
                <Icon name="trash" label={t('resources.realm.delete', { name: row.name })} />
              </button>
            ) : null}
          </>
        )}
      />
      <ConfirmDialog
        open={confirm !== null}
        title={t('resources.realm.delete', { name: confirm ?? '' })}
        message={t('resources.realm.delete_confirm', { code: confirm ?? '' })}
        confirmLabel={t('resources.realm.delete_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) fetcher.submit({ code: confirm }, { method: 'post' })
          setConfirm(null)
        }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
