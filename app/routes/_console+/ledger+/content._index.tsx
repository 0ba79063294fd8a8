import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { apiData } from '~/server/api.server'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { KitForm, SelectInput, TextInput } from '~/components/form/kit'
import { ConfirmDialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import ledgerContentList from '~/lists/ledger-content'
import { ContentKey, SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import type { LedgerContent } from '#shared/schemas/ledger-entity'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { rowResult } from '~/server/entity-form.server'
import { invalid, type ActionResult } from './__ledger.server'

export const handle = { title: 'pages.ledger.content.list' }

/** The "add price" forms: a key (a system one without a price, or another), whose edit screen creates the price. */
const AddPrice = v.object({ add: ContentKey })

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'ledger.content.list')
  // The "add price" forms send ?add=<key>: the price is created on its edit screen (works without script too).
  const asked = new URL(request.url).searchParams.get('add')
  const add = v.safeParse(AddPrice, { add: asked ?? '' })
  if (add.success) throw redirect(`/ledger/content/edit/${encodeURIComponent(add.output.add)}`)
  // A key typed without script that breaks the rule: the custom box shows it with its error.
  const addError =
    asked !== null ? { status: 'error' as const, initialValue: { add: asked }, error: { add: [add.issues?.[0]?.message ?? 'validation.required'] } } : null
  const { page, query, user } = await loadList(request, context, ledgerContentList)
  // System keys without a price yet in this realm, offered by the "add price" picker.
  const priced = await apiData(api.ledger.content.$get({ query: { key: SYSTEM_CONTENT_KEYS.join(','), fields: 'key', limit: 100 } }))
  const unpriced = SYSTEM_CONTENT_KEYS.filter((k) => !priced.items.some((i) => i.key === k))
  return {
    page,
    query,
    unpriced,
    addError,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    canEdit: user.permissions.ledger_content_edit,
    canDelete: user.permissions.ledger_content_delete,
  }
}

/** Removes a price; a system price only with the explicit is_system acknowledgement; optionally below too. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.content.list')
  const form = await request.formData()
  const key = v.safeParse(ContentKey, form.get('key') ?? '')
  if (!key.success) return invalid([{ field: 'key', cause: 'invalid', value: null, message: key.issues[0].message }])
  const query = { is_system: form.get('is_system') === 'true', should_propagate: form.get('should_propagate') === 'on' }
  return rowResult(apiData(api.ledger.content[':key'].$delete({ param: { key: key.output }, query })))
}

export default function ContentListRoute() {
  const { page, query, unpriced, addError, timeZone, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<ActionResult>()
  const [confirm, setConfirm] = useState<LedgerContent | null>(null)
  const [propagate, setPropagate] = useState(false)

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
              <KitForm
                id="content-system"
                method="get"
                schema={AddPrice}
                timeZone={timeZone}
                className="ledger-add"
                submitLabel={t('resources.ledger_content.add_go')}
                submitIcon="plus"
              >
                <SelectInput
                  name="add"
                  label={t('resources.ledger_content.add_system')}
                  options={unpriced.map((k) => ({ value: k, label: `${t(`ledger.content_key.${k}`)} (${k})` }))}
                />
              </KitForm>
            ) : null}
            <KitForm
              id="content-custom"
              method="get"
              schema={AddPrice}
              lastResult={addError}
              labels={{ add: t('resources.ledger_content.add_custom') }}
              timeZone={timeZone}
              className="ledger-add"
              submitLabel={t('resources.ledger_content.add_go')}
              submitIcon="plus"
            >
              <TextInput
                name="add"
                label={t('resources.ledger_content.add_custom')}
                hint={t('ledger.validation.content_key')}
                placeholder="escola.tutoria"
                required
              />
            </KitForm>
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
