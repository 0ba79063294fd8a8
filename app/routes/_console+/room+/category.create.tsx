import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { CategoryScreen } from './__category-form'
import { categoryFormData, saveCategory } from './__category.server'

export const handle = { title: 'pages.room.category.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => categoryFormData(request, context, 'create')

export const action = ({ request, context }: ActionFunctionArgs) => saveCategory(request, context, 'create')

export default function CategoryCreateRoute() {
  return <CategoryScreen mode="create" />
}

export const ErrorBoundary = RouteError
