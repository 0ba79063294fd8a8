import { apiData, type RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'
import type { ChannelCategory } from '#shared/entities/channel-category'

/** The realm's channel categories as options (read only when the user may list them), by priority. */
export async function categoryOptions(api: RealmApi, user: SessionUser): Promise<{ value: string; label: string }[]> {
  if (!user.permissions.sns_channel_category_list) return []
  const page = await apiData(api.entity<ChannelCategory>('channel/category').index.$get({ query: { limit: 1000, order: 'priority' } }))
  return page.items.map((c) => ({ value: c.id, label: c.active ? c.name : `${c.name} (—)` }))
}
