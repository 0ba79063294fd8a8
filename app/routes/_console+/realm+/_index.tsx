import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { DeleteConfirm } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import realmList from '~/lists/realm'
import deletedRealmList from '~/lists/realm-deleted'
import { RealmCode } from '#shared/schemas/common'
import type { ErrorItem } from '#shared/schemas/error'
import { REALM_RESTORE_DAYS, RealmDeleteBody } from '#shared/schemas/realm'
import { apiResult } from '~/server/api-action.server'
import { requireAccess } from '~/server/auth.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.realm.list' }

/** The realm list, or with `?view=deleted` the deleted realms that can still be restored. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const flags = (p: Record<string, boolean>) => ({
    canCreate: p.mas_realm_create === true,
    canEdit: p.mas_realm_edit === true,
    canDelete: p.mas_realm_delete === true,
  })
  if (new URL(request.url).searchParams.get('view') === 'deleted') {
    const { page, query, user, realm } = await loadList(request, context, deletedRealmList)
    return { view: 'deleted' as const, page, query, current: realm.code, ...flags(user.permissions) }
  }
  const { page, query, user, realm } = await loadList(request, context, realmList)
  return { view: 'live' as const, page, query, current: realm.code, ...flags(user.permissions) }
}

const Intent = v.variant('intent', [
  v.object({ intent: v.literal('delete'), code: RealmCode, ...RealmDeleteBody.entries }),
  v.object({ intent: v.literal('restore'), code: RealmCode }),
])

/**
 * Deletes a realm (a soft delete: the API asks for its code typed as confirmation, refuses the caller's own realm
 * and realms with child realms) or restores a deleted one.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['mas_realm_delete'], any: ['mas_realm_list', 'mas_realm_list_all'] })
  const form = Object.fromEntries(await request.formData())
  const parsed = v.safeParse(Intent, form)
  if (!parsed.success) {
    const errors: ErrorItem[] = parsed.issues.map((i) => ({
      field: i.path?.map((p) => String(p.key)).join('.') ?? '',
      cause: 'invalid',
      value: null,
      message: i.message,
    }))
    return data({ ok: false, errors }, { status: 400 })
  }
  const { intent, code } = parsed.output
  return apiResult(
    async () => {
      if (parsed.output.intent === 'delete') await api.mas.realm[':code'].$delete({ param: { code }, json: { confirm: parsed.output.confirm } })
      else await api.mas.realm[':code'].restore.$post({ param: { code } })
      return { ok: true, intent, errors: [] as ErrorItem[] }
    },
    { intent },
  )
}

export default function RealmListRoute() {
  const loaded = useLoaderData<typeof loader>()
  const { current, canCreate, canEdit, canDelete } = loaded
  const deleted = loaded.view === 'deleted'
  const { t } = useTranslation()
  const remover = useFetcher<typeof action>()
  const restorer = useFetcher<typeof action>()
  const [removing, setRemoving] = useState<{ code: string; name: string } | null>(null)

  useResultToast(remover, 'resources.realm.deleted', 'resources.realm.delete_failed')
  useResultToast(restorer, 'resources.realm.restored', 'resources.realm.restore_failed')

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.list')}</h1>
        {canCreate && !deleted ? (
          <Link to="/realm/create" className="btn btn-primary">
            <Icon name="plus" /> {t('pages.realm.create')}
          </Link>
        ) : null}
      </div>
      <nav className="tabs" aria-label={t('resources.realm.views')}>
        <Link className="tab" to="/realm" aria-current={deleted ? undefined : 'page'}>
          {t('resources.realm.view_live')}
        </Link>
        <Link className="tab" to="/realm?view=deleted" aria-current={deleted ? 'page' : undefined}>
          {t('resources.realm.view_deleted')}
        </Link>
      </nav>
      {loaded.view === 'deleted' ? (
        <>
          <p className="hint">{t('resources.realm.deleted_hint', { days: REALM_RESTORE_DAYS })}</p>
          <EntityTable
            spec={deletedRealmList}
            page={loaded.page}
            query={loaded.query}
            title={t('resources.realm.view_deleted')}
            rowActions={(row) =>
              canDelete ? (
                <restorer.Form method="post">
                  <input type="hidden" name="intent" value="restore" />
                  <input type="hidden" name="code" value={row.code} />
                  <button type="submit" className="btn btn-icon" disabled={restorer.state !== 'idle'}>
                    <Icon name="restore" label={t('resources.realm.restore', { name: row.name })} />
                  </button>
                </restorer.Form>
              ) : null
            }
          />
        </>
      ) : (
        <EntityTable
          spec={realmList}
          page={loaded.page}
          query={loaded.query}
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
                <button type="button" className="btn btn-icon" onClick={() => setRemoving({ code: row.code, name: row.name })}>
                  <Icon name="trash" label={t('resources.realm.delete', { name: row.name })} />
                </button>
              ) : null}
            </>
          )}
        />
      )}
      <DeleteConfirm
        item={removing}
        prefix="resources.realm"
        values={{ name: removing?.name ?? '', code: removing?.code ?? '' }}
        typeToConfirm={removing?.code}
        onConfirm={(typed) => removing && remover.submit({ intent: 'delete', code: removing.code, confirm: typed }, { method: 'post' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
