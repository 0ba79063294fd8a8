import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { CategoryInput } from '#shared/schemas/tms/category'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { categoryFields } from './__tms-taxonomy'
import { categoryParents } from './__tms-taxonomy.server'

export const handle = { title: 'pages.tms.category.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'tms.category.edit')
  const category = await orErrorResponse(apiData(api.tms.category[':id'].$get({ param: { id: params.categoryId ?? '' } })))
  return { category, parents: await categoryParents(api, user, category.id), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  saveForm(request, context, {
    route: 'tms.category.edit',
    schema: CategoryInput,
    fields: categoryFields(),
    save: (api, json) => api.tms.category[':id'].$put({ param: { id: params.categoryId ?? '' }, json }),
    back: '/tms/category',
    flash: 'tms.saved',
  })

export default function CategoryEditRoute() {
  const { category, parents, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <FormScreen
      key={category.id}
      title={`${t('pages.tms.category.edit')}: ${category.name}`}
      back="/tms/category"
      fields={categoryFields(parents)}
      schema={CategoryInput}
      initial={category}
      timeZone={timeZone}
      protect
    />
  )
}

export const ErrorBoundary = RouteError
