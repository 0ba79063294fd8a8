import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { AppLoadContext } from '@remix-run/cloudflare'
import { RealmApiError, orErrorResponse, realmApi } from '~/server/api.server'

/** The console's client, dispatching in-process to a realm API that never answers (a stalled upstream). */
const stalled = {
  cloudflare: { env, ctx: {} as ExecutionContext },
  hostRealm: 'demo',
  fetchApi: () => new Promise<Response>(() => undefined),
} as unknown as AppLoadContext

describe('the realm API client', () => {
  it('gives up after the timeout with cause timeout (the table shows its error state)', async () => {
    const api = realmApi(new Request('http://demo.localhost/realm'), stalled)
    const err = await api.get('mas/realm', {}, { timeoutMs: 50 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RealmApiError)
    expect((err as RealmApiError).status).toBe(504)
    expect((err as RealmApiError).has('timeout')).toBe(true)
    const res = await orErrorResponse(api.get('mas/realm', {}, { timeoutMs: 50 })).catch((e: unknown) => e)
    expect(res).toBeInstanceOf(Response)
    expect((res as Response).status).toBe(504)
    expect(await (res as Response).json()).toMatchObject({ errors: [{ cause: 'timeout' }] })
  })

  it('goes over HTTP when the realm API is elsewhere, and reports a network failure', async () => {
    const api = realmApi(new Request('http://demo.localhost/realm'), stalled, { endpoint: 'http://127.0.0.1:9/api/' })
    const err = await api.get('version').catch((e: unknown) => e)
    expect((err as RealmApiError).has('network')).toBe(true)
  })
})
