import type { PermissionMap } from '#shared/schemas/permission'
import type { RealmConfig } from '#shared/schemas/realm'
import { can } from '#shared/access'
import { NAV, routeById, type NavSection } from '#shared/manifest'

export interface VisibleSection extends Omit<NavSection, 'items'> {
  items: { route: string; label: string; path: string }[]
}

/** Sidebar sections the user may see (seed 000 §2.5): a section shows when at least one of its routes is allowed. */
export function visibleNav(permissions: PermissionMap, config: Pick<RealmConfig, 'ledger_enabled' | 'persona_enabled'> | null): VisibleSection[] {
  return NAV.map((section) => ({
    ...section,
    items: section.items
      .map((i) => ({ ...i, entry: routeById(i.route) }))
      .filter((i) => can(permissions, config, i.entry.access))
      .map((i) => ({ route: i.route, label: i.label, path: i.entry.path })),
  })).filter((s) => s.items.length > 0)
}
