import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import { listSpecOf } from '~/lib/entity-screens'
import { ESSAY_ERROR_CATEGORIES } from '#shared/schemas/tms/constants'
import categoryEntity from '#shared/entities/tms-category'
import type { Category } from '#shared/schemas/tms/category'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.tms.category.list' }

/** The declared list of task categories (app/shared/entities/tms-category.ts): columns, search bar, CSV export. */
const categoryList = listSpecOf(categoryEntity)

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList<Category>(request, context, categoryList)
  return {
    page,
    query,
    canCreate: user.permissions.tms_category_create,
    canEdit: user.permissions.tms_category_edit,
    canDelete: user.permissions.tms_category_delete,
  }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'tms.category.list', (api, id) => api.entity('tms/category')[':id'].$delete({ param: { id } }))

export default function CategoryListRoute() {
  const { page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const names = new Map(page.items.map((c) => [c.id, c.name]))
  const spec = {
    ...categoryList,
    columns: categoryList.columns.map((c) => (c.id === 'parent_id' ? { ...c, format: (v: unknown) => (typeof v === 'string' ? (names.get(v) ?? v) : '') } : c)),
  }
  return (
    <CrudList<Category>
      spec={spec}
      page={page}
      query={query}
      title={t('pages.tms.category.list')}
      create={canCreate ? { to: '/tms/category/create', label: t('pages.tms.category.create') } : null}
      editTo={canEdit ? (row) => `/tms/category/edit/${row.id}` : null}
      canDelete={canDelete}
      label={(row) => row.name}
    >
      <section className="card essay-errors" aria-labelledby="essay-errors-title">
        <h2 id="essay-errors-title">{t('tms.category.essay_errors')}</h2>
        <ul className="swatch-list">
          {Object.entries(ESSAY_ERROR_CATEGORIES).map(([name, colour]) => (
            <li key={name}>
              <span className="swatch" style={{ background: colour }} aria-hidden="true" /> {t(`tms.essay_error.${name}`)}
            </li>
          ))}
        </ul>
      </section>
    </CrudList>
  )
}

export const ErrorBoundary = RouteError
