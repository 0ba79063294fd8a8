import { randomToken, sha256Hex } from '../lib/crypto'

/** Reset keys live 30 minutes and serve once; a user gets at most one new key per minute. */
export const RESET_KEY_TTL_MS = 30 * 60_000
export const RESET_KEY_INTERVAL_MS = 60_000

/** A new reset key for a user, or null when one was issued less than a minute ago (mail flooding). */
export async function createResetKey(db: D1Database, realm: string, nick: string, now = Date.now()): Promise<{ key: string; expiresAt: string } | null> {
  const recent = await db
    .prepare('SELECT 1 FROM password_reset WHERE realm = ? AND nick = ? AND created_at > ? LIMIT 1')
    .bind(realm, nick, new Date(now - RESET_KEY_INTERVAL_MS).toISOString())
    .first()
  if (recent) return null
  const key = randomToken(32)
  const expiresAt = new Date(now + RESET_KEY_TTL_MS).toISOString()
  await db
    .prepare('INSERT INTO password_reset (key_hash, realm, nick, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
    .bind(await sha256Hex(key), realm, nick, new Date(now).toISOString(), expiresAt)
    .run()
  return { key, expiresAt }
}

export type ResetKeyUse = { status: 'ok'; realm: string; nick: string } | { status: 'not_found' | 'expired' | 'used' }

/** Spends a reset key: the first successful call wins; later calls see it used. */
export async function useResetKey(db: D1Database, key: string, now = Date.now()): Promise<ResetKeyUse> {
  const keyHash = await sha256Hex(key)
  // A key of a deleted realm is unknown (the realm signs nobody in until it is restored).
  const row = await db
    .prepare(
      'SELECT p.realm, p.nick, p.expires_at, p.used_at FROM password_reset p JOIN realm r ON r.code = p.realm AND r.deleted_at IS NULL WHERE p.key_hash = ?',
    )
    .bind(keyHash)
    .first<{ realm: string; nick: string; expires_at: string; used_at: string | null }>()
  if (!row) return { status: 'not_found' }
  if (row.used_at) return { status: 'used' }
  const at = new Date(now).toISOString()
  if (row.expires_at <= at) return { status: 'expired' }
  const res = await db.prepare('UPDATE password_reset SET used_at = ? WHERE key_hash = ? AND used_at IS NULL').bind(at, keyHash).run()
  return res.meta.changes ? { status: 'ok', realm: row.realm, nick: row.nick } : { status: 'used' }
}

/** The realm a key belongs to (to check the key is used on its own realm before spending it). */
export async function resetKeyRealm(db: D1Database, key: string): Promise<string | null> {
  const row = await db
    .prepare('SELECT realm FROM password_reset WHERE key_hash = ?')
    .bind(await sha256Hex(key))
    .first<{ realm: string }>()
  return row?.realm ?? null
}
