import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { expect } from 'vitest'
import type { ErrorEnvelope } from '#shared/schemas/error'
import { createSession } from '../../worker/db/sessions'
import worker from '../../worker/index'

export const DEMO = 'demo.localhost'
export const ESCOLA = 'escola.localhost'

/**
 * A request to the Worker as a browser on `host` would send it, handed to the Worker's own fetch handler with its
 * waitUntil work awaited (so every write of the request is seen when this resolves). Not through SELF.fetch: that
 * slows down with every request a test file makes (GET /api/version from ~5 ms to ~130 ms after 800 calls).
 */
export async function call(host: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('host', host)
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request(`http://${host}${path}`, { redirect: 'manual', ...init, headers }), env, ctx)
  // Read whole before the waitUntil work is awaited, as a client of the deployed Worker would see it.
  const bytes = await res.arrayBuffer()
  const answer = new Response([101, 204, 205, 304].includes(res.status) ? null : bytes, res)
  await waitOnExecutionContext(ctx)
  return answer
}

/** A cookie value as Remix's createCookie writes it (base64 of the JSON value). */
export function cookieValue(value: unknown): string {
  return encodeURIComponent(btoa(JSON.stringify(value)))
}

/** A JSON call to the realm API. */
export function api(host: string, path: string, init: RequestInit & { json?: unknown; token?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) headers.set('content-type', 'application/json')
  if (init.token) headers.set('x-api-key', init.token)
  return call(host, `/api/${path.replace(/^\//, '')}`, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  })
}

/** Signs in through POST /api/device and returns the token. */
export async function signIn(host: string, realm: string, nick: string, password = 'demo1234'): Promise<string> {
  const res = await api(host, 'device', { method: 'POST', json: { realm, nick, password } })
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as { auth_token: string }).auth_token
}

/** Asserts the error envelope with the given status and (first) cause. */
export async function expectEnvelope(res: Response, status: number, cause?: string): Promise<ErrorEnvelope> {
  expect(res.status).toBe(status)
  const body = (await res.json()) as ErrorEnvelope
  expect(Array.isArray(body.errors)).toBe(true)
  expect(body.errors.length).toBeGreaterThan(0)
  for (const e of body.errors) expect(Object.keys(e).sort()).toEqual(['cause', 'field', 'message', 'value'])
  if (cause) expect(body.errors.map((e) => e.cause)).toContain(cause)
  return body
}

/** Signs in through the console's /login action and returns the session cookie header. */
export async function consoleSignIn(host: string, nick: string, password = 'demo1234', extraCookie = ''): Promise<string> {
  const form = new FormData()
  form.set('nick', nick)
  form.set('password', password)
  form.set('redirectTo', '/')
  const res = await call(host, '/login', { method: 'POST', body: form, headers: { origin: `http://${host}`, cookie: extraCookie } })
  expect(res.status, await res.clone().text()).toBe(302)
  const setCookie = res.headers.get('set-cookie') ?? ''
  const match = /(?:__Host-)?dash_session=[^;]+/.exec(setCookie)
  expect(match).not.toBeNull()
  return [extraCookie, match![0]].filter(Boolean).join('; ')
}

const crafted = new Map<string, Promise<{ role: string; nick: string }>>()

/** Forgets the users userWith made (setup.ts calls it when a new test file starts on a fresh database). */
export function forgetCraftedUsers(): void {
  crafted.clear()
}

/**
 * A staff member of `realm` holding exactly `permissions` (one role of their own), with a new session (a console one for a console user): its
 * API token and the console cookie. Rows are written with plain SQL, the session with the product's createSession.
 */
export async function userWith(realm: string, permissions: readonly string[]) {
  const key = `${realm}|${[...permissions].sort().join(',')}`
  let found = crafted.get(key)
  if (!found) {
    found = (async () => {
      const id = crypto.randomUUID().replace(/-/g, '').slice(0, 10)
      const role = `m${id}`
      const nick = `u${id}`
      await env.DB.batch([
        env.DB.prepare('INSERT INTO role (realm, role, description) VALUES (?, ?, ?)').bind(realm, role, 'matrix'),
        ...[...new Set(permissions)].map((p) => env.DB.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?)').bind(realm, role, p)),
        env.DB.prepare('INSERT INTO user (realm, nick, name, origin_realm) VALUES (?, ?, ?, ?)').bind(realm, nick, `Matrix ${id}`, realm),
        env.DB.prepare('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, 0)').bind(realm, nick, role),
        // A console user (dashboard_dashboard_access) of a realm that restricts its console to some roles
        // (allowed_roles, such as escola's): the realm lists the crafted role too; every other role stays refused.
        ...(permissions.includes('dashboard_dashboard_access')
          ? [
              env.DB.prepare(
                "UPDATE realm SET allowed_roles = json_insert(allowed_roles, '$[#]', ?) WHERE code = ? AND json_array_length(allowed_roles) > 0",
              ).bind(role, realm),
            ]
          : []),
      ])
      return { role, nick }
    })()
    crafted.set(key, found)
  }
  const { role, nick } = await found
  // A console session for a console user; the web client's otherwise (a console session the realm's allowed_roles
  // leave out would end at its first request).
  const platform = permissions.includes('dashboard_dashboard_access') ? 'dashboard' : 'web'
  const { token } = await createSession(env.DB, realm, nick, { platform })
  return { token, cookie: `dash_session=${cookieValue(token)}`, role, nick }
}
