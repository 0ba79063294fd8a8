import { Hono, type Handler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { IntentBody, PurchaseBody } from '#shared/schemas/ledger'
import { packageEntity, type LedgerPackage } from '#shared/schemas/ledger-entity'
import { issuanceAccount, newBillingKey, postingStatements, userWallet, type Posting } from '../../db/ledger'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../lib/audit'
import { randomToken, sha256Hex } from '../../lib/crypto'
import { decodeRow } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { idempotent, type Outcome } from '../../lib/idempotency'
import { PROVIDERS, providerByCode, type PaymentProvider, type ProviderKind } from '../../lib/payments'
import { type AppEnv, type Ctx, origin, pathParam, readBodyText, readJson } from '../context'
import { ledgerAccess } from './common'

async function realmDevelopment(db: D1Database, realm: string): Promise<boolean> {
  const row = await db.prepare('SELECT development FROM realm WHERE code = ?').bind(realm).first<{ development: number }>()
  return row?.development === 1
}

/** Every provider of this build with whether it can take payments in the realm (the UI says plainly when not). */
async function providersFor(env: Env, realm: string) {
  const development = await realmDevelopment(env.DB, realm)
  return Promise.all(PROVIDERS.map(async (p) => ({ code: p.code, kind: p.kind, sandbox: p.sandbox, available: await p.available(env, { development }) })))
}

/** GET ledger/package/shop: the packages on sale (enabled, not deleted) and the payment providers, for any buyer. */
export const shop: Handler<AppEnv> = guarded(ledgerAccess(), async (c, auth) => {
  const { results } = await c.env.DB.prepare(
    'SELECT * FROM ledger_package WHERE realm = ? AND enabled = 1 AND deleted_at IS NULL ORDER BY recommended DESC, cost, name',
  )
    .bind(auth.realm)
    .all()
  return c.json({ packages: results.map((r) => decodeRow(packageEntity, r)), providers: await providersFor(c.env, auth.realm) })
})

/** The return address after checkout: a same-origin path given by the console, else the package's purchase page. */
function returnUrl(c: Ctx, given: string | undefined, packageId: string, intentId: string): string {
  const base = origin(c)
  let url = new URL(`/ledger/package/purchase/${encodeURIComponent(packageId)}`, base)
  if (given) {
    // The schema admits only a local path or an absolute http(s) address, so this parses.
    const wanted = new URL(given, base)
    if (wanted.origin !== base) throw apiError(400, 'invalid', 'The return address must be on this console.', 'provider_data.return_url', given)
    url = wanted
  }
  url.searchParams.set('intent', intentId)
  return url.toString()
}

/**
 * Starts a purchase with a provider of the expected kind: stores the intent (pending), and answers where the buyer
 * pays. Nothing is issued here; the provider's confirmation does it.
 */
async function startPurchase(
  c: Ctx,
  auth: Auth,
  kind: ProviderKind,
  body: { provider: string; product_id: string; provider_data: { return_url?: string; transaction_amount?: number; description?: string } },
): Promise<Outcome> {
  const db = c.env.DB
  const provider: PaymentProvider | undefined = providerByCode(body.provider)
  if (!provider || provider.kind !== kind || !(await provider.available(c.env, { development: await realmDevelopment(db, auth.realm) }))) {
    throw apiError(422, 'provider_unavailable', 'ledger.error.provider_unavailable', 'provider', body.provider)
  }
  const raw = await db
    .prepare('SELECT * FROM ledger_package WHERE id = ? AND realm = ? AND enabled = 1 AND deleted_at IS NULL')
    .bind(body.product_id, auth.realm)
    .first()
  if (!raw) throw apiError(404, 'not_found', 'ledger.error.package_not_found', 'product_id', body.product_id)
  const pkg = decodeRow(packageEntity, raw) as LedgerPackage
  const amount = body.provider_data.transaction_amount
  if (amount !== undefined && Math.abs(amount - pkg.cost) > 0.001) {
    throw apiError(422, 'amount_mismatch', 'ledger.error.amount_mismatch', 'provider_data.transaction_amount', { expected: pkg.cost, given: amount })
  }
  const intentId = `pi_${randomToken(12)}`
  const description = body.provider_data.description || `${pkg.name} (${pkg.points})`
  let started
  try {
    started = await provider.start(c.env, { intentId, amount: pkg.cost, currency: pkg.currency, description, origin: origin(c) })
  } catch (err) {
    console.error(`[${c.get('requestId')}] payment provider ${provider.code} failed:`, err)
    throw apiError(502, 'purchase_failed', 'ledger.error.purchase_process', 'provider', provider.code)
  }
  const now = new Date().toISOString()
  const back = returnUrl(c, body.provider_data.return_url, pkg.id, intentId)
  const intent = {
    id: intentId,
    provider: provider.code,
    status: 'pending',
    package_id: pkg.id,
    points: pkg.points,
    amount: pkg.cost,
    currency: pkg.currency,
    description,
  }
  await db.batch([
    db
      .prepare(
        `INSERT INTO ledger_payment_intent (id, realm, nick, provider, package_id, points, amount, currency, description, status, provider_ref, client_secret_hash, checkout_url, return_url, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        intentId,
        auth.realm,
        auth.nick,
        provider.code,
        pkg.id,
        pkg.points,
        pkg.cost,
        pkg.currency,
        description,
        started.providerRef,
        await sha256Hex(started.clientSecret),
        started.checkoutUrl,
        back,
        now,
        now,
      ),
    auditStatement(db, {
      realm: auth.realm,
      actor: auth.nick,
      action: 'create',
      entity: 'ledger_payment_intent',
      entityId: intentId,
      after: intent,
      requestId: c.get('requestId'),
    }),
  ])
  return {
    status: 201,
    answer: { ...intent, checkout_url: started.checkoutUrl, client_secret: started.clientSecret, qr_code: started.qrCode ?? null, return_url: back },
  }
}

export const purchase = new Hono<AppEnv>()

/** POST ledger/transaction/create-intent: a card payment intent; the idempotency key is optional here. */
purchase.post(
  '/create-intent',
  guarded(ledgerAccess(), async (c, auth) => {
    const body = await readJson(c, IntentBody)
    if (!body.idempotency_key && !c.req.header('idempotency-key')) {
      const o = await startPurchase(c, auth, 'card', body)
      return c.json(o.answer as object, o.status)
    }
    return idempotent(c, auth, 'create-intent', body, async (done) => {
      const o = await startPurchase(c, auth, 'card', body)
      await c.env.DB.batch([done(o)])
      return o
    })
  }),
)

/** POST ledger/transaction/purchase: a regional-provider payment of `transaction_amount` (the package's cost). */
purchase.post(
  '/purchase',
  guarded(ledgerAccess(), async (c, auth) => {
    const body = await readJson(c, PurchaseBody)
    return idempotent(c, auth, 'purchase', body, async (done) => {
      const o = await startPurchase(c, auth, 'regional', body)
      await c.env.DB.batch([done(o)])
      return o
    })
  }),
)

/** GET ledger/transaction/intent/{id}: the caller's own purchase and where it stands (pending, succeeded, failed). */
purchase.get(
  '/intent/:id',
  guarded(ledgerAccess(), async (c, auth) => {
    const id = pathParam(c, 'id')
    const row = await c.env.DB.prepare(
      'SELECT id, provider, status, package_id, points, amount, currency, description, transaction_id, failure, created_at, updated_at FROM ledger_payment_intent WHERE id = ? AND realm = ? AND nick = ?',
    )
      .bind(id, auth.realm, auth.nick)
      .first()
    if (!row) throw apiError(404, 'not_found', 'ledger.error.intent_not_found', 'id', id)
    return c.json(row)
  }),
)

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
