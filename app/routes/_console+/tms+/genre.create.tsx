import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { GenreInput } from '#shared/schemas/tms/genre'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { genreFields } from './__tms-taxonomy'

export const handle = { title: 'pages.tms.genre.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { realm } = await requireRoute(request, context, 'tms.genre.create')
  return { timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  saveForm(request, context, {
    route: 'tms.genre.create',
    schema: GenreInput,
    fields: genreFields,
    apiPath: 'tms/genre',
    method: 'post',
    back: '/tms/genre',
    flash: 'tms.saved',
  })

export default function GenreCreateRoute() {
  const { timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return <FormScreen title={t('pages.tms.genre.create')} back="/tms/genre" fields={genreFields} schema={GenreInput} initial={{}} timeZone={timeZone} protect />
}

export const ErrorBoundary = RouteError
