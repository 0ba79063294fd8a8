import type { RealmFlag } from '#shared/access'
import { randomToken, sha256Hex } from '../lib/crypto'
import { ownWalletRead, type WalletBalance } from './ledger-catalog'
import { hostFrom, hostRealmRead, resolveHostRead, type RealmRow } from './realms'

/** The signed-in caller as every guarded API handler sees it. */
export interface Auth {
  /** The realm the token acts in (after a realm switch, the target realm). */
  realm: string
  /** The realm of the user's own account, whose roles apply; equals `realm` until the user switches realms. */
  home_realm: string
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
  /** The acting realm's feature flags, read with the session (endpoints that need one check it without a query). */
  flags: Record<RealmFlag, boolean>
}

/** Defaults of the realm columns `session_idle_minutes` and `session_lifetime_minutes`. */
export const DEFAULT_IDLE_MINUTES = 30
export const DEFAULT_LIFETIME_MINUTES = 12 * 60
/** `last_seen_at` is written at most this often, so reads do not each cost a write. */
export const LAST_SEEN_GRANULARITY_MS = 60_000

const MINUTE = 60_000

export type SessionLookup = { status: 'ok'; auth: Auth } | { status: 'unknown' } | { status: 'ended' }

type SessionRow = {
  home_realm: string
  realm: string
  nick: string
  device_id: string
  created_at: string
  last_seen_at: string
  expires_at: string
  revoked_at: string | null
  name: string
  avatar_url: string
  origin_realm: string
  disabled: number
  idle_minutes: number
  lifetime_minutes: number
  ledger_enabled: number
  persona_enabled: number
  platform: string
  allowed_roles: string
  /** 1 when the acting realm of a switched session lies in the tree of the home realm. */
  inside: number
}

/** The permission that opens the console (the console signs out a session without it). */
const CONSOLE_PERMISSION = 'dashboard_dashboard_access'

/**
 * `allowed_roles` of a realm (seed 000 §3): when it lists roles, only users holding one of them may use the console
 * (sessions of platform `dashboard`; a session of another platform loses the console permission instead); empty
 * means unrestricted. A platform operator (mas_realm_list_all) administers every realm, so no realm's list keeps them
 * out.
 */
export function consoleRoleAllowed(allowedRoles: unknown, roles: readonly string[], permissions: ReadonlySet<string>): boolean {
  let allowed: unknown
  try {
    allowed = typeof allowedRoles === 'string' ? JSON.parse(allowedRoles) : allowedRoles
  } catch {
    allowed = []
  }
  if (!Array.isArray(allowed) || allowed.length === 0) return true
  return permissions.has('mas_realm_list_all') || roles.some((r) => allowed.includes(r))
}

/** Why a live-looking session has ended, or null while it is valid at `now`. */
export function sessionEnd(
  s: Pick<SessionRow, 'created_at' | 'last_seen_at' | 'expires_at' | 'idle_minutes' | 'lifetime_minutes'>,
  now: number,
): 'expired' | 'idle' | null {
  if (now >= Date.parse(s.expires_at) || now >= Date.parse(s.created_at) + s.lifetime_minutes * MINUTE) return 'expired'
  if (now >= Date.parse(s.last_seen_at) + s.idle_minutes * MINUTE) return 'idle'
  return null
}

/**
 * The session of a token. A session ends after `session_idle_minutes` without a request and after
 * `session_lifetime_minutes` from sign-in, both read from the realm it acts in at every request (so shortening
 * them applies at once); `expires_at`, fixed at sign-in, caps it too. Revoked sessions, disabled users and sessions of
 * a deleted realm (the user's, or the one it acts in) are unknown.
 */
export async function findSessionAuth(db: D1Database, token: string): Promise<SessionLookup> {
  return findSessionByHash(db, await sha256Hex(token))
}

/** Like findSessionAuth, for a session known by the hash of its token (session handover). */
export async function findSessionByHash(db: D1Database, tokenHash: string): Promise<SessionLookup> {
  return sessionFrom(db, tokenHash, await db.batch(sessionReads(db, tokenHash)))
}

/**
 * The reads of a session lookup, for a caller's batch: the Worker entry sends them with the host lookup of an API
 * request carrying a token (one round trip for both), and `sessionFrom` reads the answer when a handler needs it.
 */
