import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DeleteConfirm, Dialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import extraFieldList from '~/lists/extra-field'
import { ExtraFieldCreate, ExtraFieldUpdate, type ExtraField } from '#shared/schemas/extra-field'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { apiData } from '~/server/api.server'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'
import { ExtraFieldForm, extraFieldFields } from './__extra-field-form'

export const handle = { title: 'pages.realm.extra_field' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, realm } = await loadList(request, context, extraFieldList)
  const p = user.permissions
  return {
    page,
    query,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    canCreate: p.mas_extra_field_create === true,
    canEdit: p.mas_extra_field_edit === true,
    canDelete: p.mas_extra_field_delete === true,
  }
}

/** Creates (the dialog's kit form), updates (the same, `id`) or deletes (a row's confirmation, any other intent) an extra field. */
export async function action({ request, context }: ActionFunctionArgs) {
  const intent = (await request.clone().formData()).get('intent')
  if (intent === 'create' || intent === 'update') {
    const fields = extraFieldFields(intent)
    const id = intent === 'update' ? String((await request.clone().formData()).get('id') ?? '') : ''
    return apiAction(request, context, {
      access: intent === 'create' ? { all: ['mas_extra_field_list', 'mas_extra_field_create'] } : { all: ['mas_extra_field_list', 'mas_extra_field_edit'] },
      schema: intent === 'create' ? ExtraFieldCreate : ExtraFieldUpdate,
      fields,
      call: (api, body) =>
        intent === 'create' ? apiData(api.mas.extra_field.$post({ json: body })) : apiData(api.mas.extra_field[':id'].$put({ param: { id }, json: body })),
      onSuccess: (_, submission) => submission.reply(),
    })
  }
  return deleteRow(request, context, 'realm.extra_field', (api, id) => api.mas.extra_field[':id'].$delete({ param: { id } }))
}

export default function ExtraFieldRoute() {
  const { page, query, timeZone, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
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
        {editing !== null ? (
          <ExtraFieldForm key={editing === 'new' ? 'new' : editing.id} field={editing === 'new' ? null : editing} timeZone={timeZone} onDone={close} />
        ) : null}
      </Dialog>
      <DeleteConfirm
        item={removing}
        prefix="resources.extra_field"
        values={{ label: removing?.label ?? '' }}
        onConfirm={() => removing && remover.submit({ intent: 'delete', id: removing.id }, { method: 'post' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
