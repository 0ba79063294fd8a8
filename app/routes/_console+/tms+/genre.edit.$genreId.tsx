import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { GenreInput, type Genre } from '#shared/schemas/tms/genre'
import { orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { genreFields } from './__tms-taxonomy'

export const handle = { title: 'pages.tms.genre.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'tms.genre.edit')
  const genre = await orErrorResponse(api.get<Genre>(`tms/genre/${encodeURIComponent(params.genreId ?? '')}`))
  return { genre, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  saveForm(request, context, {
    route: 'tms.genre.edit',
    schema: GenreInput,
    fields: genreFields,
    apiPath: `tms/genre/${encodeURIComponent(params.genreId ?? '')}`,
    method: 'put',
    back: '/tms/genre',
    flash: 'tms.saved',
  })

export default function GenreEditRoute() {
  const { genre, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <FormScreen
      key={genre.id}
      title={`${t('pages.tms.genre.edit')}: ${genre.name}`}
      back="/tms/genre"
      fields={genreFields}
      schema={GenreInput}
      initial={genre}
      timeZone={timeZone}
      protect
    />
  )
}

export const ErrorBoundary = RouteError
