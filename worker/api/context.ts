import type { Context } from 'hono'
import * as v from 'valibot'
import type { Access } from '#shared/access'
import { ApiError, apiError, issuesToErrors } from '../lib/errors'
import { readCapped } from '../lib/stream'
import type { WalletBalance } from '../db/ledger-catalog'
import type { RealmRow } from '../db/realms'
import { findSessionAuth, sessionFrom, type Auth, type SessionLookup } from '../db/sessions'

export type AppEnv = {
  Bindings: Env
  Variables: {
    /** Realm bound to the request's host, null on multi-realm hosts. Set by the Worker entry. */
    hostRealm: string | null
    auth?: Auth
    /** Identifies the request in logs, error answers and audit records (also sent as x-request-id). */
    requestId: string
    /** Session lookups shared by the in-process API calls of one console request (worker/index.ts). */
    sessions?: Map<string, Promise<SessionLookup>>
    /** The session reads of an API request's token, sent by the Worker entry with its host lookup (one round trip). */
    sessionPrefetch?: SessionPrefetch
    /** The live realm row of a console page's host, read by the Worker entry with its host lookup (in-process calls). */
    realmPrefetch?: RealmRow
    /** The balance of a console page's own user, read by the Worker entry with its host lookup (in-process calls). */
    walletPrefetch?: WalletBalance
  }
}

/** The results of sessionReads for `token`, read by requireAuth instead of a lookup of its own. */
export interface SessionPrefetch {
  token: string
  tokenHash: string
  results: D1Result[]
}

/** What the in-process API calls of one console request share (set by the Worker entry). */
export interface InProcess {
  hostRealm: string | null
  sessions: Map<string, Promise<SessionLookup>>
  /**
   * What the Worker entry read with the page's host lookup: the host's realm row, the session cookie's session
   * reads and its user's own wallet. Dropped at the first write through the API, like `sessions`.
   */
  prefetch?: { realmRow: RealmRow | null; session: SessionPrefetch | null; wallet: WalletBalance | null }
}
export type Ctx = Context<AppEnv>

/** The realm a request addresses: the host's realm, else the `x-api-realm` header (multi-realm hosts). */
export function requestRealm(c: Ctx): string | null {
  return c.get('hostRealm') ?? c.req.header('x-api-realm') ?? null
}

/** The caller's session, from the `x-api-key` token; 401 when missing, unknown, ended or bound to another realm. */
export async function requireAuth(c: Ctx): Promise<Auth> {
  const cached = c.get('auth')
  if (cached) return cached
  const token = c.req.header('x-api-key')
  if (!token) throw apiError(401, 'unauthorized', 'request without auth_token', 'x-api-key')
  const shared = c.get('sessions')
  let lookup = shared?.get(token)
  if (!lookup) {
    const pre = c.get('sessionPrefetch')
    lookup = pre && pre.token === token ? sessionFrom(c.env.DB, pre.tokenHash, pre.results) : findSessionAuth(c.env.DB, token)
    shared?.set(token, lookup)
  }
  const found = await lookup
  if (found.status === 'unknown') throw apiError(401, 'unauthorized', 'The auth token is not valid.', 'x-api-key')
  if (found.status === 'ended') throw apiError(401, 'session_timeout', 'The session has ended; sign in again.', 'x-api-key')
  const realm = requestRealm(c)
  if (realm && realm !== found.auth.realm) {
    throw apiError(401, 'realm', `The auth token is not valid for realm ${realm}.`, 'x-api-key')
  }
  c.set('auth', found.auth)
  return found.auth
}

/** The caller's session when it satisfies the requirement: every `all`, one of `any`, every realm flag. */
export async function requireAccess(c: Ctx, access: Access): Promise<Auth> {
  const auth = await requireAuth(c)
  if (access.all?.length) await requirePermission(c, ...access.all)
  if (access.any?.length) await requireAnyPermission(c, ...access.any)
  // The acting realm's flags come with the session (one lookup per request, shared by in-process calls).
  const off = access.flags?.find((f) => !auth.flags[f])
  if (off) throw apiError(403, 'disabled', `This realm does not have ${off}.`, 'realm', off)
  return auth
}

/** The caller's session when it holds every listed permission; 403 naming the first one missing. */
export async function requirePermission(c: Ctx, ...permissions: string[]): Promise<Auth> {
  const auth = await requireAuth(c)
  const missing = permissions.find((p) => !auth.permissions.has(p))
  if (missing) throw apiError(403, 'forbidden', `Permission ${missing} is required.`, 'permission', missing)
  return auth
}

