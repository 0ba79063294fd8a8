import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { findIntent, intentFailedStatement, intentSucceededStatement, paymentEventSeen, recordPaymentEventStatement } from '../../db/ledger-payments'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { issuanceAccount, newBillingKey, postingStatements, userWallet, type Posting } from '../../db/ledger'
import { auditStatement } from '../../db/audit'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { providerByCode } from '../../lib/payments'
import { type AppEnv, pathParam, readBodyText } from '../context'

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
  if (await paymentEventSeen(db, provider.code, event.id)) {
    return { status: 200, body: { received: true, duplicate: true } }
  }
  const intent = await findIntent(db, provider.code, event.intentId)
  if (!intent || intent.provider_ref !== event.providerRef) throw apiError(404, 'not_found', 'ledger.error.intent_not_found', 'intent_id', event.intentId)
  const now = new Date().toISOString()
  const eventRow = { provider: provider.code, eventId: event.id, intentId: intent.id, type: event.type, at: now }
  const recordEvent = recordPaymentEventStatement(db, eventRow)
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
    await recordPaymentEventStatement(db, eventRow, true).run()
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
      intentSucceededStatement(db, intent.id, p.id, now),
      audit('payment_succeeded', { event: event.id, transaction_id: p.id, points: intent.points }),
    )
  } else {
    const failure = event.type === 'payment.failed' ? (event.failureCode ?? 'failed') : 'amount_mismatch'
    statements.push(intentFailedStatement(db, intent.id, failure, now), audit('payment_failed', { event: event.id, failure }))
  }
  try {
    await runBatch(db, statements)
  } catch (err) {
    // Two deliveries of one event at once: the second loses on the event's primary key and changes nothing.
    if (String(err).includes('ledger_payment_event')) return { status: 200, body: { received: true, duplicate: true } }
    throw err
  }
  return { status: 200, body: { received: true, duplicate: false } }
}

export const webhook = new Hono<AppEnv>()
  /** POST ledger/webhook/{provider}: public, authenticated by the provider's signature only. */
  .post(
    '/:provider',
    guarded('public', async (c) => {
      const { status, body } = await receiveWebhook(c.env, pathParam(c, 'provider'), c.req.raw, c.get('requestId'))
      return c.json(body, status)
    }),
  )
