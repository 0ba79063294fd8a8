import { createRequestHandler, type AppLoadContext } from '@remix-run/cloudflare'
import { Hono } from 'hono'
import * as build from 'remix-server-build'
import '#shared/load-context'
import { realmCookie, sessionToken } from '#shared/cookies.server'
import { NO_SCRIPT_POLICY, applyBaseHeaders, newNonce } from '#shared/security-headers.server'
import { createApi } from './api'
import type { AppEnv, Ctx, InProcess } from './api/context'
import { abortAbandonedRecordings } from './db/csm-recording'
import { rollupRealms } from './db/analytics'
import { cleanupExpiredFiles, fileHeaders, findServedFile } from './db/files'
import { redactExpiredChats } from './db/persona-chat'
import { purgeDeletedRealms } from './db/purge'
import { resolveHost } from './db/realms'
import { readHostAndSession, readPageHost } from './db/sessions'
import { tokenHash as hashOf } from './lib/crypto'
import { RememberingRouter } from './lib/remembering-router'
import { publishDuePeriods } from './db/achievement'

export { LedgerPayer } from './api/ledger/payer'

const handleRemix = createRequestHandler(build)
const api = createApi()

/**
 * What the in-process API calls of one console request inherit from it: the host's realm, already resolved (and
 * known not deleted) by the request itself, and the session lookups by token, shared by its calls (a page's loaders
 * ask the API for the session, the wallet and the list with one token). A write through the API forgets the
 * lookups, so calls after it (the loaders after an action that signs out or switches realm) read afresh.
 */
const inherited = new WeakMap<Request, InProcess>()

/**
 * The load context of one console request. `dispatch` runs a request through this Worker (the realm API) in-process;
 * tests pass one that counts the calls.
 */
export function consoleLoadContext(
  env: Env,
  ctx: ExecutionContext,
  hostRealm: string | null,
  dispatch: (request: Request) => Response | Promise<Response>,
  prefetch?: InProcess['prefetch'],
): AppLoadContext {
  const shared: InProcess = { hostRealm, sessions: new Map(), prefetch }
  const forget = () => {
    shared.sessions.clear()
    shared.prefetch = undefined
  }
  return {
    cloudflare: { env, ctx },
    hostRealm,
    fetchApi: async (request: Request) => {
      const write = request.method !== 'GET' && request.method !== 'HEAD'
      if (write) forget()
      inherited.set(request, shared)
      try {
        return await dispatch(request)
      } finally {
        if (write) forget()
      }
    },
    cspNonce: newNonce(),
  }
}

/**
 * State-changing console requests must come from the console's own pages. The session cookie is SameSite=Lax,
 * and this check refuses any cross-origin POST/PUT/PATCH/DELETE (Origin header, or Sec-Fetch-Site when a
 * browser sends no Origin). The API itself authenticates with the x-api-key header, which no other site can send.
 */
function isCrossSiteWrite(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false
  const origin = request.headers.get('origin')
  if (origin) return origin !== new URL(request.url).origin
  const site = request.headers.get('sec-fetch-site')
  return site !== null && site !== 'same-origin' && site !== 'none'
}

// The router remembers its answer per method and path (worker/lib/remembering-router.ts): every request is matched here.
const app = new Hono<AppEnv>({ router: new RememberingRouter() })

/** What a console page's entry read with its host (readPageHost), handed to the page's in-process API calls. */
const pagePrefetch = new WeakMap<Request, NonNullable<InProcess['prefetch']>>()

/**
 * The realm of the request's host; for an API request carrying a token, read in one batch with the token's session
 * (kept in the context for requireAuth), so a guarded call costs one round trip less. For a console page, read in one
 * batch with the host's realm row, the session cookie's session and its user's wallet, which the page's loaders ask the
 * API for on every page (the realm configuration, the session, the top bar's balance): those in-process calls then need no round trip of their own.
 */
async function hostAndSession(c: Ctx, url: URL) {
  if (url.pathname.startsWith('/files/')) return resolveHost(c.env.DB, url.hostname)
  if (!url.pathname.startsWith('/api/')) {
    const token = await sessionToken(c.req.raw)
    const tokenHash = token ? await hashOf(token) : null
    const { host, realmRow, session, wallet } = await readPageHost(c.env.DB, url.hostname, tokenHash)
    pagePrefetch.set(c.req.raw, { realmRow, session: token && tokenHash && session ? { token, tokenHash, results: session } : null, wallet })
    return host
  }
  const token = c.req.header('x-api-key')
  if (!token) return resolveHost(c.env.DB, url.hostname)
  const tokenHash = await hashOf(token)
  const { host, session } = await readHostAndSession(c.env.DB, url.hostname, tokenHash)
  c.set('sessionPrefetch', { token, tokenHash, results: session })
  return host
}

