import { Hono } from 'hono'
import { bindHandoverNonce, confirmHandover, findHandover, insertHandover, spendHandoverCode, type HandoverRow } from '../../db/session-handover'
import { HandoverBind, HandoverClaim, HandoverConfirm } from '#shared/schemas/handover'
import { permissionMap } from '#shared/schemas/permission'
import { guarded, guardedJson } from '../../lib/guard'
import { createSession, findSessionByHash, revokeSession } from '../../db/sessions'
import { randomToken, sha256Hex } from '../../lib/crypto'
import { apiError } from '../../lib/errors'
import { type AppEnv, type Ctx, requestRealm } from '../context'

/** Handover codes live one minute (for all three legs) and serve once. */
export const HANDOVER_TTL_MS = 60_000

/**
 * A one-minute, single-use code for moving a session to another host of the console (cookies are per host). It is
 * bound to the browser that started the switch, like OAuth's state, in three legs: the starting host (`origin`)
 * keeps a random state in a cookie and gives its hash here; the target host binds a nonce of its own
 * (POST /mas/session/handover/bind), the starting host vouches with the state (…/confirm), and the target host
 * claims with the nonce (…/claim). The token itself never travels in a URL.
 */
export async function createHandover(
  db: D1Database,
  tokenHash: string,
  realm: string,
  binding: { stateHash: string; origin: string; targetUrl: string },
): Promise<string> {
  const code = randomToken(32)
  await insertHandover(db, {
    codeHash: await sha256Hex(code),
    tokenHash,
    realm,
    expiresAt: new Date(Date.now() + HANDOVER_TTL_MS).toISOString(),
    ...binding,
  })
  return code
}

const handoverNotFound = () => apiError(404, 'not_found', 'The handover code was not found.', 'code')
const handoverUsed = () => apiError(409, 'used', 'The handover code was already used.', 'code')
const handoverState = () => apiError(403, 'handover_state', 'This handover was not started in this browser.', 'code')

/**
 * A live handover code: 404 when unknown (or, with `realm`, of another realm), 410 when expired, 409 when used.
 * Codes made before the three legs (no state) are unknown.
 */
async function liveHandover(c: Ctx, code: string, realm: string | null): Promise<HandoverRow & { target_url: string }> {
  const row = await findHandover(c.env.DB, await sha256Hex(code))
  if (!row || !row.state_hash || !row.origin || !row.target_url || (realm && row.realm !== realm)) throw handoverNotFound()
  if (row.expires_at <= new Date().toISOString()) throw apiError(410, 'expired', 'The handover code has expired.', 'code')
  if (row.used_at) throw handoverUsed()
  return { ...row, target_url: row.target_url }
}

/** Ends a code whose proof failed: one wrong state or nonce and it serves nobody. */
async function spendHandover(c: Ctx, row: HandoverRow): Promise<void> {
  await spendHandoverCode(c.env.DB, row.code_hash)
}

export const session = new Hono<AppEnv>()
  /** GET /mas/session: the caller's auth state (seed 000 §3) with the effective permissions of all their roles. */
  .get(
    '/',
    guarded({}, (c, auth) =>
      c.json({
        realm: auth.realm,
        // The realm whose roles apply to the caller (differs from `realm` after a realm switch).
        home_realm: auth.home_realm,
        nick: auth.nick,
        name: auth.name,
        avatar_url: auth.avatar_url,
        origin_realm: auth.origin_realm,
        device_id: auth.device_id,
        role: auth.role,
        roles: auth.roles,
        permissions: permissionMap(auth.permissions),
        server_ts: new Date().toISOString(),
      }),
    ),
  )
  /**
   * POST /mas/session/handover/bind (no auth; on the target host, first arrival): binds the hash of the target host's
   * nonce to the code, once, and answers where to vouch for the browser: the starting host's confirm page (its
   * origin as stored at the switch, never taken from a URL).
   */
  .post(
    '/handover/bind',
    guardedJson('public', HandoverBind, async (c, _auth, body) => {
      const row = await liveHandover(c, body.code, requestRealm(c))
      if (!(await bindHandoverNonce(c.env.DB, row.code_hash, body.nonce_hash))) throw handoverUsed()
      return c.json({ confirm_url: new URL('/authentication/handover/confirm', row.origin!).toString() })
    }),
  )
  /**
   * POST /mas/session/handover/confirm (no auth; on the starting host): the state kept by the browser that started
   * the switch, and the nonce hash the target host sent that same browser with. Both must match; any mismatch spends
   * the code. Answers the target's console address, where the browser claims the session.
   */
  .post(
    '/handover/confirm',
    guardedJson('public', HandoverConfirm, async (c, _auth, body) => {
      const row = await liveHandover(c, body.code, null)
      if (row.confirmed_at) throw handoverUsed()
      if (!row.nonce_hash || row.nonce_hash !== body.nonce_hash || (await sha256Hex(body.state)) !== row.state_hash) {
        await spendHandover(c, row)
        throw handoverState()
      }
      if (!(await confirmHandover(c.env.DB, row.code_hash))) throw handoverUsed()
      return c.json({ target_url: row.target_url })
    }),
  )
  /**
   * POST /mas/session/handover/claim (no auth; on the target host): with the nonce whose hash was bound and a
   * confirmed code, spends the code and answers a new token for the same session, ending the old one. A wrong nonce
   * or an unconfirmed code spends the code.
   */
  .post(
    '/handover/claim',
    guardedJson('public', HandoverClaim, async (c, _auth, body) => {
      const row = await liveHandover(c, body.code, requestRealm(c))
      if (!row.confirmed_at || !row.nonce_hash || (await sha256Hex(body.nonce)) !== row.nonce_hash) {
        await spendHandover(c, row)
        throw handoverState()
      }
      if (!(await spendHandoverCode(c.env.DB, row.code_hash))) throw handoverUsed()
      const found = await findSessionByHash(c.env.DB, row.token_hash)
      if (found.status === 'ended') throw apiError(401, 'session_timeout', 'The session has ended; sign in again.', 'code')
      if (found.status !== 'ok') throw apiError(401, 'unauthorized', 'The session is no longer valid.', 'code')
      const next = await createSession(c.env.DB, found.auth.home_realm, found.auth.nick, {
        userAgent: c.req.header('user-agent'),
        activeRealm: found.auth.realm,
      })
      await revokeSession(c.env.DB, row.token_hash)
      return c.json({ auth_token: next.token, device_id: next.deviceId, expires_at: next.expiresAt, realm: found.auth.realm, nick: found.auth.nick })
    }),
  )
