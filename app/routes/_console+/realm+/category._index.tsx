import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { CategoryLink, CategoryTree, type CategoryNode } from '~/components/realm/category-tree'
import { CategoryNodes } from './__category.server'
import { DeleteConfirm } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { rowResult } from '~/server/entity-form.server'
import { requireAccess, requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.realm.category.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'realm.category.list')
  const { items } = await orErrorResponse(apiData(api.room.category['with-children'].$get()))
  const p = user.permissions
  return {
    roots: v.parse(CategoryNodes, items),
    canCreate: p.room_category_create === true,
    canEdit: p.room_category_edit === true,
    canDelete: p.room_category_delete === true,
  }
}

/** Deletes a category (refused by the API while it has sub-categories). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['room_category_list', 'room_category_delete'] })
  const id = v.safeParse(v.pipe(v.string(), v.minLength(1), v.maxLength(40)), (await request.formData()).get('id'))
  if (!id.success)
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  return rowResult(apiData(api.room.category[':id'].$delete({ param: { id: id.output } })))
}

export default function CategoryListRoute() {
  const { roots, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<typeof action>()
  const [removing, setRemoving] = useState<CategoryNode | null>(null)
  useResultToast(fetcher, 'resources.category.deleted', 'resources.category.delete_failed')
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.category.list')}</h1>
        <div className="toolbar-actions">
          <a className="btn" href="/export/category" download>
            <Icon name="download" /> {t('table.export_csv')}
          </a>
          {canCreate ? (
            <Link to="/realm/category/create" className="btn btn-primary">
              <Icon name="plus" /> {t('pages.realm.category.create')}
            </Link>
          ) : null}
        </div>
      </div>
      <div className="card">
        <CategoryTree
          roots={roots}
          actions={(node) => (
            <>
              {canEdit ? (
                <CategoryLink
                  to={`/realm/category/edit/${encodeURIComponent(node.id)}`}
                  icon="edit"
                  label={t('resources.category.edit', { name: node.name })}
                />
              ) : null}
              {canCreate ? (
                <CategoryLink
                  to={`/realm/category/create?parent=${encodeURIComponent(node.id)}`}
                  icon="plus"
                  label={t('resources.category.add_child', { name: node.name })}
                />
              ) : null}
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
        onConfirm={() => removing && fetcher.submit({ id: removing.id }, { method: 'post' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
