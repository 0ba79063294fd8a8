import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { CategoryScreen } from './__category-form'
import { categoryFormData, saveCategory } from './__category.server'

export const handle = { title: 'pages.room.category.edit' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => categoryFormData(request, context, 'edit', params.categoryId)

export const action = ({ request, context, params }: ActionFunctionArgs) => saveCategory(request, context, 'edit', params.categoryId)

export default function CategoryEditRoute() {
  return <CategoryScreen mode="edit" />
}

export const ErrorBoundary = RouteError