export function sessionReads(db: D1Database, tokenHash: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `SELECT s.realm AS home_realm, COALESCE(s.active_realm, s.realm) AS realm, s.nick, s.device_id, s.created_at, s.last_seen_at,
                s.expires_at, s.revoked_at, u.name, u.avatar_url, u.origin_realm, u.disabled,
                r.session_idle_minutes AS idle_minutes, r.session_lifetime_minutes AS lifetime_minutes,
                r.ledger_enabled, r.persona_enabled, s.platform, home.allowed_roles,
                -- A switched session's acting realm, when it still lies in the tree of the user's home realm.
                CASE WHEN s.active_realm IS NULL THEN 0 ELSE EXISTS (
                  WITH RECURSIVE tree(code) AS (SELECT s.realm UNION SELECT t2.code FROM realm t2 JOIN tree t ON t2.parent_code = t.code)
                  SELECT 1 FROM tree WHERE tree.code = s.active_realm) END AS inside
         FROM session s
         JOIN user u ON u.realm = s.realm AND u.nick = s.nick
         JOIN realm r ON r.code = COALESCE(s.active_realm, s.realm) AND r.deleted_at IS NULL
         JOIN realm home ON home.code = s.realm AND home.deleted_at IS NULL
         WHERE s.token_hash = ?`,
      )
      .bind(tokenHash),
    // One row per role with its permissions as one JSON array: a root holds about 250 permissions, and D1 hands
    // each row over as an object of its own (a twentieth of an authenticated request's CPU as 250 rows).
    db
      .prepare(
        `SELECT ur.role, (SELECT json_group_array(rp.permission) FROM role_permission rp WHERE rp.realm = ur.realm AND rp.role = ur.role) AS permissions
         FROM session s
         JOIN user_role ur ON ur.realm = s.realm AND ur.nick = s.nick
         WHERE s.token_hash = ? ORDER BY ur.position, ur.role`,
      )
      .bind(tokenHash),
  ]
}

/**
 * The realm of a request's host and the reads of its token's session, in one batch (the Worker entry, for an API
 * request carrying a token): `session` goes to `sessionFrom` when a handler needs the caller.
 */
export async function readHostAndSession(
  db: D1Database,
  host: string,
  tokenHash: string,
): Promise<{ host: { realm: string; deleted: boolean } | null; session: D1Result[] }> {
  const [found, ...session] = await db.batch([resolveHostRead(db, host), ...sessionReads(db, tokenHash)])
  return { host: hostFrom(found), session }
}

/**
 * What a console page's in-process API calls need of D1 before they run, in one batch with the host lookup (the Worker
 * entry): the realm row bound to the host (the page's realm configuration) and, with a session cookie, the reads of
 * its token's session (the page's session) and of its user's own wallet (the top bar's balance). `realmRow` is null
 * on hosts bound to no realm.
 */
export async function readPageHost(
  db: D1Database,
  host: string,
  tokenHash: string | null,
): Promise<{ host: { realm: string; deleted: boolean } | null; realmRow: RealmRow | null; session: D1Result[] | null; wallet: WalletBalance | null }> {
  const reads = [hostRealmRead(db, host), ...(tokenHash ? [ownWalletRead(db, tokenHash), ...sessionReads(db, tokenHash)] : [])]
  const [realmRes, walletRes, ...session] = await db.batch(reads)
  const row = realmRes.results[0] as RealmRow | undefined
  return {
    host: row ? { realm: row.code, deleted: row.deleted_at !== null } : null,
    realmRow: row && row.deleted_at === null ? row : null,
    session: tokenHash ? session : null,
    wallet: tokenHash ? ((walletRes.results[0] as WalletBalance | undefined) ?? null) : null,
  }
}

/**
 * The permissions of a role as read with the session (its JSON array, read fresh on every request), parsed once per
 * distinct text for the life of the isolate: a root's ~250 permissions were parsed and added to a set one by one on
 * every authenticated request. The key is the whole text read, so a changed role is a new key; the answer is shared
 * (callers copy it).
 */
const parsedPermissions = new Map<string, readonly string[]>()
const MAX_PARSED_PERMISSIONS = 256

function permissionsOf(text: string): readonly string[] {
  let parsed = parsedPermissions.get(text)
  if (!parsed) {
    parsed = JSON.parse(text) as string[]
    if (parsedPermissions.size >= MAX_PARSED_PERMISSIONS) parsedPermissions.clear()
    parsedPermissions.set(text, parsed)
  }
  return parsed
}

