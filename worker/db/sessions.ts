import { randomToken, sha256Hex } from '../lib/crypto'

/** The signed-in caller as every guarded API handler sees it. */
export interface Auth {
  realm: string
  nick: string
  name: string
  avatar_url: string
  origin_realm: string
  device_id: string
  /** Primary role (position 0) and every role of the user. */
  role: string
  roles: string[]
  /** Union of the permissions of all the user's roles, read fresh on every request. */
  permissions: Set<string>
  tokenHash: string
}

/** Absolute session lifetime. Issue 3 adds idle timeout and per-realm tuning. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000

export type SessionLookup = { status: 'ok'; auth: Auth } | { status: 'unknown' } | { status: 'ended' }

export async function findSessionAuth(db: D1Database, token: string): Promise<SessionLookup> {
  const tokenHash = await sha256Hex(token)
  const [sessionRes, permRes] = await db.batch([
    db
      .prepare(
        `SELECT s.realm, s.nick, s.device_id, s.expires_at, s.revoked_at, u.name, u.avatar_url, u.origin_realm, u.disabled
         FROM session s JOIN user u ON u.realm = s.realm AND u.nick = s.nick WHERE s.token_hash = ?`,
      )
      .bind(tokenHash),
    db
      .prepare(
        `SELECT ur.role, rp.permission FROM session s
         JOIN user_role ur ON ur.realm = s.realm AND ur.nick = s.nick
         LEFT JOIN role_permission rp ON rp.realm = ur.realm AND rp.role = ur.role
         WHERE s.token_hash = ? ORDER BY ur.position, ur.role`,
      )
      .bind(tokenHash),
  ])
  const s = sessionRes.results[0] as
    | { realm: string; nick: string; device_id: string; expires_at: string; revoked_at: string | null; name: string; avatar_url: string; origin_realm: string; disabled: number }
    | undefined
  if (!s || s.revoked_at || s.disabled) return { status: 'unknown' }
  if (s.expires_at <= new Date().toISOString()) return { status: 'ended' }
  const roles: string[] = []
  const permissions = new Set<string>()
  for (const row of permRes.results as { role: string; permission: string | null }[]) {
    if (!roles.includes(row.role)) roles.push(row.role)
    if (row.permission) permissions.add(row.permission)
  }
  return {
    status: 'ok',
    auth: {
      realm: s.realm,
      nick: s.nick,
      name: s.name,
      avatar_url: s.avatar_url,
      origin_realm: s.origin_realm,
      device_id: s.device_id,
      role: roles[0] ?? '',
      roles,
      permissions,
      tokenHash,
    },
  }
}

/** Creates a session for a user; returns the token (shown once) and the device id. */
export async function createSession(
  db: D1Database,
  realm: string,
  nick: string,
  opts: { platform?: string; userAgent?: string } = {},
): Promise<{ token: string; deviceId: string; expiresAt: string }> {
  const token = randomToken(32)
  const deviceId = randomToken(12)
  const now = new Date()
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString()
  await db
    .prepare(
      `INSERT INTO session (token_hash, realm, nick, device_id, platform, created_at, last_seen_at, expires_at, user_agent)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(await sha256Hex(token), realm, nick, deviceId, opts.platform ?? 'dashboard', now.toISOString(), now.toISOString(), expiresAt, (opts.userAgent ?? '').slice(0, 300))
    .run()
  return { token, deviceId, expiresAt }
}

/** Revokes one session (logout). */
export async function revokeSession(db: D1Database, tokenHash: string): Promise<void> {
  await db.prepare(`UPDATE session SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`).bind(new Date().toISOString(), tokenHash).run()
}

/** Revokes every session of a user (logout everywhere, user disabled). */
export function revokeUserSessionsStatement(db: D1Database, realm: string, nick: string): D1PreparedStatement {
  return db.prepare(`UPDATE session SET revoked_at = ? WHERE realm = ? AND nick = ? AND revoked_at IS NULL`).bind(new Date().toISOString(), realm, nick)
}
