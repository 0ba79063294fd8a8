import { newUserCreditStatements } from './ledger'
import { revokeUserSessionsStatement } from './sessions'
import { auditStatement } from './audit'

export interface SigninUser {
  nick: string
  name: string
  email: string
  avatar_url: string
  origin_realm: string
  password_hash: string
  disabled: boolean
  roles: string[]
}

type UserRow = Omit<SigninUser, 'roles' | 'disabled'> & { disabled: number }

async function findBy(db: D1Database, realm: string, column: 'nick' | 'external_id' | 'email', value: string): Promise<SigninUser | null> {
  const match = column === 'email' ? 'lower(email) = lower(?)' : `${column} = ?`
  const u = await db
    .prepare(`SELECT nick, name, email, avatar_url, origin_realm, password_hash, disabled FROM user WHERE realm = ? AND ${match} ORDER BY nick LIMIT 1`)
    .bind(realm, value)
    .first<UserRow>()
  if (!u) return null
  const { results } = await db
    .prepare('SELECT role FROM user_role WHERE realm = ? AND nick = ? ORDER BY position, role')
    .bind(realm, u.nick)
    .all<{ role: string }>()
  return { ...u, disabled: u.disabled === 1, roles: results.map((r) => r.role) }
}

/** The user with this nick in the realm, with its roles in order, or null. */
export function findUserForSignin(db: D1Database, realm: string, nick: string): Promise<SigninUser | null> {
  return findBy(db, realm, 'nick', nick)
}

/** The user whose `external_id` is this normalised employee id (e.g. RG123456789SP), or null. */
export function findUserByExternalId(db: D1Database, realm: string, externalId: string): Promise<SigninUser | null> {
  return externalId ? findBy(db, realm, 'external_id', externalId) : Promise.resolve(null)
}

/** The user with this e-mail address (case-insensitive), or null. */
export function findUserByEmail(db: D1Database, realm: string, email: string): Promise<SigninUser | null> {
  return email ? findBy(db, realm, 'email', email) : Promise.resolve(null)
}

export async function setPasswordHash(db: D1Database, realm: string, nick: string, hash: string): Promise<void> {
  await setPasswordHashStatement(db, realm, nick, hash).run()
}

/** A user's new password hash, as a statement for a batch (with the sessions it ends and its audit record). */
export function setPasswordHashStatement(db: D1Database, realm: string, nick: string, hash: string): D1PreparedStatement {
  return db.prepare('UPDATE user SET password_hash = ?, updated_at = ? WHERE realm = ? AND nick = ?').bind(hash, new Date().toISOString(), realm, nick)
}

/** Disables a user and ends all their sessions at once (one atomic batch). */
export async function disableUser(db: D1Database, realm: string, nick: string): Promise<boolean> {
  const [updated] = await db.batch([
    db.prepare('UPDATE user SET disabled = 1, updated_at = ? WHERE realm = ? AND nick = ?').bind(new Date().toISOString(), realm, nick),
    revokeUserSessionsStatement(db, realm, nick),
  ])
  return (updated.meta.changes ?? 0) > 0
}

/** A nick not yet taken in the realm: `base` + suffix, else with 2, 3… before the suffix. */
export async function freeNick(db: D1Database, realm: string, base: string, suffix: string): Promise<string> {
  const { results } = await db
    .prepare(`SELECT nick FROM user WHERE realm = ? AND nick LIKE ? ESCAPE '\\'`)
    .bind(realm, `${base.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)
    .all<{ nick: string }>()
  const taken = new Set(results.map((r) => r.nick))
  for (let n = 1; ; n++) {
    const nick = `${base}${n === 1 ? '' : n}${suffix}`
    if (!taken.has(nick)) return nick
  }
}

/**
 * Creates an account signed in by an identity provider (no password) with the given roles, and its audit record in
 * the same batch (the actor is the provider: nobody of the realm made the change).
 */
export async function createUser(
  db: D1Database,
  realm: string,
  user: { nick: string; name: string; email: string; avatar_url: string; roles: string[] },
  origin: { provider: string; requestId?: string; ledger?: { code: string; ledger_enabled?: unknown; ledger_new_user_credits?: unknown } },
): Promise<void> {
  await db.batch([
    db
      .prepare('INSERT INTO user (realm, nick, name, email, avatar_url, origin_realm) VALUES (?, ?, ?, ?, ?, ?)')
      .bind(realm, user.nick, user.name, user.email, user.avatar_url, realm),
    ...user.roles.map((role, position) =>
      db
        .prepare('INSERT INTO user_role (realm, nick, role, position) SELECT ?, ?, role, ? FROM role WHERE realm = ? AND role = ?')
        .bind(realm, user.nick, position, realm, role),
    ),
    auditStatement(db, {
      realm,
      actor: `provider:${origin.provider}`,
      action: 'create',
      entity: 'user',
      entityId: user.nick,
      after: { name: user.name, email: user.email, avatar_url: user.avatar_url, roles: user.roles },
      requestId: origin.requestId,
    }),
    // The realm's credits for new users, when it keeps a ledger.
    ...(origin.ledger ? newUserCreditStatements(db, origin.ledger, user.nick, `provider:${origin.provider}`) : []),
  ])
}

/** The realm's user with this nick, or with the realm's nick suffix appended (as typed at sign-in), or null. */
export async function findNickWithSuffix(db: D1Database, realm: string, nick: string): Promise<string | null> {
  const row = await db
    .prepare('SELECT u.nick FROM user u JOIN realm r ON r.code = u.realm WHERE u.realm = ?1 AND (u.nick = ?2 OR u.nick = ?2 || r.nick_suffix) LIMIT 1')
    .bind(realm, nick)
    .first<{ nick: string }>()
  return row?.nick ?? null
}

/**
 * Replaces a password hash made with older parameters by one of today's, after a successful sign-in. Not an edit of
 * the user: `updated_at` stays.
 */
export async function storeRehashedPassword(db: D1Database, realm: string, nick: string, hash: string): Promise<void> {
  await db.prepare('UPDATE user SET password_hash = ? WHERE realm = ? AND nick = ?').bind(hash, realm, nick).run()
}

/** Records a portal token as used (by the hash of its id); false when it was used already (replay). */
export async function spendPortalToken(db: D1Database, realm: string, jtiHash: string, expiresAt: string): Promise<boolean> {
  const r = await db
    .prepare('INSERT INTO portal_token_use (jti_hash, realm, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
    .bind(jtiHash, realm, expiresAt)
    .run()
  return (r.meta.changes ?? 0) > 0
}

/** The realm's user named `typed` or `suffixed` (the typed one first), with their name, or null. */
export function findUserByEitherNick(db: D1Database, realm: string, typed: string, suffixed: string): Promise<{ nick: string; name: string } | null> {
  return db
    .prepare('SELECT nick, name FROM user WHERE realm = ? AND nick IN (?, ?) ORDER BY nick = ? DESC LIMIT 1')
    .bind(realm, typed, suffixed, typed)
    .first<{ nick: string; name: string }>()
}
