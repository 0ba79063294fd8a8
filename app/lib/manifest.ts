import type { IconName } from '~/components/icon'
import type { Access } from './access'

/**
 * The route manifest: every console route with its requirement. The server guard (requireAccess), the sidebar
 * and the permission tests read it. Issue 4 completes it with every route of the specification.
 */
export interface RouteEntry {
  /** Path pattern as in the specification, with `:param` segments. */
  path: string
  access: Access
  /** When set, the route appears in the sidebar under this label. */
  nav?: { label: string; icon: IconName }
}

export const ROUTES = {
  overview: { path: '/', access: {}, nav: { label: 'nav.overview', icon: 'home' } },
  realmList: { path: '/realm', access: { any: ['mas_realm_list', 'mas_realm_list_all'] }, nav: { label: 'nav.realms', icon: 'realm' } },
} as const satisfies Record<string, RouteEntry>

export type RouteId = keyof typeof ROUTES
