import { createRequestHandler } from '@remix-run/cloudflare'
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import * as build from 'remix-server-build'
import { describe, expect, it } from 'vitest'
import worker, { consoleLoadContext } from '../../worker/index'
import { readPageHost, sessionFrom, sessionReads } from '../../worker/db/sessions'
import { sha256Hex } from '../../worker/lib/crypto'
import { countingD1, type D1Log } from './d1-counter'
import type { RawStatement } from '../../worker/db/ledger-group'
import { DEMO, consoleSignIn, signIn } from './helpers'
import { balance, expectInvariants, funded, key, recipient } from './ledger-helpers'

const handle = createRequestHandler(build as unknown as Parameters<typeof createRequestHandler>[0])

/**
 * Renders a console page as the Worker entry does (its load context, consoleLoadContext), with a D1 binding that
 * counts round trips and a dispatcher that records the page's in-process API calls.
 */
async function render(path: string, cookie: string) {
  const log: D1Log = { trips: [] }
  const counted = { ...env, DB: countingD1(env.DB, log) } as Env
  const ctx = createExecutionContext()
  const calls: string[] = []
  const context = consoleLoadContext(counted, ctx, 'demo', (request) => {
    calls.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api\//, '')}`)
    return worker.fetch(request, counted, ctx)
  })
  const res = await handle(new Request(`http://${DEMO}${path}`, { headers: { cookie, host: DEMO } }), context)
  const html = await res.text()
  await waitOnExecutionContext(ctx)
  return { status: res.status, html, calls: calls.sort(), trips: log.trips }
}

describe('what one console page asks of the API and of D1', () => {
  it('home: the realm once, the session once, the wallet', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const page = await render('/', cookie)
    expect(page.status).toBe(200)
    expect(page.calls).toEqual(['GET ledger/wallet/root%40demo', 'GET mas/realm/demo/config', 'GET mas/session'])
    expect(page.trips.length, page.trips.join('\n')).toBeLessThanOrEqual(HOME_TRIPS)
    expectNoPermissionMap(page.html)
  })

  it('/user list: the realm once, the session once, the wallet and the list', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const page = await render('/user', cookie)
    expect(page.status).toBe(200)
    expect(page.html).toContain('root@demo')
    expect(page.calls).toEqual(['GET ledger/wallet/root%40demo', 'GET mas/realm/demo/config', 'GET mas/session', 'GET mas/user'])
    expect(page.trips.length, page.trips.join('\n')).toBeLessThanOrEqual(LIST_TRIPS)
    expectNoPermissionMap(page.html)
  })

  it('through the Worker entry: the host, its realm, the session and the own wallet in one batch; the list adds its page', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    for (const [path, trips] of [
      ['/', 1],
      ['/user', 2],
    ] as const) {
      const log: D1Log = { trips: [] }
      const counted = { ...env, DB: countingD1(env.DB, log) } as Env
      const ctx = createExecutionContext()
      const res = await worker.fetch(new Request(`http://${DEMO}${path}`, { headers: { cookie, host: DEMO } }), counted, ctx)
      const html = await res.text()
      await waitOnExecutionContext(ctx)
      expect(res.status, path).toBe(200)
      expect(html).toContain('root@demo')
      // The first round trip is the entry's: the host, the host's realm row, the cookie's session and its wallet.
      expect(log.trips[0]).toContain('realm_host')
      expect(log.trips[0]).toContain('SELECT r.* FROM realm_host')
      expect(log.trips[0]).toContain('FROM session s')
      expect(
        log.trips.filter((t) => t.includes('FROM session s')),
        log.trips.join('\n'),
      ).toHaveLength(1)
      expect(
        log.trips.some((t) => t.startsWith('SELECT * FROM realm WHERE code')),
        log.trips.join('\n'),
      ).toBe(false)
      expect(log.trips, log.trips.join('\n')).toHaveLength(trips)
    }
  })

  it('a page whose action writes reads afresh: what the entry read with the host (session, wallet) is dropped at the write', async () => {
    const payer = await funded(10)
    const to = await recipient()
    const log: D1Log = { trips: [] }
    const counted = { ...env, DB: countingD1(env.DB, log) } as Env
    const ctx = createExecutionContext()
    const tokenHash = await sha256Hex(payer.token)
    const page = await readPageHost(counted.DB, DEMO, tokenHash)
    expect(page.wallet).toEqual({ id: `user:demo:${payer.nick}`, balance: 10, updated_at: expect.any(String) })
    const context = consoleLoadContext(counted, ctx, 'demo', (request) => worker.fetch(request, counted, ctx), {
      realmRow: page.realmRow,
      session: { token: payer.token, tokenHash, results: page.session! },
      wallet: page.wallet,
    })
    const headers = { 'x-api-key': payer.token }
    const get = (path: string) => context.fetchApi(new Request(`http://${DEMO}/api/${path}`, { headers }))
    const points = async () => ((await (await get(`ledger/wallet/${encodeURIComponent(payer.nick)}`)).json()) as { points: number }).points
    const before = log.trips.length
    expect((await get('mas/session')).status).toBe(200)
    expect(await points()).toBe(10)
    // Both answered from what the entry read: no session or wallet query of their own.
    expect(log.trips.slice(before), log.trips.slice(before).join('\n')).toEqual([])
    const transfer = new Request(`http://${DEMO}/api/ledger/transaction/transfer`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ targets: [to.nick], points: 3, description: 'aula extra', idempotency_key: key() }),
    })
    expect((await context.fetchApi(transfer)).status).toBe(201)
    expect(await points()).toBe(7)
    expect((await context.fetchApi(new Request(`http://${DEMO}/api/device`, { method: 'DELETE', headers }))).status).toBe(204)
    expect((await get('mas/session')).status).toBe(401)
    await waitOnExecutionContext(ctx)
  })

  it('a write through the API forgets the cached session: a signed-out session is not served from cache', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const log: D1Log = { trips: [] }
    const counted = { ...env, DB: countingD1(env.DB, log) } as Env
    const ctx = createExecutionContext()
    const context = consoleLoadContext(counted, ctx, 'demo', (request) => worker.fetch(request, counted, ctx))
    const token = decodeURIComponent(/dash_session=([^;]+)/.exec(cookie)![1])
    const session = JSON.parse(atob(token)) as string
    const get = () => context.fetchApi(new Request(`http://${DEMO}/api/mas/session`, { headers: { 'x-api-key': session } }))
    expect((await get()).status).toBe(200)
    const before = log.trips.length
    expect((await get()).status).toBe(200)
    // The second read within the request is served from the shared lookup: no session query.
    expect(log.trips.slice(before).some((sql) => sql.includes('FROM session s'))).toBe(false)
    expect((await context.fetchApi(new Request(`http://${DEMO}/api/device`, { method: 'DELETE', headers: { 'x-api-key': session } }))).status).toBe(204)
    expect((await get()).status).toBe(401)
    await waitOnExecutionContext(ctx)
  })
})

