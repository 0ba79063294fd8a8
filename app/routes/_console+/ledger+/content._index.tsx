import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import * as v from 'valibot'
import { ConfirmDialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import ledgerContentList from '~/lists/ledger-content'
import type { ListPage } from '#shared/schemas/common'
import { ContentKey, SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import type { LedgerContent } from '#shared/schemas/ledger-entity'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { attempt, invalid, type ActionResult } from './__ledger.server'
import { described } from './__ledger-ui'

export const handle = { title: 'pages.ledger.content.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.content.list')
  // The "add price" forms send ?add=<key>: the price is created on its edit screen (works without script too).
  const add = v.safeParse(ContentKey, new URL(request.url).searchParams.get('add') ?? '')
  if (add.success) throw redirect(`/ledger/content/edit/${encodeURIComponent(add.output)}`)
  const { page, query, user } = await loadList(request, context, ledgerContentList)
  // System keys without a price yet in this realm, offered by the "add price" picker.
  const priced = await api.get<ListPage<Pick<LedgerContent, 'key'>>>('ledger/content', { key: SYSTEM_CONTENT_KEYS.join(','), fields: 'key', limit: 100 })
  const unpriced = SYSTEM_CONTENT_KEYS.filter((k) => !priced.items.some((i) => i.key === k))
  return { page, query, unpriced, canEdit: user.permissions.ledger_content_edit, canDelete: user.permissions.ledger_content_delete }
}

/** Removes a price; a system price only with the explicit is_system acknowledgement; optionally below too. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.content.list')
  const form = await request.formData()
  const key = v.safeParse(ContentKey, form.get('key') ?? '')
  if (!key.success) return invalid([{ field: 'key', cause: 'invalid', value: null, message: key.issues[0].message }])
  const flags = new URLSearchParams({ is_system: String(form.get('is_system') === 'true'), should_propagate: String(form.get('should_propagate') === 'on') })
  const done = await attempt(() => api.delete(`ledger/content/${encodeURIComponent(key.output)}?${flags}`))
  return done.ok ? ({ ok: true, errors: [] } satisfies ActionResult) : done.response
}

export default function ContentListRoute() {
  const { page, query, unpriced, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<ActionResult>()
  const [confirm, setConfirm] = useState<LedgerContent | null>(null)
  const [propagate, setPropagate] = useState(false)
  const [custom, setCustom] = useState('')
  const customOk = v.safeParse(ContentKey, custom).success

  useResultToast(fetcher, 'resources.ledger_content.deleted', 'resources.ledger_content.delete_failed')

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.content.list')}</h1>
      </div>
      {canEdit ? (
        <section className="card" aria-labelledby="content-add">
          <h2 id="content-add">{t('resources.ledger_content.add')}</h2>
          <div className="ledger-grid">
            {unpriced.length ? (
              <Form method="get">
                <div className="field">
                  <label htmlFor="content-system">{t('resources.ledger_content.add_system')}</label>
                  <div className="input-group">
                    <select id="content-system" className="input" name="add">
                      {unpriced.map((k) => (
                        <option key={k} value={k}>
                          {t(`ledger.content_key.${k}`)} ({k})
                        </option>
                      ))}
                    </select>
                    <button type="submit" className="btn">
                      <Icon name="plus" /> {t('resources.ledger_content.add_go')}
                    </button>
                  </div>
                </div>
              </Form>
            ) : null}
            <Form method="get" onSubmit={(e) => !customOk && e.preventDefault()}>
              <div className="field">
                <label htmlFor="content-custom">{t('resources.ledger_content.add_custom')}</label>
                <div className="input-group">
                  <input
                    className="input"
                    name="add"
                    value={custom}
                    placeholder="escola.tutoria"
                    onChange={(e) => setCustom(e.currentTarget.value)}
                    {...described('content-custom', custom && !customOk ? 'ledger.validation.content_key' : undefined, true)}
                  />
                  <button type="submit" className="btn" disabled={!customOk}>
                    <Icon name="plus" /> {t('resources.ledger_content.add_go')}
                  </button>
                </div>
                <p className={custom && !customOk ? 'error' : 'hint'} id={custom && !customOk ? 'content-custom-error' : 'content-custom-hint'}>
                  {t('ledger.validation.content_key')}
                </p>
              </div>
            </Form>
          </div>
        </section>
      ) : null}
      <EntityTable<LedgerContent>
        spec={ledgerContentList}
        page={page}
        query={query}
        title={t('pages.ledger.content.list')}
        rowActions={(row) => (
          <>
            {canEdit ? (
              <Link className="btn btn-icon" to={`/ledger/content/edit/${encodeURIComponent(row.key)}`}>
                <Icon name="edit" label={t('resources.ledger_content.edit', { key: row.key })} />
              </Link>
            ) : null}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => (setPropagate(false), setConfirm(row))}>
                <Icon name="trash" label={t('resources.ledger_content.delete', { key: row.key })} />
              </button>
            ) : null}
          </>
        )}
      />
      <ConfirmDialog
        open={confirm !== null}
        title={t('resources.ledger_content.delete', { key: confirm?.key ?? '' })}
        message={
          <>
            <p>
              {t(confirm?.is_system ? 'resources.ledger_content.delete_system_confirm' : 'resources.ledger_content.delete_confirm', {
                key: confirm?.key ?? '',
              })}
            </p>
            <label className="switch">
              <input type="checkbox" checked={propagate} onChange={(e) => setPropagate(e.currentTarget.checked)} /> {t('resources.ledger_content.propagate')}
            </label>
          </>
        }
        confirmLabel={t('resources.ledger_content.delete_yes')}
        cancelLabel={t('ledger.cancel')}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) fetcher.submit({ key: confirm.key, is_system: String(confirm.is_system), should_propagate: propagate ? 'on' : '' }, { method: 'post' })
          setConfirm(null)
        }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
