import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { RoomFeedPanel } from '~/components/feed/room-feed-panel'
import { FormScreen } from '~/components/ui/form-screen'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import { RoomGroupInput, RoomInput, type RoomMember } from '#shared/schemas/room'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { groupFields, isGroup } from './__room'
import { roomFormFields } from './__room.server'

export const handle = { title: 'pages.room.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'room.edit')
  const id = params.room ?? ''
  const timeZone = realm.config?.time_zone ?? DEFAULT_TIME_ZONE
  if (isGroup(request)) {
    const group = await orErrorResponse(apiData(api.room.group[':id'].$get({ param: { id } })))
    const rooms = user.permissions.room_room_list
      ? (await apiData(api.room.room.$get({ query: { limit: 1000 } }))).items.map((r) => ({ value: r.id, label: r.name }))
      : []
    return { kind: 'group' as const, group, rooms, timeZone }
  }
  const room = await orErrorResponse(apiData(api.room.room[':id'].$get({ param: { id } })))
  const members = await orErrorResponse(apiData(api.room.room[':id'].member.$get({ param: { id } })))
  return { kind: 'room' as const, room, members: members.items, fields: await roomFormFields(api), timeZone }
}

/** Saves the room or group; adds and removes members (intent). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.room ?? ''
  if (isGroup(request))
    return saveForm(request, context, {
      route: 'room.edit',
      schema: RoomGroupInput,
      fields: groupFields(),
      save: (api, json) => api.room.group[':id'].$put({ param: { id }, json }),
      back: '/room?tab=groups',
      flash: 'tms.saved',
    })
  const intent = new URL(request.url).searchParams.get('intent')
  const { api } = await requireRoute(request, context, 'room.edit')
  if (intent !== 'add_member' && intent !== 'remove_member')
    return saveForm(request, context, {
      route: 'room.edit',
      schema: RoomInput,
      fields: await roomFormFields(api),
      save: (api, json) => api.room.room[':id'].$put({ param: { id }, json }),
      back: '/room',
      flash: 'tms.saved',
    })
  const nick = String((await request.formData()).get('nick') ?? '')
  return apiResult(async () => {
    if (intent === 'add_member') await api.room.room[':id'].member.$post({ param: { id }, json: { nick } })
    else await api.room.room[':id'].member[':nick'].$delete({ param: { id, nick } })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}

export default function RoomEditRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  if (d.kind === 'group') {
    return (
      <FormScreen
        key={d.group.id}
        title={`${t('room.group.edit')}: ${d.group.name}`}
        back="/room?tab=groups"
        fields={groupFields(d.rooms)}
        schema={RoomGroupInput}
        initial={d.group}
        timeZone={d.timeZone}
      />
    )
  }
  return (
    <FormScreen
      key={d.room.id}
      title={`${t('pages.room.edit')}: ${d.room.name}`}
      back="/room"
      fields={d.fields}
      schema={RoomInput}
      initial={d.room}
      timeZone={d.timeZone}
    >
      <Members members={d.members} />
      <RoomFeedPanel roomId={d.room.id} timeZone={d.timeZone} />
    </FormScreen>
  )
}

/** The room's members: add by user name (the realm suffix is optional), remove with one button each. */
function Members({ members }: { members: RoomMember[] }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[] }>()
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.push({ kind: 'success', message: 'room.members.saved' })
      if (input.current) input.current.value = ''
    } else toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'room.members.failed' })
  }, [fetcher.state, fetcher.data, toast, t])
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">{t('room.members.title', { count: members.length })}</h2>
      <fetcher.Form method="post" action="?intent=add_member" className="inline-form">
        <label htmlFor="member-nick">{t('room.members.nick')}</label>
        <input ref={input} id="member-nick" className="input" name="nick" required autoComplete="off" />
        <button type="submit" className="btn" disabled={fetcher.state !== 'idle'}>
          <Icon name="plus" /> {t('room.members.add')}
        </button>
      </fetcher.Form>
      {members.length === 0 ? (
        <p className="hint">{t('room.members.empty')}</p>
      ) : (
        <ul className="member-list">
          {members.map((m) => (
            <li key={m.nick}>
              <span>
                {m.name || m.nick} <span className="hint">{m.nick}</span>
              </span>
              <fetcher.Form method="post" action="?intent=remove_member">
                <input type="hidden" name="nick" value={m.nick} />
                <button type="submit" className="btn btn-icon">
                  <Icon name="trash" label={t('room.members.remove', { name: m.name || m.nick })} />
                </button>
              </fetcher.Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export const ErrorBoundary = RouteError
