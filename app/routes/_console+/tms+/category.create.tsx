import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { CategoryInput } from '#shared/schemas/tms/category'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { categoryFields } from './__tms-taxonomy'
import { categoryParents } from './__tms-taxonomy.server'

export const handle = { title: 'pages.tms.category.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'tms.category.create')
  return { parents: await categoryParents(api, user), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  saveForm(request, context, {
    route: 'tms.category.create',
    schema: CategoryInput,
    fields: categoryFields(),
    save: (api, json) => api.tms.category.$post({ json }),
    back: '/tms/category',
    flash: 'tms.saved',
  })

export default function CategoryCreateRoute() {
  const { parents, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const initial = { selectable: true, enabled: true, multi_selection: true, show_in_filter: true, show_in_list: true }
  return (
    <FormScreen
      title={t('pages.tms.category.create')}
      back="/tms/category"
      fields={categoryFields(parents)}
      schema={CategoryInput}
      initial={initial}
      timeZone={timeZone}
      protect
    />
  )
}

export const ErrorBoundary = RouteError
