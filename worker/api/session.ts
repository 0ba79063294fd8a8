import { Hono } from 'hono'
import * as v from 'valibot'
import { permissionMap } from '../../app/schemas/permission'
import { guarded } from '../lib/guard'
import { createSession, findSessionByHash, revokeSession } from '../db/sessions'
import { randomToken, sha256Hex } from '../lib/crypto'
import { apiError } from '../lib/errors'
import { type AppEnv, readJson, requestRealm } from './context'

export const session = new Hono<AppEnv>()

/** Handover codes live one minute and serve once. */
export const HANDOVER_TTL_MS = 60_000

/**
 * A one-minute, single-use code for moving a session to another host of the console (cookies are per host), claimed
 * on the target host with POST /mas/session/handover/claim; the token itself never travels in a URL.
 */
export async function createHandover(db: D1Database, tokenHash: string, realm: string): Promise<string> {
  const code = randomToken(32)
  await db
    .prepare('INSERT INTO session_handover (code_hash, token_hash, realm, expires_at) VALUES (?, ?, ?, ?)')
    .bind(await sha256Hex(code), tokenHash, realm, new Date(Date.now() + HANDOVER_TTL_MS).toISOString())
    .run()
  return code
}

/** GET /mas/session: the caller's auth state (seed 000 §3) with the effective permissions of all their roles. */
session.get(
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

/** POST /mas/session/handover/claim (no auth): spends the code; answers a new token for the same session, ending the old. */
session.post(
  '/handover/claim',
  guarded('public', async (c) => {
  const { code } = await readJson(c, v.object({ code: v.pipe(v.string('validation.required'), v.maxLength(100, 'validation.max_length')) }))
  const codeHash = await sha256Hex(code)
  const row = await c.env.DB.prepare('SELECT token_hash, realm, expires_at, used_at FROM session_handover WHERE code_hash = ?')
    .bind(codeHash)
    .first<{ token_hash: string; realm: string; expires_at: string; used_at: string | null }>()
  const realm = requestRealm(c)
  if (!row || (realm && row.realm !== realm)) throw apiError(404, 'not_found', 'The handover code was not found.', 'code')
  if (row.expires_at <= new Date().toISOString()) throw apiError(410, 'expired', 'The handover code has expired.', 'code')
  const spent = await c.env.DB.prepare('UPDATE session_handover SET used_at = ? WHERE code_hash = ? AND used_at IS NULL').bind(new Date().toISOString(), codeHash).run()
  if (row.used_at || !spent.meta.changes) throw apiError(409, 'used', 'The handover code was already used.', 'code')
  const found = await findSessionByHash(c.env.DB, row.token_hash)
  if (found.status === 'ended') throw apiError(401, 'session_timeout', 'The session has ended; sign in again.', 'code')
  if (found.status !== 'ok') throw apiError(401, 'unauthorized', 'The session is no longer valid.', 'code')
  const next = await createSession(c.env.DB, found.auth.home_realm, found.auth.nick, { userAgent: c.req.header('user-agent'), activeRealm: found.auth.realm })
  await revokeSession(c.env.DB, row.token_hash)
  return c.json({ auth_token: next.token, device_id: next.deviceId, expires_at: next.expiresAt, realm: found.auth.realm, nick: found.auth.nick })
  }),
)