/** What a host of a deleted realm answers until the realm is restored or purged (it serves nothing else). */
const REALM_DELETED_PAGE = 'Realm indisponível. · Realm not available. · Realm no disponible.'

app.use('*', async (c, next) => {
  const url = new URL(c.req.url)
  const parent = inherited.get(c.req.raw)
  if (parent) {
    c.set('sessions', parent.sessions)
    if (parent.prefetch?.session) c.set('sessionPrefetch', parent.prefetch.session)
    if (parent.prefetch?.realmRow) c.set('realmPrefetch', parent.prefetch.realmRow)
    if (parent.prefetch?.wallet) c.set('walletPrefetch', parent.prefetch.wallet)
  }
  const bound = parent ? (parent.hostRealm === null ? null : { realm: parent.hostRealm, deleted: false }) : await hostAndSession(c, url)
  c.set('hostRealm', bound?.realm ?? null)
  if (bound?.deleted) {
    c.res = url.pathname.startsWith('/api/')
      ? c.json({ errors: [{ field: 'realm', cause: 'realm_deleted', value: bound.realm, message: 'This realm is not available.' }] }, 404)
      : c.text(REALM_DELETED_PAGE, 404)
  } else {
    await next()
  }
  // Every answer: nosniff, Referrer-Policy, HSTS outside local hosts; HTML that is not a console page runs no script.
  // (A response with immutable headers, such as one passed through from fetch(), is copied first.)
  try {
    c.res.headers.set('X-Content-Type-Options', 'nosniff')
  } catch {
    c.res = new Response(c.res.body, c.res)
  }
  const headers = c.res.headers
  applyBaseHeaders(headers, url)
  if (headers.get('content-type')?.startsWith('text/html')) {
    if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', NO_SCRIPT_POLICY)
    headers.set('X-Frame-Options', 'DENY')
  }
})

app.route('/api', api)

const NOT_FOUND = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })

/**
 * Uploaded files, by their storage key (the `cdn_full_url` of POST /api/mas/file), with safe headers, served only
 * where the realm that owns them is: on a realm's own host only that realm's files; on a multi-realm host (such as
 * localhost) only the files of the realm the browser has chosen (the chooser's cookie). A malformed key is a 404.
 */
app.get('/files/*', async (c) => {
  let key: string
  try {
    key = decodeURIComponent(new URL(c.req.url).pathname.slice('/files/'.length))
  } catch {
    return NOT_FOUND()
  }
  const row = await findServedFile(c.env.DB, key)
  if (!row) return NOT_FOUND()
  const servedRealm = c.get('hostRealm') ?? ((await realmCookie(c.req.raw).parse(c.req.header('cookie') ?? null)) as string | null)
  if (row.realm !== servedRealm) return NOT_FOUND()
  const object = await c.env.FILES.get(key)
  if (!object) return NOT_FOUND()
  const headers = fileHeaders(row)
  headers.set('ETag', object.httpEtag)
  headers.set('Content-Length', String(object.size))
  return new Response(object.body, { headers })
})

app.all('*', async (c) => {
  if (isCrossSiteWrite(c.req.raw)) {
    return c.text('Cross-site request refused.', 403)
  }
  const ctx = c.executionCtx as ExecutionContext
  return handleRemix(
    c.req.raw,
    consoleLoadContext(c.env, ctx, c.get('hostRealm'), (request) => app.fetch(request, c.env, ctx), pagePrefetch.get(c.req.raw)),
  )
})

export default {
  fetch: app.fetch,
  /**
   * Hourly (wrangler.toml [triggers]): removes temporary uploads whose time is up, and purges the realms deleted
   * more than 30 days ago (worker/db/purge.ts; a bounded amount of work per run, the rest in the next hour), and
   * clears the visitor data of persona chats past their realm's retention (worker/db/persona-chat.ts).
   */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      (async () => {
        // One after the other, each on its own: a failure of one job does not keep the other from running.
        await cleanupExpiredFiles(env).catch((err: unknown) => console.error('[scheduled] upload cleanup failed:', err))
        await purgeDeletedRealms(env).catch((err: unknown) => console.error('[scheduled] realm purge failed:', err))
        await redactExpiredChats(env.DB).catch((err: unknown) => console.error('[scheduled] chat retention failed:', err))
        await abortAbandonedRecordings(env).catch((err: unknown) => console.error('[scheduled] recording cleanup failed:', err))
        await publishDuePeriods(env.DB, new Date().toISOString().slice(0, 10)).catch((err: unknown) => console.error('[scheduled] goal periods failed:', err))
        await rollupRealms(env.DB).catch((err: unknown) => console.error('[scheduled] analytics rollup failed:', err))
      })(),
    )
  },
} satisfies ExportedHandler<Env>