/**
 * The page's data (serialized into the HTML for hydration) carries what the shell and the page show, not the session's
 * permission map (about 250 keys, encoded and decoded on every page before): the shell gets two flags (ShellUser).
 */
function expectNoPermissionMap(html: string) {
  expect(html).toContain('window.__remixContext')
  expect(html).toContain('canSwitchRealm')
  expect(html).not.toContain('dashboard_dashboard_access')
  expect(html).not.toContain('mas_user_delete')
}

/**
 * D1 round trips of the pages' loaders when these budgets were set (issue 12; about 20 before): the realm row, the
 * session with its permissions and realm flags (one batch), the wallet's balance (the caller's own full nick needs no
 * read of the realm's nick suffix), and
 * for the list its page with its count and its rows' roles (one batch). The Worker entry's host lookup for the page
 * itself comes on top; through the entry, the realm row and the session come with it (the test above).
 * A change that adds queries to every page fails here.
 */
const HOME_TRIPS = 3
const LIST_TRIPS = 4

describe('what an API list call asks of D1', () => {
  it('two round trips: the host with the session (one batch), then the page with its count and roles (one batch)', async () => {
    const token = await signIn(DEMO, 'demo', 'root')
    const log: D1Log = { trips: [] }
    const counted = { ...env, DB: countingD1(env.DB, log) } as Env
    const ctx = createExecutionContext()
    const res = await worker.fetch(new Request(`http://${DEMO}/api/mas/user?limit=5`, { headers: { host: DEMO, 'x-api-key': token } }), counted, ctx)
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(200)
    const page = (await res.json()) as { items: { roles: string[] }[] }
    expect(page.items.every((u) => Array.isArray(u.roles))).toBe(true)
    expect(log.trips, log.trips.join('\n')).toHaveLength(2)
    expect(log.trips[0]).toContain('realm_host')
    expect(log.trips[0]).toContain('FROM session s')
  })
})

