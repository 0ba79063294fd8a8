import type { PermissionMap } from '#shared/schemas/permission'
import type { RealmConfig } from '#shared/schemas/realm'
import { can, type RealmFlag } from '#shared/access'
import { NAV, routeById, type NavSection } from '#shared/manifest'

export interface VisibleSection extends Omit<NavSection, 'items'> {
  items: { route: string; label: string; path: string }[]
}

type NavConfig = Pick<RealmConfig, RealmFlag> | null

/** Sidebar sections the user may see (seed 000 §2.5): a section shows when at least one of its routes is allowed. */
export function computeNav(permissions: PermissionMap, config: NavConfig): VisibleSection[] {
  return NAV.map((section) => ({
    ...section,
    items: section.items
      .map((i) => ({ ...i, entry: routeById(i.route) }))
      .filter((i) => can(permissions, config, i.entry.access))
      .map((i) => ({ route: i.route, label: i.label, path: i.entry.path })),
  })).filter((s) => s.items.length > 0)
}

/** Every permission and realm flag a sidebar entry's requirement names: the sidebar depends on these alone. */
const NAV_PERMISSIONS = [
  ...new Set(NAV.flatMap((s) => s.items.flatMap((i) => [...(routeById(i.route).access.all ?? []), ...(routeById(i.route).access.any ?? [])]))),
]
const NAV_FLAGS = [...new Set(NAV.flatMap((s) => s.items.flatMap((i) => routeById(i.route).access.flags ?? [])))]

/** Sidebars answered, by which of NAV_PERMISSIONS and NAV_FLAGS hold; all dropped when this many are held. */
const MAX_NAVS = 200
const navs = new Map<string, VisibleSection[]>()

/**
 * The sidebar of a user (every console page's layout computes it): the same for everyone holding the same of the
 * permissions and flags the sidebar's routes name, so it is computed once per such set for the life of the isolate
 * (about a hundred requirement checks per page before). The answer is shared: callers must not change it.
 */
export function visibleNav(permissions: PermissionMap, config: NavConfig): VisibleSection[] {
  let key = ''
  for (const p of NAV_PERMISSIONS) key += permissions[p] === true ? '1' : '0'
  for (const f of NAV_FLAGS) key += config?.[f] === true ? '1' : '0'
  let nav = navs.get(key)
  if (!nav) {
    nav = computeNav(permissions, config)
    if (navs.size >= MAX_NAVS) navs.clear()
    navs.set(key, nav)
  }
  return nav
}
