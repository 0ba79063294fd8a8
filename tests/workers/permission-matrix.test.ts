import { describe, expect, it } from 'vitest'
import doc from '#shared/schemas/PERMISSIONS.md?raw'
import { permissionsMarkdown } from '#shared/permissions-doc'
import { apiEndpoints } from '../../worker/api/endpoints'
import { ROUTES, samplePath, type RouteEntry } from '#shared/manifest'
import { PERMISSIONS } from '#shared/schemas/permission'
import { createApi, versionHeader } from '../../worker/api'
import { endpointAccess } from '../../worker/lib/guard'
import { DEMO, ESCOLA, api, call, userWith } from './helpers'

/** The matrix comes from the manifest and the API's own route table: a new route is tested without a new test. */
const DASH = 'dashboard_dashboard_access'
const protectedRoutes = ROUTES.filter((r) => !r.public)

async function page(host: string, entry: RouteEntry, permissions: string[]) {
  const realm = host === DEMO ? 'demo' : 'escola'
  const { cookie, role } = await userWith(realm, permissions)
  return call(host, samplePath(entry, { realm, role }), { headers: { cookie } })
}
const sentAway = (res: Response) => res.status === 302 && (res.headers.get('location') ?? '').startsWith('/notfound?path=')

describe('every console route behind its manifest requirement', () => {
  it('names only catalogue permissions', () => {
    const known = new Set<string>(PERMISSIONS)
    for (const r of ROUTES) for (const p of [...(r.access.all ?? []), ...(r.access.any ?? [])]) expect(known.has(p), `${r.id}: ${p}`).toBe(true)
  })

  it.each(protectedRoutes.map((r) => [r.id, r] as const))('%s', async (_id, entry) => {
    const all = [...(entry.access.all ?? [])]
    const any = [...(entry.access.any ?? [])]
    const exact = [DASH, ...all, ...any.slice(0, 1)]

    const allowed = await page(DEMO, entry, exact)
    expect(sentAway(allowed), `exact permissions must get in (${allowed.status})`).toBe(false)
    expect([401, 403]).not.toContain(allowed.status)

    for (const missing of all) {
      const res = await page(
        DEMO,
        entry,
        exact.filter((p) => p !== missing),
      )
      expect(sentAway(res), `without ${missing}`).toBe(true)
    }
    if (any.length) {
      expect(sentAway(await page(DEMO, entry, [DASH, ...all])), 'without any of the OR set').toBe(true)
      for (const one of any) expect(sentAway(await page(DEMO, entry, [DASH, ...all, one])), `with only ${one}`).toBe(false)
    }
    if (entry.access.flags?.length) {
      expect(sentAway(await page(ESCOLA, entry, exact)), `escola lacks ${entry.access.flags.join(', ')}`).toBe(true)
    }
  })

  it('sends to the sign-in page, not the page, without a session', async () => {
    for (const entry of protectedRoutes.slice(0, 20)) {
      const res = await call(DEMO, samplePath(entry))
      expect(res.status, entry.id).toBe(302)
      expect(res.headers.get('location'), entry.id).toMatch(/^\/login(\?|$)/)
    }
  })

  it('serves public routes without a session, persona chat only where persona_enabled', async () => {
    for (const entry of ROUTES.filter((r) => r.public && r.id !== 'public.persona.chat')) {
      const demo = await call(DEMO, samplePath(entry))
      expect(demo.status, entry.id).toBe(200)
    }
    // The chat page answers for its persona: the sample id names none (404 with the page's "not found"); a realm
    // without persona_enabled has no such page at all. persona-chat.test.ts opens a real persona's chat (200).
    const chat = ROUTES.find((r) => r.id === 'public.persona.chat')!
    const unknown = await call(DEMO, samplePath(chat))
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('Persona não encontrada.')
    expect((await call(ESCOLA, samplePath(chat))).status).toBe(404)
  })
})

describe('the documented table', () => {
  it('is up to date with the catalogue, the manifest and the API (npm run docs)', () => {
    expect(doc).toBe(permissionsMarkdown(apiEndpoints()))
  })
})

describe('every API endpoint behind its declared requirement', () => {
  const routes = createApi().routes.filter((r) => r.handler !== versionHeader)

  it('declares a requirement on every endpoint', () => {
    const undeclared = routes.filter((r) => endpointAccess(r.handler) === undefined).map((r) => `${r.method} ${r.path}`)
    expect(undeclared).toEqual([])
  })

  const guarded = routes.filter((r) => {
    const a = endpointAccess(r.handler)
    return a !== undefined && a !== 'public'
  })

  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const access = endpointAccess(route.handler)
    if (!access || access === 'public') throw new Error('unreachable')
    const all = [...(access.all ?? [])]
    const any = [...(access.any ?? [])]
    const exact = [DASH, ...all, ...any.slice(0, 1)]
    const request = async (realm: 'demo' | 'escola', permissions: string[], token = true) => {
      const user = await userWith(realm, permissions)
      const method = route.method === 'ALL' ? 'GET' : route.method
      // One's own role is readable without mas_role_get, but never writable (privilege.test.ts): writes address
      // `student`, a role granting nothing, so no permission of it is beyond the caller.
      const role = method === 'GET' ? user.role : 'student'
      const path = route.path
        .replace(/^\/api/, '')
        .replace(/:role\b/, role)
        .replace(/:realm\b/, realm)
        .replace(/:[a-zA-Z_]+/g, 'sample')
      return api(realm === 'demo' ? DEMO : ESCOLA, path, {
        method,
        token: token ? user.token : undefined,
        json: ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined,
      })
    }

    expect((await request('demo', exact, false)).status, 'no token').toBe(401)
    const allowed = await request('demo', exact)
    expect([401, 403], `exact permissions (${allowed.status}) ${await allowed.clone().text()}`).not.toContain(allowed.status)
    for (const missing of all)
      expect(
        (
          await request(
            'demo',
            exact.filter((p) => p !== missing),
          )
        ).status,
        `without ${missing}`,
      ).toBe(403)
    if (any.length) {
      expect((await request('demo', [DASH, ...all])).status, 'without any of the OR set').toBe(403)
      for (const one of any) expect((await request('demo', [DASH, ...all, one])).status, `with only ${one}`).not.toBe(403)
    }
    if (access.flags?.length) expect((await request('escola', exact)).status, 'realm flag off').toBe(403)
  })
})
