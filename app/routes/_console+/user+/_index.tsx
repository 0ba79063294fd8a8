import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { ConfirmDialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { jsonBody } from '~/lib/json'
import userList from '~/lists/user'
import { USER_SEARCH_MIN, type User } from '#shared/schemas/user'
import { requireRoute } from '~/server/auth.server'
import { listQueryFromUrl, loadList } from '~/server/list.server'
import { UserImport } from './__user-import'
import { userListAction } from './__user.server'

export const handle = { title: 'pages.user.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const query = listQueryFromUrl(url)
  // Seed 002 §5: a search shorter than 3 characters (the search bar, or a text filter) is not sent; the page says why instead.
  const searches = [query.like, ...['nick', 'name', 'email'].map((f) => url.searchParams.get(f)?.trim())]
  if (searches.some((text) => text && text.length < USER_SEARCH_MIN)) {
    const { user, realm } = await requireRoute(request, context, 'user.list')
    return { ...flags(user.permissions, realm.code), page: { items: [] as User[], total: 0, limit: query.limit, offset: 0 }, query, tooShort: true }
  }
  const { page, user, realm } = await loadList(request, context, userList)
  return { ...flags(user.permissions, realm.code), page, query, tooShort: false }
}

function flags(p: Record<string, boolean>, realm: string | null) {
  return {
    realm,
    canCreate: p.mas_user_create === true,
    canEdit: p.mas_user_edit === true,
    canDisable: p.mas_user_disable === true,
    canDelete: p.mas_user_delete === true,
    canImport: p.mas_user_import === true,
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => userListAction(request, context)

export default function UserListRoute() {
  const { page, query, tooShort, realm, canCreate, canEdit, canDisable, canDelete, canImport } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<typeof action>()
  const [confirm, setConfirm] = useState<{ user: User; intent: 'disable' | 'delete' } | null>(null)
  const [importing, setImporting] = useState(false)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: 'resources.user.done' })
    else toast.pushErrors(fetcher.data.errors)
  }, [fetcher.state, fetcher.data, toast])
  const foreign = (u: User) => u.origin_realm !== realm

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.user.list')}</h1>
        <div className="toolbar-actions">
          {canImport ? (
            <button type="button" className="btn" onClick={() => setImporting(true)}>
              <Icon name="upload" /> {t('resources.user.import.title')}
            </button>
          ) : null}
          {canCreate ? (
            <Link to="/user/create" className="btn btn-primary">
              <Icon name="plus" /> {t('pages.user.create')}
            </Link>
          ) : null}
        </div>
      </div>
      {tooShort ? (
        <p className="alert alert-warning" role="alert">
          {t('validation.min_search', { min: String(USER_SEARCH_MIN) })}
        </p>
      ) : null}
      <EntityTable<User>
        spec={userList}
        page={page}
        query={query}
        title={t('pages.user.list')}
        rowActions={(u) => (
          <>
            {canEdit ? (
              foreign(u) ? (
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled action stays focusable so keyboard users hear why it is disabled
                <span className="btn btn-icon" aria-disabled="true" title={t('resources.user.foreign', { realm: u.origin_realm })} tabIndex={0}>
                  <Icon name="edit" label={t('resources.user.foreign', { realm: u.origin_realm })} />
                </span>
              ) : (
                <Link className="btn btn-icon" to={`/user/edit/${encodeURIComponent(u.nick)}`}>
                  <Icon name="edit" label={t('resources.user.edit', { nick: u.nick })} />
                </Link>
              )
            ) : null}
            {canDisable && !foreign(u) ? (
              <button type="button" className="btn btn-icon" onClick={() => setConfirm({ user: u, intent: 'disable' })}>
                <Icon name={u.disabled ? 'check' : 'block'} label={t(u.disabled ? 'resources.user.enable' : 'resources.user.disable', { nick: u.nick })} />
              </button>
            ) : null}
            {canDelete && !foreign(u) ? (
              <button type="button" className="btn btn-icon" onClick={() => setConfirm({ user: u, intent: 'delete' })}>
                <Icon name="trash" label={t('resources.user.delete', { nick: u.nick })} />
              </button>
            ) : null}
          </>
        )}
      />
      <ConfirmDialog
        open={confirm !== null}
        title={
          confirm
            ? t(confirm.intent === 'delete' ? 'resources.user.delete' : confirm.user.disabled ? 'resources.user.enable' : 'resources.user.disable', {
                nick: confirm.user.nick,
              })
            : ''
        }
        message={
          confirm
            ? t(
                confirm.intent === 'delete'
                  ? 'resources.user.delete_confirm'
                  : confirm.user.disabled
                    ? 'resources.user.enable_confirm'
                    : 'resources.user.disable_confirm',
                { nick: confirm.user.nick },
              )
            : ''
        }
        confirmLabel={t(confirm?.intent === 'delete' ? 'resources.role.delete_yes' : 'resources.user.confirm')}
        cancelLabel={t('settings.cancel')}
        danger={confirm?.intent === 'delete' || (confirm !== null && !confirm.user.disabled)}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) {
            const body =
              confirm.intent === 'delete'
                ? { intent: 'delete', nick: confirm.user.nick }
                : { intent: 'disable', nick: confirm.user.nick, disabled: !confirm.user.disabled }
            fetcher.submit(jsonBody(body), { method: 'post', encType: 'application/json' })
          }
          setConfirm(null)
        }}
      />
      {canImport ? <UserImport open={importing} onClose={() => setImporting(false)} /> : null}
    </>
  )
}

export const ErrorBoundary = RouteError
