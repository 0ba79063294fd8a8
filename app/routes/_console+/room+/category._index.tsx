import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CategoryLink, CategoryTree, type CategoryNode } from '~/components/realm/category-tree'
import { CrudList } from '~/components/ui/crud-list'
import { DeleteConfirm } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import categoryList from '~/lists/category'
import type { Category } from '#shared/schemas/category'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'
import { categoryTree, parentOptions } from './__category.server'

export const handle = { title: 'pages.room.category.list' }

/**
 * Room categories: by default the declared list (`app/lists/category.ts`: search, sort, cursor paging, CSV export),
 * each row's parent named by its path; `?view=tree` shows the same categories as the keyboard tree view. A category
 * tree is not a plain entity (the parent choice must not create a cycle, the API reads whole trees), so its create
 * and edit screens stay its own.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const tree = new URL(request.url).searchParams.get('view') === 'tree'
  const { page, query, user, api } = await loadList(request, context, categoryList)
  const items = await categoryTree(api)
  const p = user.permissions
  return {
    view: tree ? ('tree' as const) : ('list' as const),
    page,
    query,
    roots: tree ? items : [],
    paths: Object.fromEntries(parentOptions(items).map((o) => [o.id, o.label])),
    canCreate: p.room_category_create === true,
    canEdit: p.room_category_edit === true,
    canDelete: p.room_category_delete === true,
  }
}

/** Deletes a category (refused by the API while it has sub-categories). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'room.category.list', (api, id) => api.room.category[':id'].$delete({ param: { id } }))

/** The list and tree links (the current one marked). */
function Views({ view }: { view: 'list' | 'tree' }) {
  const { t } = useTranslation()
  return (
    <nav className="toolbar-actions" aria-label={t('resources.category.views')}>
      <Link to="/room/category" className={`btn${view === 'list' ? ' btn-primary' : ''}`} aria-current={view === 'list' ? 'page' : undefined}>
        {t('resources.category.view_list')}
      </Link>
      <Link to="/room/category?view=tree" className={`btn${view === 'tree' ? ' btn-primary' : ''}`} aria-current={view === 'tree' ? 'page' : undefined}>
        {t('resources.category.view_tree')}
      </Link>
    </nav>
  )
}

const addChild = (id: string) => `/room/category/create?parent=${encodeURIComponent(id)}`

export default function CategoryListRoute() {
  const { view, page, query, paths, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const spec = useMemo(
    () => ({
      ...categoryList,
      columns: categoryList.columns.map((c) => (c.id === 'parent' ? { ...c, format: (v: unknown) => (typeof v === 'string' ? (paths[v] ?? v) : '') } : c)),
    }),
    [paths],
  )
  if (view === 'tree') return <CategoryTreeView />
  return (
    <CrudList<Category>
      spec={spec}
      page={page}
      query={query}
      title={t('pages.room.category.list')}
      create={canCreate ? { to: '/room/category/create', label: t('pages.room.category.create') } : null}
      editTo={canEdit ? (row) => `/room/category/edit/${encodeURIComponent(row.id)}` : null}
      canDelete={canDelete}
      label={(row) => row.name}
      extraActions={(row) =>
        canCreate ? (
          <Link className="btn btn-icon" to={addChild(row.id)}>
            <Icon name="plus" label={t('resources.category.add_child', { name: row.name })} />
          </Link>
        ) : null
      }
    >
      <Views view="list" />
    </CrudList>
  )
}

/** The categories as a tree (WAI-ARIA tree view), with the same row actions. */
function CategoryTreeView() {
  const { roots, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<typeof action>()
  const [removing, setRemoving] = useState<CategoryNode | null>(null)
  useResultToast(fetcher, 'resources.category.deleted', 'resources.category.delete_failed')
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.room.category.list')}</h1>
        <div className="toolbar-actions">
          <a className="btn" href="/export/category" download>
            <Icon name="download" /> {t('table.export_csv')}
          </a>
          {canCreate ? (
            <Link to="/room/category/create" className="btn btn-primary">
              <Icon name="plus" /> {t('pages.room.category.create')}
            </Link>
          ) : null}
        </div>
      </div>
      <Views view="tree" />
      <div className="card">
        <CategoryTree
          roots={roots}
          actions={(node) => (
            <>
              {canEdit ? (
                <CategoryLink to={`/room/category/edit/${encodeURIComponent(node.id)}`} icon="edit" label={t('resources.category.edit', { name: node.name })} />
              ) : null}
              {canCreate ? <CategoryLink to={addChild(node.id)} icon="plus" label={t('resources.category.add_child', { name: node.name })} /> : null}
              {canDelete ? (
                <button type="button" className="btn btn-icon" onClick={() => setRemoving(node)}>
                  <Icon name="trash" label={t('resources.category.delete', { name: node.name })} />
                </button>
              ) : null}
            </>
          )}
        />
      </div>
      <DeleteConfirm
        item={removing}
        prefix="resources.category"
        values={{ name: removing?.name ?? '' }}
        onConfirm={() => removing && fetcher.submit({ intent: 'delete', id: removing.id }, { method: 'post' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
