import { Hono } from 'hono'
import { findSandboxIntent, type SandboxIntent } from '../../db/ledger-payments'
import { realmDevelopment } from '../../db/realms'
import * as v from 'valibot'
import { SandboxCardNumber, SandboxOutcome } from '#shared/schemas/ledger'
import { randomToken, sha256Hex, timingSafeEqual } from '../../lib/crypto'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { SANDBOX_CARDS, SANDBOX_SIGNATURE_HEADER, providerByCode, sandboxSecret, signSandboxWebhook } from '../../lib/payments'
import { type AppEnv, type Ctx, origin, pathParam } from '../context'
import { receiveWebhook } from './webhook'

const enc = new TextEncoder()

async function sandboxIntent(c: Ctx, id: string, secret: string): Promise<SandboxIntent & { kind: string; merchant: string }> {
  const row = await findSandboxIntent(c.env.DB, id)
  const provider = row ? providerByCode(row.provider) : undefined
  const hostRealm = c.get('hostRealm')
  const valid =
    row &&
    provider?.sandbox &&
    secret.length >= 16 &&
    (!hostRealm || hostRealm === row.realm) &&
    timingSafeEqual(enc.encode(await sha256Hex(secret)), enc.encode(row.client_secret_hash))
  if (!row || !provider || !valid) throw apiError(404, 'not_found', 'ledger.error.intent_not_found', 'intent', id)
  if (!(await provider.available(c.env, { development: await realmDevelopment(c.env.DB, row.realm) })))
    throw apiError(503, 'provider_unavailable', 'ledger.error.provider_unavailable', 'provider', row.provider)
  return { ...row, kind: provider.kind }
}

const Secret = v.pipe(v.string('validation.required'), v.minLength(16, 'validation.required'), v.maxLength(100))

const PayBody = v.object({
  secret: Secret,
  // The same rules as the hosted checkout's form; which one is required depends on the intent's kind (below).
  card_number: v.optional(SandboxCardNumber),
  outcome: v.optional(SandboxOutcome),
})

/**
 * The embedded sandbox payment provider's own API, used by its hosted checkout page (/sandbox/checkout/{intent}).
 * It stands where a real provider's servers stand: the buyer's browser proves itself with the intent's client
 * secret, the sandbox decides by test card (or the buyer's choice for the regional flow), and it confirms by
 * sending the same signed webhook a real provider would send to POST /api/ledger/webhook/{provider}.
 */
export const sandbox = new Hono<AppEnv>()
  /** GET ledger/sandbox/intent/{id}?secret=: what the checkout page shows. */
  .get(
    '/intent/:id',
    guarded('public', async (c) => {
      const i = await sandboxIntent(c, pathParam(c, 'id'), c.req.query('secret') ?? '')
      return c.json({
        id: i.id,
        kind: i.kind,
        status: i.status,
        amount: i.amount,
        currency: i.currency,
        description: i.description,
        merchant: i.merchant,
        failure: i.failure,
        return_url: i.return_url,
        test_cards: Object.entries(SANDBOX_CARDS).map(([number, r]) => ({ number, ...r })),
      })
    }),
  )
  /** POST ledger/sandbox/pay/{id}: the buyer pays on the sandbox; it confirms through the signed webhook. */
  .post(
    '/pay/:id',
    guardedJson('public', PayBody, async (c, _auth, body) => {
      const intent = await sandboxIntent(c, pathParam(c, 'id'), body.secret)
      if (intent.status === 'succeeded') throw apiError(409, 'already_paid', 'ledger.error.already_paid', 'intent', intent.id)
      let outcome: { outcome: 'succeeded' | 'failed'; failureCode?: string }
      if (intent.kind === 'card') {
        if (!body.card_number) throw apiError(400, 'required', 'validation.required', 'card_number')
        const card = SANDBOX_CARDS[body.card_number]
        if (!card) throw apiError(400, 'test_card', 'ledger.error.sandbox_card', 'card_number', null)
        outcome = card
      } else {
        if (!body.outcome) throw apiError(400, 'required', 'validation.required', 'outcome')
        outcome = body.outcome === 'approve' ? { outcome: 'succeeded' } : { outcome: 'failed', failureCode: 'rejected' }
      }
      const secret = await sandboxSecret(c.env)
      if (!secret) throw apiError(503, 'provider_unavailable', 'ledger.error.provider_unavailable', 'provider', intent.provider)
      const event = {
        id: `evt_${randomToken(12)}`,
        type: outcome.outcome === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
        created: Math.floor(Date.now() / 1000),
        data: { intent_id: intent.id, provider_ref: intent.provider_ref, amount: intent.amount, currency: intent.currency, failure_code: outcome.failureCode },
      }
      const payload = JSON.stringify(event)
      // Delivered in-process (a Worker cannot call its own host over the network), through the same verification.
      const delivery = new Request(`${origin(c)}/api/ledger/webhook/${intent.provider}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(secret, payload) },
        body: payload,
      })
      await receiveWebhook(c.env, intent.provider, delivery, c.get('requestId'))
      return c.json({ status: outcome.outcome, failure_code: outcome.failureCode ?? null, return_url: intent.return_url, event_id: event.id })
    }),
  )
