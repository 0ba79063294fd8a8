import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { SharedLink } from '~/components/channel/shared-link'
import { RoomFeedPanel } from '~/components/feed/room-feed-panel'
import { FormScreen } from '~/components/ui/form-screen'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import { dateTime } from '~/lib/format'
import type { ErrorItem } from '#shared/schemas/error'
import { RoomGroupInput, RoomInput, type RoomMember } from '#shared/schemas/room'
import { apiData, orErrorResponse, orNull, type RealmApi } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, saveForm } from '~/server/entity-form.server'
import { getLocale } from '~/server/i18n.server'
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
  const [members, breakouts, parent, cards, fields] = await Promise.all([
    orErrorResponse(apiData(api.room.room[':id'].member.$get({ param: { id } }))),
    room.parent_id === null ? apiData(api.room.room[':id'].breakout.$get({ param: { id } })).then((r) => r.items) : [],
    room.parent_id === null ? null : orNull(apiData(api.room.room[':id'].$get({ param: { id: room.parent_id } }))),
    openCards(api, id, await getLocale(request)),
    roomFormFields(api, user),
  ])
  return {
    kind: 'room' as const,
    room,
    members: members.items,
    breakouts,
    parent: parent ? { id: parent.id, name: parent.name, closed_at: parent.closed_at } : null,
    cards,
    fields,
    timeZone,
    canCreate: user.permissions.room_room_create === true,
  }
}

/** The room's cards with their URLs resolved for the signed-in user (GET room/card/{id}/open), in the room's order. */
async function openCards(api: RealmApi, room: string, lang: 'pt-BR' | 'en-US' | 'es-ES') {
  const { items } = await apiData(api.room.room[':id'].card.$get({ param: { id: room } }))
  return Promise.all(
    items.map(async (c) => {
      const opened = await orNull(apiData(api.room.card[':id'].open.$get({ param: { id: c.id }, query: { room, lang } })), [403, 404, 422])
      return { id: c.id, label: c.label, type: c.type, icon: c.icon, url: opened?.url ?? null }
    }),
  )
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
  const { api, user } = await requireRoute(request, context, 'room.edit')
  if (intent === 'add_breakout' || intent === 'close' || intent === 'open') {
    const form = await request.formData()
    return apiResult(async () => {
      if (intent === 'add_breakout') await api.room.room[':id'].breakout.$post({ param: { id }, json: { name: String(form.get('name') ?? '') } })
      else {
        // Closing or reopening this room or one of its breakouts (`target`; the API checks it is the realm's room).
        const target = String(form.get('target') ?? id)
        if (intent === 'close') await api.room.room[':id'].close.$post({ param: { id: target } })
        else await api.room.room[':id'].open.$post({ param: { id: target } })
      }
      return { ok: true, intent, errors: [] as ErrorItem[] }
    })
  }
  if (intent !== 'add_member' && intent !== 'remove_member')
    return saveForm(request, context, {
      route: 'room.edit',
      schema: RoomInput,
      fields: await roomFormFields(api, user),
      save: (api, json) => api.room.room[':id'].$put({ param: { id }, json }),
      back: '/room',
      flash: 'tms.saved',
    })
  const nick = String((await request.formData()).get('nick') ?? '')
  return apiResult(async () => {
    if (intent === 'add_member') await api.room.room[':id'].member.$post({ param: { id }, json: { nick } })
    else await api.room.room[':id'].member[':nick'].$delete({ param: { id, nick } })
    return { ok: true, intent, errors: [] as ErrorItem[] }
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
      <RoomState room={d.room} parent={d.parent} breakouts={d.breakouts.length} timeZone={d.timeZone} />
      <SharedLink channelId={d.room.id} kind="room" />
      <Members members={d.members} />
      {d.room.parent_id === null ? <Breakouts breakouts={d.breakouts} canCreate={d.canCreate} timeZone={d.timeZone} /> : null}
      <Cards cards={d.cards} />
      <RoomFeedPanel roomId={d.room.id} timeZone={d.timeZone} />
    </FormScreen>
  )
}

/** Toasts a room action's answer (the fetcher's data) once it settles. */
function useActionToast(fetcher: ReturnType<typeof useFetcher<{ ok: boolean; errors: ErrorItem[] }>>, ok: string, failed: string, onOk?: () => void) {
  const { t } = useTranslation()
  const toast = useToast()
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.push({ kind: 'success', message: ok })
      onOk?.()
    } else toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: failed })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [fetcher.state, fetcher.data])
}

