import type { Access } from '#shared/access'
import { endpointAccess } from '../lib/guard'
import { createApi, versionHeader } from './index'

/** Every API endpoint with its declared requirement (docs and tests). */
export function apiEndpoints(): { method: string; path: string; access: Access | 'public' }[] {
  return createApi()
    .routes.filter((r) => r.handler !== versionHeader && !(r.method === 'ALL' && r.path === '/*'))
    .map((r) => ({ method: r.method, path: r.path, access: endpointAccess(r.handler) ?? { all: ['UNDECLARED'] } }))
}
