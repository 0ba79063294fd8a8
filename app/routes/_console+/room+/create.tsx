import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/ui/form-screen'
import { RouteError } from '~/components/shell/route-error'
import { RoomGroupInput, RoomInput } from '#shared/schemas/room'
import { apiData } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { groupFields, isGroup } from './__room'
import { roomFormFields } from './__room.server'

export const handle = { title: 'pages.room.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'room.create')
  const group = isGroup(request)
  const rooms =
    group && user.permissions.room_room_list
      ? (await apiData(api.room.room.$get({ query: { limit: 1000 } }))).items.map((r) => ({ value: r.id, label: r.name }))
      : []
  return { group, rooms, fields: group ? [] : await roomFormFields(api, user), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (isGroup(request))
    return saveForm(request, context, {
      route: 'room.create',
      schema: RoomGroupInput,
      fields: groupFields(),
      save: (api, json) => api.room.group.$post({ json }),
      back: '/room?tab=groups',
      flash: 'tms.saved',
    })
  const { api, user } = await requireRoute(request, context, 'room.create')
  return saveForm(request, context, {
    route: 'room.create',
    schema: RoomInput,
    fields: await roomFormFields(api, user),
    save: (api, json) => api.room.room.$post({ json }),
    back: '/room',
    flash: 'tms.saved',
  })
}

export default function RoomCreateRoute() {
  const { group, rooms, fields, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return group ? (
    <FormScreen
      title={t('room.group.create')}
      back="/room?tab=groups"
      fields={groupFields(rooms)}
      schema={RoomGroupInput}
      initial={{ rooms: [] }}
      timeZone={timeZone}
    />
  ) : (
    <FormScreen
      title={t('pages.room.create')}
      back="/room"
      fields={fields}
      schema={RoomInput}
      initial={{ type: 'lecture', recording: false, cards: [] }}
      timeZone={timeZone}
    />
  )
}

export const ErrorBoundary = RouteError