/** The session of the results of sessionReads (in their order); may end a session that is no longer allowed. */
export async function sessionFrom(db: D1Database, tokenHash: string, [sessionRes, permRes]: D1Result[]): Promise<SessionLookup> {
  const s = sessionRes.results[0] as SessionRow | undefined
  if (!s || s.revoked_at || s.disabled) return { status: 'unknown' }
  const now = Date.now()
  if (sessionEnd(s, now)) return { status: 'ended' }
  if (now - Date.parse(s.last_seen_at) >= LAST_SEEN_GRANULARITY_MS) {
    await db.prepare('UPDATE session SET last_seen_at = ? WHERE token_hash = ?').bind(new Date(now).toISOString(), tokenHash).run()
  }
  const roles: string[] = []
  let permissions: Set<string> | null = null
  for (const row of permRes.results as { role: string; permissions: string }[]) {
    if (!roles.includes(row.role)) roles.push(row.role)
    const granted = permissionsOf(row.permissions)
    if (!permissions) permissions = new Set(granted)
    else for (const permission of granted) permissions.add(permission)
  }
  permissions ??= new Set<string>()
  // A realm switch lasts only while it would still be allowed (PUT /mas/realm/{realm}/change): mas_realm_list_all,
  // or mas_realm_list with the acting realm in the home realm's tree. Otherwise the session ends for good.
  // A console session of a user whose roles the home realm no longer admits to the console ends for good (the
  // console then shows the sign-in page), like one whose switch is no longer allowed. A session of another surface
  // (mobile app, web client) keeps working there but never opens the console: it does not hold the console's
  // permission, whether its token comes as the console's cookie or as x-api-key.
  if (!consoleRoleAllowed(s.allowed_roles, roles, permissions)) {
    if (s.platform === 'dashboard') {
      await revokeSession(db, tokenHash)
      return { status: 'unknown' }
    }
    permissions.delete(CONSOLE_PERMISSION)
  }
  if (s.realm !== s.home_realm) {
    const allowed = permissions.has('mas_realm_list_all') || (permissions.has('mas_realm_list') && s.inside === 1)
    if (!allowed) {
      await revokeSession(db, tokenHash)
      return { status: 'unknown' }
    }
  }
  return {
    status: 'ok',
    auth: {
      realm: s.realm,
      home_realm: s.home_realm,
      nick: s.nick,
      name: s.name,
      avatar_url: s.avatar_url,
      origin_realm: s.origin_realm,
      device_id: s.device_id,
      role: roles[0] ?? '',
      roles,
      permissions,
      tokenHash,
      flags: { ledger_enabled: s.ledger_enabled === 1, persona_enabled: s.persona_enabled === 1 },
    },
  }
}

export interface NewSession {
  token: string
  deviceId: string
  expiresAt: string
}

/**
 * Creates a session for the user `nick` of realm `realm`; `activeRealm` is the realm it acts in when that is
 * another one (realm switch). Its absolute lifetime is the acting realm's. Returns the token (shown once).
 */
export async function createSession(
  db: D1Database,
  realm: string,
  nick: string,
  opts: { platform?: string; userAgent?: string; activeRealm?: string } = {},
): Promise<NewSession> {
  const acting = opts.activeRealm && opts.activeRealm !== realm ? opts.activeRealm : null
  const lifetime = await db
    .prepare('SELECT session_lifetime_minutes AS m FROM realm WHERE code = ?')
    .bind(acting ?? realm)
    .first<{ m: number }>()
  const token = randomToken(32)
  const deviceId = randomToken(12)
  const now = new Date()
  const expiresAt = new Date(now.getTime() + (lifetime?.m ?? DEFAULT_LIFETIME_MINUTES) * MINUTE).toISOString()
  await db
    .prepare(
      `INSERT INTO session (token_hash, realm, nick, device_id, platform, created_at, last_seen_at, expires_at, user_agent, active_realm)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      await sha256Hex(token),
      realm,
      nick,
      deviceId,
      opts.platform ?? 'dashboard',
      now.toISOString(),
      now.toISOString(),
      expiresAt,
      (opts.userAgent ?? '').slice(0, 300),
      acting,
    )
    .run()
  return { token, deviceId, expiresAt }
}

/** Revokes one session. */
export async function revokeSession(db: D1Database, tokenHash: string): Promise<void> {
  await db.prepare(`UPDATE session SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`).bind(new Date().toISOString(), tokenHash).run()
}

/** Revokes every session of a user, switched ones included (logout, user disabled, password reset). */
export function revokeUserSessionsStatement(db: D1Database, realm: string, nick: string): D1PreparedStatement {
  return db.prepare(`UPDATE session SET revoked_at = ? WHERE realm = ? AND nick = ? AND revoked_at IS NULL`).bind(new Date().toISOString(), realm, nick)
}

/** Revokes every session of a user; answers how many were live. */
export async function revokeUserSessions(db: D1Database, realm: string, nick: string): Promise<number> {
  const res = await revokeUserSessionsStatement(db, realm, nick).run()
  return res.meta.changes ?? 0
}
