import { newUserCreditStatements } from './ledger'
import { revokeUserSessionsStatement } from './sessions'
import { auditStatement } from '../lib/audit'

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
  await db.prepare('UPDATE user SET password_hash = ?, updated_at = ? WHERE realm = ? AND nick = ?').bind(hash, new Date().toISOString(), realm, nick).run()
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
