/**
 * Payment intents and provider events. Both are found by their own ids (an intent id, a provider's event id): the
 * callers are a provider's webhook and the sandbox checkout, which hold no session; the intent's row names its realm.
 */

export type IntentRow = {
  id: string
  realm: string
  nick: string
  provider: string
  package_id: string
  points: number
  amount: number
  currency: string
  status: string
  provider_ref: string
}

export type SandboxIntent = {
  id: string
  realm: string
  provider: string
  status: string
  amount: number
  currency: string
  description: string
  provider_ref: string
  client_secret_hash: string
  return_url: string
  failure: string
}

/** True when the provider's event was received before. */
export async function paymentEventSeen(db: D1Database, provider: string, eventId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM ledger_payment_event WHERE provider = ? AND event_id = ?').bind(provider, eventId).first()) !== null
}

export function findIntent(db: D1Database, provider: string, id: string): Promise<IntentRow | null> {
  return db.prepare('SELECT * FROM ledger_payment_intent WHERE id = ? AND provider = ?').bind(id, provider).first<IntentRow>()
}

/** The intent with its merchant (the realm's name), for the sandbox checkout page. */
export function findSandboxIntent(db: D1Database, id: string): Promise<(SandboxIntent & { merchant: string }) | null> {
  return db
    .prepare(
      `SELECT i.id, i.realm, i.provider, i.status, i.amount, i.currency, i.description, i.provider_ref, i.client_secret_hash, i.return_url, i.failure, r.name AS merchant
     FROM ledger_payment_intent i JOIN realm r ON r.code = i.realm WHERE i.id = ?`,
    )
    .bind(id)
    .first<SandboxIntent & { merchant: string }>()
}

/** Records a provider event; `ignoreRepeat` makes a second record of it a no-op instead of a failed batch. */
export function recordPaymentEventStatement(
  db: D1Database,
  e: { provider: string; eventId: string; intentId: string; type: string; at: string },
  ignoreRepeat = false,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ledger_payment_event (provider, event_id, intent_id, type, received_at) VALUES (?, ?, ?, ?, ?)${ignoreRepeat ? ' ON CONFLICT DO NOTHING' : ''}`,
    )
    .bind(e.provider, e.eventId, e.intentId, e.type, e.at)
}

/** The intent paid by transaction `transactionId` (unless it already was). */
export function intentSucceededStatement(db: D1Database, intentId: string, transactionId: string, at: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE ledger_payment_intent SET status = 'succeeded', transaction_id = ?, failure = '', updated_at = ? WHERE id = ? AND status <> 'succeeded'`)
    .bind(transactionId, at, intentId)
}

/** A pending intent failed with this reason. */
export function intentFailedStatement(db: D1Database, intentId: string, failure: string, at: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE ledger_payment_intent SET status = 'failed', failure = ?, updated_at = ? WHERE id = ? AND status = 'pending'`)
    .bind(failure, at, intentId)
}

/** A new pending payment intent. */
export function insertIntentStatement(
  db: D1Database,
  realm: string,
  i: {
    id: string
    nick: string
    provider: string
    packageId: string
    points: number
    amount: number
    currency: string
    description: string
    providerRef: string
    clientSecretHash: string
    checkoutUrl: string
    returnUrl: string
    at: string
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ledger_payment_intent (id, realm, nick, provider, package_id, points, amount, currency, description, status, provider_ref, client_secret_hash, checkout_url, return_url, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      i.id,
      realm,
      i.nick,
      i.provider,
      i.packageId,
      i.points,
      i.amount,
      i.currency,
      i.description,
      i.providerRef,
      i.clientSecretHash,
      i.checkoutUrl,
      i.returnUrl,
      i.at,
      i.at,
    )
}

/** A buyer's view of a purchase: where it stands (the purchase page polls it). */
export interface OwnIntent {
  id: string
  provider: string
  status: 'pending' | 'succeeded' | 'failed'
  package_id: string
  points: number
  amount: number
  currency: string
  description: string
  transaction_id: string | null
  failure: string
  created_at: string
  updated_at: string
}

/** The buyer's own intent (what the purchase page polls), or null. */
export function findOwnIntent(db: D1Database, realm: string, nick: string, id: string): Promise<OwnIntent | null> {
  return db
    .prepare(
      'SELECT id, provider, status, package_id, points, amount, currency, description, transaction_id, failure, created_at, updated_at FROM ledger_payment_intent WHERE id = ? AND realm = ? AND nick = ?',
    )
    .bind(id, realm, nick)
    .first<OwnIntent>()
}
