import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { AppLoadContext } from '@remix-run/cloudflare'
import { RealmApiError, apiData, orErrorResponse, realmApi } from '~/server/api.server'

/** The console's client, dispatching in-process to a realm API that never answers (a stalled upstream). */
const stalled = {
  cloudflare: { env, ctx: {} as ExecutionContext },
  hostRealm: 'demo',
  fetchApi: () => new Promise<Response>(() => undefined),
} as unknown as AppLoadContext

/** A context whose in-process realm API records each request and answers with `reply`. */
function recording(reply: (req: Request) => Response) {
  const seen: { method: string; url: URL; headers: Headers; body: string }[] = []
  const context = {
    cloudflare: { env, ctx: {} as ExecutionContext },
    hostRealm: 'demo',
    fetchApi: async (req: Request) => {
      seen.push({ method: req.method, url: new URL(req.url), headers: req.headers, body: await req.clone().text() })
      return reply(req)
    },
  } as unknown as AppLoadContext
  return { seen, context }
}

const browser = new Request('http://demo.localhost/user', { headers: { 'user-agent': 'Browser/1.0', 'cf-connecting-ip': '203.0.113.9' } })

describe('the realm API client', () => {
  it('gives up after the timeout with cause timeout (the table shows its error state)', async () => {
    const api = realmApi(new Request('http://demo.localhost/realm'), stalled).withTimeout(50)
    const err = await api.mas.realm.$get({ query: {} }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RealmApiError)
    expect((err as RealmApiError).status).toBe(504)
    expect((err as RealmApiError).has('timeout')).toBe(true)
    const res = await orErrorResponse(apiData(api.mas.realm.$get({ query: {} }))).catch((e: unknown) => e)
    expect(res).toBeInstanceOf(Response)
    expect((res as Response).status).toBe(504)
    expect(await (res as Response).json()).toMatchObject({ errors: [{ cause: 'timeout' }] })
  })

  it('goes over HTTP when the realm API is elsewhere, and reports a network failure', async () => {
    const api = realmApi(new Request('http://demo.localhost/realm'), stalled, { endpoint: 'http://127.0.0.1:9/api/' })
    const err = await apiData(api.version.$get()).catch((e: unknown) => e)
    expect((err as RealmApiError).has('network')).toBe(true)
  })

  it('sends the typed call in-process: path parameters encoded, empty query values left out, the console headers set', async () => {
    const { seen, context } = recording(() => Response.json({ nick: 'ana maria', ceiling: null }))
    const api = realmApi(browser, context, { token: 'tok-1', realm: 'demo' })
    const user = await apiData(api.mas.user[':nick'].$get({ param: { nick: 'ana maria/x?' }, query: { fields: 'nick', like: '', role: null } }))
    expect(user.nick).toBe('ana maria')
    expect(seen).toHaveLength(1)
    const [req] = seen
    expect(req.method).toBe('GET')
    expect(req.url.origin).toBe('http://demo.localhost')
    expect(req.url.pathname).toBe('/api/mas/user/ana%20maria%2Fx%3F')
    expect([...req.url.searchParams]).toEqual([['fields', 'nick']])
    expect(req.headers.get('accept')).toBe('application/json')
    expect(req.headers.get('x-dash-version')).toBe(env.DASH_VERSION)
    expect(req.headers.get('x-api-key')).toBe('tok-1')
    expect(req.headers.get('x-api-realm')).toBe('demo')
    expect(req.headers.get('user-agent')).toBe('Browser/1.0')
    expect(req.headers.get('cf-connecting-ip')).toBe('203.0.113.9')
  })

  it('sends JSON bodies and per-call headers, and reads a 204 as null', async () => {
    const { seen, context } = recording(() => new Response(null, { status: 204 }))
    const api = realmApi(browser, context)
    const answer = await apiData(api.mas.password.reset.$post({ json: { password: 'x', confirm: 'x' } }, { headers: { 'x-reset-key': 'k1' } }))
    expect(answer).toBeNull()
    expect(seen[0].method).toBe('POST')
    expect(seen[0].url.pathname).toBe('/api/mas/password/reset')
    expect(seen[0].headers.get('content-type')).toBe('application/json')
    expect(seen[0].headers.get('x-reset-key')).toBe('k1')
    expect(JSON.parse(seen[0].body)).toEqual({ password: 'x', confirm: 'x' })
  })

  it("turns the API's error envelope into a RealmApiError with its items (status kept)", async () => {
    const item = { field: 'nick', cause: 'not_found', value: 'zz', message: 'User zz was not found.' }
    const { context } = recording(() => Response.json({ errors: [item] }, { status: 404 }))
    const err = await apiData(realmApi(browser, context).mas.user[':nick'].$get({ param: { nick: 'zz' } })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RealmApiError)
    expect((err as RealmApiError).status).toBe(404)
    expect((err as RealmApiError).errors).toEqual([item])
    // An answer that is not the envelope still fails, as `internal` with the status.
    const { context: broken } = recording(() => new Response('<html>', { status: 502, statusText: 'Bad Gateway' }))
    const bad = await realmApi(browser, broken)
      .version.$get()
      .catch((e: unknown) => e)
    expect((bad as RealmApiError).status).toBe(502)
    expect((bad as RealmApiError).has('internal')).toBe(true)
  })

  it('reaches a declared plain entity by its path, with the same dispatch', async () => {
    const { seen, context } = recording(() => Response.json({ items: [{ id: 'g1' }], total: 1, limit: 25, offset: 0 }, { status: 200 }))
    const page = await apiData(
      realmApi(browser, context)
        .entity('tms/genre')
        .index.$get({ query: { limit: 25, like: 'poe' } }),
    )
    expect(page.items).toEqual([{ id: 'g1' }])
    expect(seen[0].url.pathname).toBe('/api/tms/genre')
    expect(seen[0].url.searchParams.get('like')).toBe('poe')
  })
})
