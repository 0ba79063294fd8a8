import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { CategoryForm } from './__category-form'
import { categoryFormData, saveCategory } from './__category.server'

export const handle = { title: 'pages.realm.category.edit' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => categoryFormData(request, context, 'edit', params.categoryId)

export const action = ({ request, context, params }: ActionFunctionArgs) => saveCategory(request, context, 'edit', params.categoryId)

export default function CategoryEditRoute() {
  const { category, parents, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.category.edit')}</h1>
        <Link to="/realm/category" className="btn">
          {t('resources.category.back')}
        </Link>
      </div>
      <CategoryForm
        key={category.id}
        mode="edit"
        parents={parents}
        timeZone={timeZone}
        initial={{ name: category.name, parent: category.parent, priority: category.priority }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
