import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { issuanceAccount, newBillingKey, postingStatements, userWallet, type Posting } from '../../db/ledger'
import { auditStatement } from '../../db/audit'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { providerByCode } from '../../lib/payments'
import { type AppEnv, pathParam, readBodyText } from '../context'

type IntentRow = {
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

/**
 * A provider's webhook: verified (signature and freshness) by the provider's adapter, then applied exactly once.
 * The event id is recorded in the same batch as its effect, and the purchase transaction's id is derived from
 * the intent, so neither a repeated event nor a second confirmation of the same payment issues credits again.
 */
export async function receiveWebhook(
  env: Env,
  providerCode: string,
  request: Request,
  requestId = '',
): Promise<{ status: ContentfulStatusCode; body: object }> {
  const provider = providerByCode(providerCode)
  if (!provider) throw apiError(404, 'not_found', `No payment provider ${providerCode}.`, 'provider', providerCode)
  // Bounded like every body read (a provider's event is a few kilobytes), and UTF-8 or refused.
  const raw = await readBodyText(request, 1024 * 1024)
  const event = await provider.verify(env, request, raw)
  if (!event) throw apiError(400, 'invalid_signature', 'The webhook signature is not valid.', 'signature')
  const db = env.DB
  if (await db.prepare('SELECT 1 FROM ledger_payment_event WHERE provider = ? AND event_id = ?').bind(provider.code, event.id).first()) {
    return { status: 200, body: { received: true, duplicate: true } }
  }
  const intent = await db.prepare('SELECT * FROM ledger_payment_intent WHERE id = ? AND provider = ?').bind(event.intentId, provider.code).first<IntentRow>()
  if (!intent || intent.provider_ref !== event.providerRef) throw apiError(404, 'not_found', 'ledger.error.intent_not_found', 'intent_id', event.intentId)
  const now = new Date().toISOString()
  const recordEvent = db
    .prepare('INSERT INTO ledger_payment_event (provider, event_id, intent_id, type, received_at) VALUES (?, ?, ?, ?, ?)')
    .bind(provider.code, event.id, intent.id, event.type, now)
  const audit = (action: string, after: Record<string, unknown>) =>
    auditStatement(db, {
      realm: intent.realm,
      actor: `provider:${provider.code}`,
      action,
      entity: 'ledger_payment_intent',
      entityId: intent.id,
      after,
      requestId,
    })
  const statements: D1PreparedStatement[] = [recordEvent]
  if (intent.status === 'succeeded') {
    // Another event about a payment already confirmed: remembered, nothing else changes.
    await db
      .prepare('INSERT INTO ledger_payment_event (provider, event_id, intent_id, type, received_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .bind(provider.code, event.id, intent.id, event.type, now)
      .run()
    return { status: 200, body: { received: true, duplicate: true } }
  }
  if (event.type === 'payment.succeeded' && Math.abs(event.amount - intent.amount) < 0.001 && event.currency === intent.currency) {
    const p: Posting = {
      id: `pur_${intent.id}`,
      realm: intent.realm,
      type: 'purchase',
      actor: intent.nick,
      description: `Purchase ${intent.package_id}`,
      lines: [
        { account: issuanceAccount(intent.realm), amount: -intent.points },
        { account: userWallet(intent.realm, intent.nick), amount: intent.points },
      ],
      details: {
        intent_id: intent.id,
        package_id: intent.package_id,
        provider: provider.code,
        provider_ref: event.providerRef,
        amount: intent.amount,
        currency: intent.currency,
      },
      billingKey: newBillingKey(),
      createdAt: now,
    }
    statements.push(
      ...postingStatements(db, p, { once: true }),
      db
        .prepare(
          `UPDATE ledger_payment_intent SET status = 'succeeded', transaction_id = ?, failure = '', updated_at = ? WHERE id = ? AND status <> 'succeeded'`,
        )
        .bind(p.id, now, intent.id),
      audit('payment_succeeded', { event: event.id, transaction_id: p.id, points: intent.points }),
    )
  } else {
    const failure = event.type === 'payment.failed' ? (event.failureCode ?? 'failed') : 'amount_mismatch'
    statements.push(
      db
        .prepare(`UPDATE ledger_payment_intent SET status = 'failed', failure = ?, updated_at = ? WHERE id = ? AND status = 'pending'`)
        .bind(failure, now, intent.id),
      audit('payment_failed', { event: event.id, failure }),
    )
  }
  try {
    await db.batch(statements)
  } catch (err) {
    // Two deliveries of one event at once: the second loses on the event's primary key and changes nothing.
    if (String(err).includes('ledger_payment_event')) return { status: 200, body: { received: true, duplicate: true } }
    throw err
  }
  return { status: 200, body: { received: true, duplicate: false } }
}

export const webhook = new Hono<AppEnv>()

/** POST ledger/webhook/{provider}: public, authenticated by the provider's signature only. */
webhook.post(
  '/:provider',
  guarded('public', async (c) => {
    const { status, body } = await receiveWebhook(c.env, pathParam(c, 'provider'), c.req.raw, c.get('requestId'))
    return c.json(body, status)
  }),
)
