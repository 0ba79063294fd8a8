import type { OAuthScope } from '#shared/schemas/oauth2'
import { randomToken, sha256Hex } from '../lib/crypto'

/** Codes live 2 minutes and serve once; access tokens live an hour. */
export const CODE_TTL_MS = 2 * 60_000
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000

export interface OAuthClient {
  client_id: string
  name: string
  redirect_uris: string[]
  scopes: OAuthScope[]
}

export async function getOAuthClient(db: D1Database, realm: string, clientId: string): Promise<OAuthClient | null> {
  const row = await db
    .prepare('SELECT client_id, name, redirect_uris, scopes FROM oauth_client WHERE realm = ? AND client_id = ?')
    .bind(realm, clientId)
    .first<{ client_id: string; name: string; redirect_uris: string; scopes: string }>()
  if (!row) return null
  return { client_id: row.client_id, name: row.name, redirect_uris: JSON.parse(row.redirect_uris) as string[], scopes: JSON.parse(row.scopes) as OAuthScope[] }
}

export async function createCode(
  db: D1Database,
  realm: string,
  grant: { clientId: string; userRealm: string; nick: string; redirectUri: string; scope: string[]; codeChallenge: string },
): Promise<string> {
  const code = randomToken(32)
  await db
    .prepare(
      `INSERT INTO oauth_code (code_hash, realm, client_id, user_realm, nick, redirect_uri, scope, code_challenge, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      await sha256Hex(code),
      realm,
      grant.clientId,
      grant.userRealm,
      grant.nick,
      grant.redirectUri,
      grant.scope.join(' '),
      grant.codeChallenge,
      new Date(Date.now() + CODE_TTL_MS).toISOString(),
    )
    .run()
  return code
}

export interface CodeRow {
  code_hash: string
  realm: string
  client_id: string
  user_realm: string
  nick: string
  redirect_uri: string
  scope: string
  code_challenge: string
  expires_at: string
  used_at: string | null
}

export async function findCode(db: D1Database, code: string): Promise<CodeRow | null> {
  // Codes of a deleted realm (the client's or the user's) are unknown.
  return db
    .prepare(
      `SELECT c.* FROM oauth_code c JOIN realm r ON r.code = c.realm AND r.deleted_at IS NULL JOIN realm u ON u.code = c.user_realm AND u.deleted_at IS NULL
       WHERE c.code_hash = ?`,
    )
    .bind(await sha256Hex(code))
    .first<CodeRow>()
}

/** Marks a code used; false when another exchange got there first. */
export async function spendCode(db: D1Database, codeHash: string): Promise<boolean> {
  const res = await db.prepare('UPDATE oauth_code SET used_at = ? WHERE code_hash = ? AND used_at IS NULL').bind(new Date().toISOString(), codeHash).run()
  return (res.meta.changes ?? 0) === 1
}

/** A replayed code may be stolen: every token it produced is revoked (RFC 6749 §4.1.2). */
export async function revokeCodeTokens(db: D1Database, codeHash: string): Promise<void> {
  await db.prepare('UPDATE oauth_token SET revoked_at = ? WHERE code_hash = ? AND revoked_at IS NULL').bind(new Date().toISOString(), codeHash).run()
}

export async function createAccessToken(db: D1Database, code: CodeRow): Promise<{ token: string; expiresIn: number }> {
  const token = randomToken(32)
  const now = Date.now()
  await db
    .prepare(
      `INSERT INTO oauth_token (token_hash, code_hash, realm, client_id, user_realm, nick, scope, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      await sha256Hex(token),
      code.code_hash,
      code.realm,
      code.client_id,
      code.user_realm,
      code.nick,
      code.scope,
      new Date(now).toISOString(),
      new Date(now + ACCESS_TOKEN_TTL_MS).toISOString(),
    )
    .run()
  return { token, expiresIn: ACCESS_TOKEN_TTL_MS / 1000 }
}

export async function findAccessToken(db: D1Database, token: string) {
  return db
    .prepare(
      `SELECT t.realm, t.client_id, t.user_realm, t.nick, t.scope, t.expires_at, t.revoked_at, u.name, u.email, u.avatar_url, u.disabled
       FROM oauth_token t JOIN user u ON u.realm = t.user_realm AND u.nick = t.nick
       JOIN realm r ON r.code = t.realm AND r.deleted_at IS NULL JOIN realm ur ON ur.code = t.user_realm AND ur.deleted_at IS NULL
       WHERE t.token_hash = ?`,
    )
    .bind(await sha256Hex(token))
    .first<{
      realm: string
      client_id: string
      user_realm: string
      nick: string
      scope: string
      expires_at: string
      revoked_at: string | null
      name: string
      email: string
      avatar_url: string
      disabled: number
    }>()
}
