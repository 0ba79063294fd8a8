import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormScreen } from '~/components/form-screen'
import { RouteError } from '~/components/route-error'
import { RoomGroupInput, RoomInput, type Room } from '~/schemas/room'
import type { ListPage } from '~/schemas/common'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { groupFields, isGroup, roomFields } from './__room'

export const handle = { title: 'pages.room.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'room.create')
  const group = isGroup(request)
  const rooms = group && user.permissions.room_room_list ? (await api.get<ListPage<Room>>('room/room', { limit: 1000 })).items.map((r) => ({ value: r.id, label: r.name })) : []
  return { group, rooms, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  isGroup(request)
    ? saveForm(request, context, { route: 'room.create', fields: groupFields(), apiPath: 'room/group', method: 'post', back: '/room?tab=groups', flash: 'tms.saved' })
    : saveForm(request, context, { route: 'room.create', fields: roomFields, apiPath: 'room/room', method: 'post', back: '/room', flash: 'tms.saved' })

export default function RoomCreateRoute() {
  const { group, rooms, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return group ? (
    <FormScreen title={t('room.group.create')} back="/room?tab=groups" fields={groupFields(rooms)} schema={RoomGroupInput} initial={{ rooms: [] }} timeZone={timeZone} />
  ) : (
    <FormScreen title={t('pages.room.create')} back="/room" fields={roomFields} schema={RoomInput} initial={{ type: 'lecture' }} timeZone={timeZone} />
  )
}

export const ErrorBoundary = RouteError
