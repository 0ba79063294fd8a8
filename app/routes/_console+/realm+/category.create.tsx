import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { CategoryForm } from './__category-form'
import { categoryFormData, saveCategory } from './__category.server'

export const handle = { title: 'pages.realm.category.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => categoryFormData(request, context, 'create')

export const action = ({ request, context }: ActionFunctionArgs) => saveCategory(request, context, 'create')

export default function CategoryCreateRoute() {
  const { category, parents, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.category.create')}</h1>
        <Link to="/realm/category" className="btn">
          {t('resources.category.back')}
        </Link>
      </div>
      <CategoryForm
        key={category.id}
        mode="create"
        parents={parents}
        timeZone={timeZone}
        initial={{ name: category.name, parent: category.parent, priority: category.priority }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
