import { Hono, type ErrorHandler } from 'hono'
import { storeErrorLog } from '../../db/error-log'
import { ERROR_LOG_DAYS, errorLogEntity } from '#shared/schemas/technical'
import { crud } from '../../lib/entity'
import { ApiError } from '../../lib/errors'
import type { AppEnv } from '../context'
import { TECHNICAL } from './audit_log'

/** GET /mas/error_log: unexpected server errors of the caller's realm; platform operators also see those outside any realm. */
export const errorLog = new Hono<AppEnv>().route(
  '/',
  crud(errorLogEntity, {
    permissions: { list: TECHNICAL, get: TECHNICAL },
    scope: (_c, auth) =>
      auth.permissions.has('mas_realm_list_all') ? { where: "realm IN (?, '')", params: [auth.realm] } : { where: 'realm = ?', params: [auth.realm] },
  }),
)

export interface ServerError {
  realm: string
  requestId: string
  method: string
  path: string
  actor: string
  error: unknown
}

/** Stores an unexpected error (message and stack trimmed) and drops those older than ERROR_LOG_DAYS. */
export async function recordServerError(db: D1Database, e: ServerError): Promise<void> {
  const err = e.error instanceof Error ? e.error : new Error(String(e.error))
  const now = new Date()
  await storeErrorLog(
    db,
    {
      realm: e.realm,
      at: now.toISOString(),
      request_id: e.requestId,
      method: e.method,
      path: e.path.slice(0, 500),
      actor: e.actor,
      message: `${err.name}: ${err.message}`.slice(0, 2000),
      stack: (err.stack ?? '').slice(0, 8000),
    },
    new Date(now.getTime() - ERROR_LOG_DAYS * 86_400_000).toISOString(),
  )
}

/**
 * The API's error handler: an ApiError answers its envelope; anything else is logged and stored with its request
 * id (technical/logs), and answers a 500 envelope carrying that id. The realm is the session's or the host's, never
 * a header the client chose.
 */
export const handleApiError: ErrorHandler<AppEnv> = async (err, c) => {
  if (err instanceof ApiError) {
    // ApiError bounds its values, but the handler must answer whatever happens: an error thrown here would skip
    // the envelope and reach the client as Hono's plain-text 500.
    try {
      return c.json({ errors: err.errors }, err.status)
    } catch {
      return c.json({ errors: err.errors.map((e) => ({ ...e, value: null })) }, err.status)
    }
  }
  const requestId = c.get('requestId') ?? crypto.randomUUID()
  console.error(`[${requestId}] ${c.req.method} ${c.req.path}:`, err)
  const auth = c.get('auth')
  const stored = recordServerError(c.env.DB, {
    realm: auth?.realm ?? c.get('hostRealm') ?? '',
    requestId,
    method: c.req.method,
    path: c.req.path,
    actor: auth?.nick ?? '',
    error: err,
  }).catch((e: unknown) => console.error(`[${requestId}] could not store the error:`, e))
  try {
    c.executionCtx.waitUntil(stored)
  } catch {
    await stored
  }
  return c.json({ errors: [{ field: '', cause: 'internal', value: requestId, message: 'Unexpected server error.' }] }, 500)
}
