/** Mail kept in the database instead of sent (local development and tests; the dev outbox page reads it). */
export async function insertOutboxMail(db: D1Database, realm: string, mail: { to: string; subject: string; text: string }): Promise<void> {
  await db
    .prepare('INSERT INTO outbox (realm, to_address, subject, text, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(realm, mail.to, mail.subject, mail.text, new Date().toISOString())
    .run()
}

/** The realm's 50 newest kept mails. */
export async function recentOutboxMail(db: D1Database, realm: string): Promise<Record<string, unknown>[]> {
  const { results } = await db
    .prepare('SELECT id, to_address, subject, text, created_at FROM outbox WHERE realm = ? ORDER BY id DESC LIMIT 50')
    .bind(realm)
    .all<Record<string, unknown>>()
  return results
}
