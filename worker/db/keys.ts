import { randomToken } from '../lib/crypto'

const cache = new Map<string, string>()

/**
 * The server's secret for one purpose (e.g. signing proof-of-work challenges). Created on first use and kept in
 * D1, so every Worker instance shares it and no deployment step has to provision it.
 */
export async function signingKey(db: D1Database, purpose: string): Promise<string> {
  const known = cache.get(purpose)
  if (known) return known
  await db
    .prepare('INSERT INTO signing_key (purpose, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (purpose) DO NOTHING')
    .bind(purpose, randomToken(32), new Date().toISOString())
    .run()
  const row = await db.prepare('SELECT secret FROM signing_key WHERE purpose = ?').bind(purpose).first<{ secret: string }>()
  if (!row) throw new Error(`signing key ${purpose} could not be stored`)
  cache.set(purpose, row.secret)
  return row.secret
}
