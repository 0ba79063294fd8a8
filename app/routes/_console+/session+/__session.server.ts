import type { ChannelCategory } from '#shared/entities/channel-category'
import type { CsmCategory } from '#shared/entities/csm-category'
import type { Channel } from '#shared/schemas/channel'
import type { Room } from '#shared/schemas/room'
import { apiData, type RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'

type Option = { value: string; label: string }
const LIMIT = 1000

/**
 * The sessions list's filter options, each read only when the user may list it: the realm's channels and rooms
 * (by name), and the categories a session can carry — session categories, and the channel categories live sessions
 * take from their channel (named with a translated suffix so the two are told apart).
 */
export async function sessionFilterOptions(api: RealmApi, user: SessionUser, t: (key: string, o?: Record<string, string>) => string) {
  const p = user.permissions
  const [channels, rooms, sessionCategories, channelCategories] = await Promise.all([
    p.sns_channel_list ? apiData(api.entity<Channel>('channel').index.$get({ query: { limit: LIMIT, order: 'name' } })).then((r) => r.items) : [],
    p.room_room_list ? apiData(api.entity<Room>('room/room').index.$get({ query: { limit: LIMIT, order: 'name' } })).then((r) => r.items) : [],
    p.csm_category_list ? apiData(api.entity<CsmCategory>('csm/category').index.$get({ query: { limit: LIMIT, order: 'name' } })).then((r) => r.items) : [],
    p.sns_channel_category_list
      ? apiData(api.entity<ChannelCategory>('channel/category').index.$get({ query: { limit: LIMIT, order: 'name' } })).then((r) => r.items)
      : [],
  ])
  return {
    channel_id: channels.map((c): Option => ({ value: c.id, label: c.name })),
    room_id: rooms.map((r): Option => ({ value: r.id, label: r.name })),
    category_id: [
      ...sessionCategories.map((c): Option => ({ value: c.id, label: c.name })),
      ...channelCategories.map((c): Option => ({ value: c.id, label: t('session.channel_category', { name: c.name }) })),
    ],
  }
}
