import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { DeleteConfirm } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import type { ListSpec } from '~/lib/lists'
import type { ListPage, ListQuery } from '#shared/schemas/common'
import type { ErrorItem } from '#shared/schemas/error'

/**
 * A lesson list (models or published lessons): the shared table, per-row actions, and deletion confirmed by typing
 * the word "delete" in the user's language (seed 001 §5), as the realm list confirms by its code.
 */
export function LessonList<Row extends { id: string; title: string }>({
  spec,
  page,
  query,
  title,
  create,
  canDelete,
  actions,
}: {
  spec: ListSpec<Row>
  page: ListPage<Row>
  query: ListQuery
  title: string
  create?: { to: string; label: string } | null
  canDelete: boolean
  actions: (row: Row) => ReactNode
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[] }>()
  const [remove, setRemove] = useState<Row | null>(null)
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
      <EntityTable<Row>
        spec={spec}
        page={page}
        query={query}
        title={title}
        rowActions={(row) => (
          <>
            {actions(row)}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => setRemove(row)}>
                <Icon name="trash" label={t('tms.list.delete', { name: row.title })} />
              </button>
            ) : null}
          </>
        )}
      />
      <DeleteConfirm
        item={remove}
        prefix="lesson"
        values={{ name: remove?.title ?? '', word: t('lesson.delete_word') }}
        typeToConfirm={t('lesson.delete_word')}
        onClose={() => setRemove(null)}
        onConfirm={() => {
          if (remove) fetcher.submit({ id: remove.id }, { method: 'post' })
        }}
      />
    </>
  )
}
