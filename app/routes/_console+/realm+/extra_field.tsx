import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useCallback, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import * as v from 'valibot'
import { DeleteConfirm, Dialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import extraFieldList from '~/lists/extra-field'
import type { ErrorItem } from '#shared/schemas/error'
import type { ExtraField } from '#shared/schemas/extra-field'
import { RealmApiError } from '~/server/api.server'
import { requireAccess } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { ExtraFieldForm } from './__extra-field-form'

export const handle = { title: 'pages.realm.extra_field' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, extraFieldList)
  const p = user.permissions
  return { page, query, canCreate: p.mas_extra_field_create === true, canEdit: p.mas_extra_field_edit === true, canDelete: p.mas_extra_field_delete === true }
}

const Action = v.variant('intent', [
  v.object({ intent: v.literal('create'), values: v.record(v.string(), v.unknown()) }),
  v.object({ intent: v.literal('update'), id: v.string(), values: v.record(v.string(), v.unknown()) }),
  v.object({ intent: v.literal('delete'), id: v.string() }),
])
const PERMISSION = { create: 'mas_extra_field_create', update: 'mas_extra_field_edit', delete: 'mas_extra_field_delete' } as const

/** Creates, updates or deletes an extra field (each behind its own permission). */
export async function action({ request, context }: ActionFunctionArgs) {
  const body = v.safeParse(Action, await request.json().catch(() => null))
  const intent = body.success ? body.output.intent : 'create'
  const { api } = await requireAccess(request, context, { all: ['mas_extra_field_list', PERMISSION[intent]] })
  if (!body.success)
    return data({ ok: false, errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  const b = body.output
  try {
    if (b.intent === 'create') await api.post('mas/extra_field', b.values)
    else if (b.intent === 'update') await api.put(`mas/extra_field/${encodeURIComponent(b.id)}`, b.values)
    else await api.delete(`mas/extra_field/${encodeURIComponent(b.id)}`)
    return { ok: true, errors: [] as ErrorItem[] }
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors }, { status: err.status })
    throw err
  }
}

export default function ExtraFieldRoute() {
  const { page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const remover = useFetcher<typeof action>()
  const [editing, setEditing] = useState<ExtraField | 'new' | null>(null)
  const [removing, setRemoving] = useState<ExtraField | null>(null)
  const close = useCallback(() => setEditing(null), [])
  useResultToast(remover, 'resources.extra_field.deleted')
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.realm.extra_field')}</h1>
          <p className="hint">{t('resources.extra_field.description')}</p>
        </div>
        {canCreate ? (
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
            <Icon name="plus" /> {t('resources.extra_field.create')}
          </button>
        ) : null}
      </div>
      <EntityTable<ExtraField>
        spec={extraFieldList}
        page={page}
        query={query}
        title={t('pages.realm.extra_field')}
        rowActions={(row) => (
          <>
            {canEdit ? (
              <button type="button" className="btn btn-icon" onClick={() => setEditing(row)}>
                <Icon name="edit" label={t('resources.extra_field.edit', { label: row.label })} />
              </button>
            ) : null}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => setRemoving(row)}>
                <Icon name="trash" label={t('resources.extra_field.delete', { label: row.label })} />
              </button>
            ) : null}
          </>
        )}
      />
      <Dialog
        open={editing !== null}
        onClose={close}
        title={t(editing === 'new' ? 'resources.extra_field.create' : 'resources.extra_field.edit', {
          label: editing && editing !== 'new' ? editing.label : '',
        })}
        labelledBy="extra-field-dialog"
      >
        {editing !== null ? <ExtraFieldForm key={editing === 'new' ? 'new' : editing.id} field={editing === 'new' ? null : editing} onDone={close} /> : null}
      </Dialog>
      <DeleteConfirm
        item={removing}
        prefix="resources.extra_field"
        values={{ label: removing?.label ?? '' }}
        onConfirm={() => removing && remover.submit({ intent: 'delete', id: removing.id }, { method: 'post', encType: 'application/json' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
