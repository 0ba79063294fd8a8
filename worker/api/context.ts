import type { Context } from 'hono'
import * as v from 'valibot'
import type { Access } from '../../app/lib/access'
import { ApiError, apiError, issuesToErrors } from '../lib/errors'
import { findSessionAuth, type Auth } from '../db/sessions'

export type AppEnv = {
  Bindings: Env
  Variables: {
    /** Realm bound to the request's host, null on multi-realm hosts. Set by the Worker entry. */
    hostRealm: string | null
    auth?: Auth
    /** Identifies the request in logs, error answers and audit records (also sent as x-request-id). */
    requestId: string
  }
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
  const found = await findSessionAuth(c.env.DB, token)
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
  if (access.flags?.length) {
    const row = await c.env.DB.prepare(`SELECT ${access.flags.map((f) => `${f} AS "${f}"`).join(', ')} FROM realm WHERE code = ?`)
      .bind(auth.realm)
      .first<Record<string, number>>()
    const off = access.flags.find((f) => row?.[f] !== 1)
    if (off) throw apiError(403, 'disabled', `This realm does not have ${off}.`, 'realm', off)
  }
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

/** The JSON body validated against `schema`; a body that is not JSON is a 400 too. */
export async function readJson<S extends v.GenericSchema>(c: Ctx, schema: S): Promise<v.InferOutput<S>> {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw apiError(400, 'invalid', 'The request body must be JSON.', 'body')
  }
  return parse(schema, body)
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
