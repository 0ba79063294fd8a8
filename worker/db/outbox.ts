/** Mail kept in the database instead of sent (local development and tests; the dev outbox page reads it). */
export async function insertOutboxMail(db: D1Database, realm: string, mail: { to: string; subject: string; text: string }): Promise<void> {
  await db
    .prepare('INSERT INTO outbox (realm, to_address, subject, text, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(realm, mail.to, mail.subject, mail.text, new Date().toISOString())
    .run()
}

/** The realm's 50 newest kept mails. */
/** One e-mail of the local outbox, as the development screen lists it. */
export interface OutboxMail {
  id: number
  to_address: string
  subject: string
  text: string
  created_at: string
}

export async function recentOutboxMail(db: D1Database, realm: string): Promise<OutboxMail[]> {
  const { results } = await db
    .prepare('SELECT id, to_address, subject, text, created_at FROM outbox WHERE realm = ? ORDER BY id DESC LIMIT 50')
    .bind(realm)
    .all<OutboxMail>()
  return results
}
