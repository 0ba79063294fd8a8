import { apiData, type RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'

/** The realm's channels as options of the quiz form (a quiz runs on a channel); read only when the user may list them. */
export async function channelOptions(api: RealmApi, user: SessionUser): Promise<{ value: string; label: string }[]> {
  if (!user.permissions.sns_channel_list) return []
  const page = await apiData(api.channel.$get({ query: { limit: 1000, order: 'name' } }))
  return page.items.map((c) => ({ value: c.id, label: c.name }))
}

/** The options with the quiz's or poll's own channel among them (a user who may not list channels still sees it). */
export function withOwnChannel(options: { value: string; label: string }[], own: { channel_id: string; channel_name?: string }) {
  return options.some((o) => o.value === own.channel_id) ? options : [{ value: own.channel_id, label: own.channel_name || own.channel_id }, ...options]
}
