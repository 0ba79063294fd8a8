import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { translatedErrors } from '~/lib/error-text'
import type { ListSpec } from '~/lib/lists'
import type { ListPage, ListQuery } from '#shared/schemas/common'
import type { ErrorItem } from '#shared/schemas/error'
import { ConfirmDialog, DeleteConfirm } from './dialog'
import { EntityTable } from './entity-table'
import { Icon } from './icon'
import { useToast } from './toast'

/**
 * A list screen of a declared list: title, create button, the shared table, and per-row edit and delete (with a
 * confirmation; a refusal such as "in use" shows in the multi-error toast). The route's action deletes.
 */
export function CrudList<Row>({
  spec,
  page,
  query,
  title,
  create,
  editTo,
  canDelete,
  label,
  extraActions,
  selectable,
  actions,
  typeToConfirm,
  children,
}: {
  spec: ListSpec<Row>
  page: ListPage<Row>
  query: ListQuery
  title: string
  create?: { to: string; label: string } | null
  editTo?: ((row: Row) => string) | null
  canDelete?: boolean
  /** The row as named in buttons and the confirmation. */
  label: (row: Row) => string
  extraActions?: (row: Row) => ReactNode
  /** Rows can be selected; `actions` acts on the selected ids (as in EntityTable). */
  selectable?: boolean
  actions?: (selected: string[], clear: () => void) => ReactNode
  /**
   * Deleting asks to type a word (seed 001 §5 "deletion confirmation by typing the word 'delete'"): the dialog's texts
   * are `<prefix>.delete_*` with `{{name}}` and `{{word}}`.
   */
  typeToConfirm?: { prefix: string; word: string }
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[] }>()
  const [confirm, setConfirm] = useState<Row | null>(null)

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: 'tms.list.deleted' })
    else toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'tms.list.delete_failed' })
  }, [fetcher.state, fetcher.data, toast, t])

  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
        {create ? (
          <Link to={create.to} className="btn btn-primary">
            <Icon name="plus" /> {create.label}
          </Link>
        ) : null}
      </div>
      {children}
      <EntityTable<Row>
        spec={spec}
        page={page}
        query={query}
        title={title}
        selectable={selectable}
        actions={actions}
        rowActions={(row) => (
          <>
            {extraActions?.(row)}
            {editTo ? (
              <Link className="btn btn-icon" to={editTo(row)}>
                <Icon name="edit" label={t('tms.list.edit', { name: label(row) })} />
              </Link>
            ) : null}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => setConfirm(row)}>
                <Icon name="trash" label={t('tms.list.delete', { name: label(row) })} />
              </button>
            ) : null}
          </>
        )}
      />
      {typeToConfirm ? (
        <DeleteConfirm
          item={confirm}
          prefix={typeToConfirm.prefix}
          values={{ name: confirm ? label(confirm) : '', word: typeToConfirm.word }}
          typeToConfirm={typeToConfirm.word}
          onClose={() => setConfirm(null)}
          onConfirm={() => {
            if (confirm) fetcher.submit({ intent: 'delete', id: spec.rowId(confirm) }, { method: 'post' })
            setConfirm(null)
          }}
        />
      ) : (
        <ConfirmDialog
          open={confirm !== null}
          title={t('tms.list.delete', { name: confirm ? label(confirm) : '' })}
          message={t('tms.list.delete_confirm', { name: confirm ? label(confirm) : '' })}
          confirmLabel={t('tms.list.delete_yes')}
          cancelLabel={t('settings.cancel')}
          danger
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            if (confirm) fetcher.submit({ intent: 'delete', id: spec.rowId(confirm) }, { method: 'post' })
            setConfirm(null)
          }}
        />
      )}
    </>
  )
}
