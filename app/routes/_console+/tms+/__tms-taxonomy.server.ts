import { apiData, type RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'

/** Top-level categories (parents of values), when the user may list categories. */
export async function categoryParents(api: RealmApi, user: SessionUser, self?: string) {
  if (!user.permissions.tms_category_list) return []
  const page = await apiData(api.tms.category.$get({ query: { limit: 1000 } }))
  return page.items.filter((c) => !c.parent_id && c.id !== self).map((c) => ({ value: c.id, label: c.name }))
}