describe('what a session lookup hands over from D1', () => {
  it('one row per role with its permissions as one array (not a row per permission), and the same permissions', async () => {
    const token = await signIn(DEMO, 'demo', 'root')
    const tokenHash = await sha256Hex(token)
    const results = await env.DB.batch(sessionReads(env.DB, tokenHash))
    const expected = await env.DB.prepare(
      `SELECT DISTINCT rp.permission FROM session s
       JOIN user_role ur ON ur.realm = s.realm AND ur.nick = s.nick
       JOIN role_permission rp ON rp.realm = ur.realm AND rp.role = ur.role
       WHERE s.token_hash = ?`,
    )
      .bind(tokenHash)
      .all<{ permission: string }>()
    const roles = await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM session s JOIN user_role ur ON ur.realm = s.realm AND ur.nick = s.nick WHERE s.token_hash = ?',
    )
      .bind(tokenHash)
      .first<{ n: number }>()
    // root holds hundreds of permissions; they come as one row per role.
    expect(expected.results.length).toBeGreaterThan(100)
    expect(results[1].results).toHaveLength(roles!.n)
    const lookup = await sessionFrom(env.DB, tokenHash, results)
    if (lookup.status !== 'ok') throw new Error(lookup.status)
    expect([...lookup.auth.permissions].sort()).toEqual(expected.results.map((r) => r.permission).sort())
  })
})

describe('what a ledger transfer asks of D1', () => {
  it('first to new recipients: one read batch and one write batch besides the host and the session; then the write batch alone', async () => {
    const payer = await funded(10)
    const a = await recipient()
    const log: D1Log = { trips: [] }
    // The movement's batch is run by the paying wallet's object (LedgerPayer): its call is counted as the batch's trip.
    const payers = env.LEDGER_PAYER
    const countedPayers = {
      idFromName: (name: string) => payers.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = payers.get(id)
        return {
          post: (statements: RawStatement[]) => {
            log.trips.push(`payer batch: ${statements.map((st) => st.sql).join(' | ')}`)
            return stub.post(statements)
          },
        }
      },
    }
    const counted = { ...env, DB: countingD1(env.DB, log), LEDGER_PAYER: countedPayers } as unknown as Env
    const send = async (body: string) => {
      const ctx = createExecutionContext()
      const res = await worker.fetch(
        new Request(`http://${DEMO}/api/ledger/transaction/transfer`, {
          method: 'POST',
          headers: { host: DEMO, 'content-type': 'application/json', 'x-api-key': payer.token },
          body,
        }),
        counted,
        ctx,
      )
      await waitOnExecutionContext(ctx)
      return res
    }
    const body = (points: number, k = key()) => JSON.stringify({ targets: [a.nick], points, description: 'aula extra', idempotency_key: k })
    const first = body(3)
    expect((await send(first)).status).toBe(201)
    // The host with the session (one batch), the reads (key, recipients, word filter: one batch), the movement (one batch).
    expect(log.trips.length, log.trips.join('\n')).toBe(3)
    expect(log.trips.filter((t) => t.startsWith('batch:'))).toHaveLength(2)
    expect(log.trips[2]).toMatch(/^payer batch: /)
    log.trips.length = 0
    // The same recipients again: the reads are checked inside the movement's own batch (host and session, movement).
    expect((await send(body(2))).status).toBe(201)
    expect(log.trips.length, log.trips.join('\n')).toBe(2)
    expect(log.trips[1]).toMatch(/^payer batch: /)
    expect(log.trips[1]).toContain('INSERT INTO ledger_idempotency')
    expect(log.trips[1]).toContain('INSERT INTO ledger_entry')
    log.trips.length = 0
    // A replay: the one batch fails on the key (nothing written), then the key's row is read and answered.
    const again = await send(first)
    expect(again.status).toBe(201)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(log.trips, log.trips.join('\n')).toHaveLength(3)
    expect(await balance(payer.nick)).toBe(5)
    expect(await balance(a.nick)).toBe(5)
    await expectInvariants()
  })
})