/** Open or closed (since when), the parent of a breakout, and the close / reopen button. */
function RoomState(props: {
  room: { id: string; closed_at: string | null; parent_id: string | null }
  parent: { id: string; name: string; closed_at: string | null } | null
  breakouts: number
  timeZone: string
}) {
  const { t, i18n } = useTranslation()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[] }>()
  useActionToast(fetcher, 'room.saved_state', 'room.failed_state')
  const closed = props.room.closed_at !== null
  return (
    <section className="card" aria-labelledby="room-state-title">
      <h2 id="room-state-title">
        {closed ? t('room.closed_since', { when: dateTime(props.room.closed_at ?? '', i18n.language, props.timeZone) }) : t('room.state.open')}
      </h2>
      {props.parent ? (
        <p>
          <Link to={`/room/edit/${encodeURIComponent(props.parent.id)}`}>{t('room.breakouts.of', { name: props.parent.name })}</Link>
        </p>
      ) : null}
      {closed ? null : (
        <p>
          <Link to={`/room/live/${encodeURIComponent(props.room.id)}`} className="btn btn-primary">
            <Icon name="broadcast" /> {t('live.go_live')}
          </Link>
        </p>
      )}
      <fetcher.Form method="post" action={`?intent=${closed ? 'open' : 'close'}`}>
        <input type="hidden" name="target" value={props.room.id} />
        <button type="submit" className="btn" disabled={fetcher.state !== 'idle'}>
          <Icon name={closed ? 'refresh' : 'close'} /> {closed ? t('room.reopen') : props.breakouts > 0 ? t('room.close_all') : t('room.close')}
        </button>
      </fetcher.Form>
    </section>
  )
}

/** Breakout rooms of a top-level room: create by name, close or reopen each, open each one's screen. */
function Breakouts(props: { breakouts: { id: string; name: string; closed_at: string | null; member_count: number }[]; canCreate: boolean; timeZone: string }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[] }>()
  const input = useRef<HTMLInputElement>(null)
  useActionToast(fetcher, 'room.saved_state', 'room.failed_state', () => {
    if (input.current) input.current.value = ''
  })
  return (
    <section className="card" aria-labelledby="breakouts-title">
      <h2 id="breakouts-title">{t('room.breakouts.title', { count: props.breakouts.length })}</h2>
      {props.canCreate ? (
        <fetcher.Form method="post" action="?intent=add_breakout" className="inline-form">
          <label htmlFor="breakout-name">{t('room.breakouts.name')}</label>
          <input ref={input} id="breakout-name" className="input" name="name" required minLength={2} maxLength={60} autoComplete="off" />
          <button type="submit" className="btn" disabled={fetcher.state !== 'idle'}>
            <Icon name="plus" /> {t('room.breakouts.add')}
          </button>
        </fetcher.Form>
      ) : null}
      <p className="hint">{t('room.breakouts.one_level')}</p>
      {props.breakouts.length === 0 ? (
        <p className="hint">{t('room.breakouts.empty')}</p>
      ) : (
        <ul className="member-list">
          {props.breakouts.map((b) => (
            <li key={b.id}>
              <span>
                <Link to={`/room/edit/${encodeURIComponent(b.id)}`}>{b.name}</Link>{' '}
                <span className="hint">{b.closed_at ? t('room.state.closed') : t('room.state.open')}</span>
              </span>
              <fetcher.Form method="post" action={`?intent=${b.closed_at ? 'open' : 'close'}`}>
                <input type="hidden" name="target" value={b.id} />
                <button type="submit" className="btn">
                  {b.closed_at ? t('room.breakouts.open', { name: b.name }) : t('room.breakouts.close', { name: b.name })}
                </button>
              </fetcher.Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The room's cards, each opening its URL as resolved for the signed-in user. */
function Cards({ cards }: { cards: { id: string; label: string; url: string | null }[] }) {
  const { t } = useTranslation()
  return (
    <section className="card" aria-labelledby="cards-title">
      <h2 id="cards-title">{t('room.cards.title', { count: cards.length })}</h2>
      {cards.length === 0 ? (
        <p className="hint">{t('room.cards.empty')}</p>
      ) : (
        <ul className="member-list">
          {cards.map((c) => (
            <li key={c.id}>
              <span>
                {c.label} {c.url ? <span className="hint">{c.url}</span> : null}
              </span>
              {c.url ? (
                <a className="btn" href={c.url} target="_blank" rel="noopener noreferrer">
                  <Icon name="external" /> {t('room.cards.open', { label: c.label })}
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
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