/** The caller's session when it holds at least one of the listed permissions. */
export async function requireAnyPermission(c: Ctx, ...permissions: string[]): Promise<Auth> {
  const auth = await requireAuth(c)
  if (!permissions.some((p) => auth.permissions.has(p))) {
    throw apiError(403, 'forbidden', `One of ${permissions.join(', ')} is required.`, 'permission', permissions.join('|'))
  }
  return auth
}

/** Validates `input` against `schema`; 400 with one envelope item per failed rule. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (!result.success) throw new ApiError(400, issuesToErrors(result.issues))
  return result.output
}

/** Largest JSON body any endpoint reads (bytes); the largest real ones are task models and user imports. */
export const MAX_JSON_BYTES = 5 * 1024 * 1024
/** Deepest nesting of arrays and objects a JSON body may have; real bodies stay under 10 levels. */
export const MAX_JSON_DEPTH = 32

const bodies = new WeakMap<Request, unknown>()

/**
 * The request body as parsed JSON, read once per request and bounded before it is parsed: more than MAX_JSON_BYTES
 * is `too_large`, nesting deeper than MAX_JSON_DEPTH is `too_deep`, bytes that are not UTF-8 or text that is not
 * JSON are `invalid` (all 400). Without the bounds a 50,000-deep array overflowed the stack while being validated
 * or echoed in the error envelope, and answered a plain-text 500 that skipped the error handler.
 */
export async function readJsonBody(c: Ctx): Promise<unknown> {
  const request = c.req.raw
  if (bodies.has(request)) return bodies.get(request)
  const text = await readBodyText(request)
  if (nestingExceeds(text, MAX_JSON_DEPTH)) throw apiError(400, 'too_deep', 'validation.body.too_deep', 'body', MAX_JSON_DEPTH)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw apiError(400, 'invalid', 'The request body must be JSON.', 'body')
  }
  bodies.set(request, body)
  return body
}

/** The request body as UTF-8 text, at most `max` bytes (`too_large` otherwise); bytes that are not UTF-8 are `invalid`. */
export async function readBodyText(request: Request, max = MAX_JSON_BYTES): Promise<string> {
  if (Number(request.headers.get('content-length')) > max) {
    await request.body?.cancel().catch(() => undefined)
    throw tooLarge(max)
  }
  const bytes = await readBytes(request, max)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw apiError(400, 'invalid', 'The request body must be UTF-8 text.', 'body')
  }
}

/** The JSON body validated against `schema` (see readJsonBody for the bounds); 400 with the envelope otherwise. */
export async function readJson<S extends v.GenericSchema>(c: Ctx, schema: S): Promise<v.InferOutput<S>> {
  return parse(schema, await readJsonBody(c))
}

const tooLarge = (max: number) => apiError(400, 'too_large', 'validation.body.too_large', 'body', max)

/** The whole body, refusing it as soon as it passes `max` bytes (a lying or missing Content-Length included). */
async function readBytes(request: Request, max: number): Promise<Uint8Array> {
  if (request.bodyUsed) throw apiError(400, 'invalid', 'The request body was already read.', 'body')
  return readCapped(request.body, max, () => tooLarge(max))
}

/** True when arrays and objects nest deeper than `limit` (brackets inside strings do not count). One pass, no recursion. */
export function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c) i++
      else if (ch === 0x22) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true
    } else if (ch === 0x5d || ch === 0x7d) depth--
  }
  return false
}

/** The query string validated against `schema`. */
export function readQuery<S extends v.GenericSchema>(c: Ctx, schema: S): v.InferOutput<S> {
  return parse(schema, c.req.query())
}

/** A path parameter of the matched route (Hono always sets declared ones). */
export function pathParam(c: Ctx, name: string): string {
  const value = c.req.param(name)
  if (value === undefined) throw apiError(400, 'invalid', `Missing path parameter ${name}.`, name)
  return value
}

/** A request header validated against `schema`; failures name the header as the field. */
export function readHeader<S extends v.GenericSchema>(c: Ctx, name: string, schema: S): v.InferOutput<S> {
  return parse(v.object({ [name]: schema }), { [name]: c.req.header(name) })[name] as v.InferOutput<S>
}

/** The caller's address as Cloudflare reports it; requests without one share a single bucket. */
export function clientAddress(c: Ctx): string {
  return c.req.header('cf-connecting-ip') ?? 'unknown'
}

/** The request's origin as the browser sees it (scheme, host and port). */
export function origin(c: Ctx): string {
  return new URL(c.req.url).origin
}
