import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { SANDBOX_SIGNATURE_HEADER, sandboxSecret, signSandboxWebhook } from '../../worker/lib/payments'
import { creditPackage } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'
import { DASH, balance, expectInvariants, key, ledgerRealm } from './ledger-helpers'

type Intent = {
  id: string
  checkout_url: string
  client_secret: string
  status: string
  points: number
  amount: number
  currency: string
  qr_code: string | null
  return_url: string
}

async function buyer() {
  return userWith('demo', [DASH, `x_${crypto.randomUUID()}`])
}

/** A package of demo on sale for R$ 49,90 and 500 credits (the card provider's purchases below). */
const starter = () => creditPackage('demo', { cost: 49.9, currency: 'BRL', points: 500 })

async function intent(token: string, product: string): Promise<Intent> {
  const res = await api(DEMO, 'ledger/transaction/create-intent', {
    method: 'POST',
    token,
    json: { provider: 'sandbox-card', product_id: product, product_type: 'package' },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Intent
}

const pay = (i: Intent, json: Record<string, unknown>) =>
  api(DEMO, `ledger/sandbox/pay/${i.id}`, { method: 'POST', json: { secret: i.client_secret, ...json } })

/** A webhook as the sandbox provider signs it. */
async function webhook(body: Record<string, unknown>, at?: number, provider = 'sandbox-card') {
  const payload = JSON.stringify(body)
  const signature = await signSandboxWebhook((await sandboxSecret(env))!, payload, at)
  return api(DEMO, `ledger/webhook/${provider}`, {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
  })
}

const providerRef = async (id: string) =>
  (await env.DB.prepare('SELECT provider_ref FROM ledger_payment_intent WHERE id = ?').bind(id).first<{ provider_ref: string }>())!.provider_ref

describe('buying a package through the sandbox provider', () => {
  it('lists the packages on sale and the providers available in the realm', async () => {
    const me = await buyer()
    const onSale = await Promise.all(['BRL', 'EUR', 'USD'].map((currency) => creditPackage('demo', { currency })))
    const shop = (await (await api(DEMO, 'ledger/package/shop', { token: me.token })).json()) as {
      packages: { id: string; currency: string }[]
      providers: unknown[]
    }
    expect(shop.packages.map((p) => ({ id: p.id, currency: p.currency }))).toEqual(
      expect.arrayContaining(onSale.map((p) => ({ id: p.id, currency: p.currency }))),
    )
    expect(shop.providers).toEqual([
      { code: 'sandbox-card', kind: 'card', sandbox: true, available: true },
      { code: 'sandbox-regional', kind: 'regional', sandbox: true, available: true },
    ])
  })

  it('issues the credits only on the verified confirmation, exactly once', async () => {
    const me = await buyer()
    const pkg = await starter()
    const i = await intent(me.token, pkg.id)
    expect(i).toMatchObject({ status: 'pending', points: 500, amount: 49.9, currency: 'BRL' })
    expect(i.checkout_url).toBe(`http://demo.localhost/sandbox/checkout/${i.id}?secret=${i.client_secret}`)
    expect(i.return_url).toBe(`http://demo.localhost/ledger/package/purchase/${pkg.id}?intent=${i.id}`)
    expect(await balance(me.nick)).toBe(0)

    const paid = await pay(i, { card_number: '4242 4242 4242 4242' })
    expect(await paid.json()).toMatchObject({ status: 'succeeded', return_url: i.return_url })
    expect(await balance(me.nick)).toBe(500)
    const status = await (await api(DEMO, `ledger/transaction/intent/${i.id}`, { token: me.token })).json()
    expect(status).toMatchObject({ status: 'succeeded', transaction_id: `pur_${i.id}` })
    await expectEnvelope(await pay(i, { card_number: '4242424242424242' }), 409, 'already_paid')
    await expectInvariants()
  })

  it('issues once when the same webhook repeats, and once when the payment is confirmed twice', async () => {
    const me = await buyer()
    const pkg = await starter()
    const i = await intent(me.token, pkg.id)
    const event = {
      id: `evt_${crypto.randomUUID()}`,
      type: 'payment.succeeded',
      data: { intent_id: i.id, provider_ref: await providerRef(i.id), amount: 49.9, currency: 'BRL' },
    }
    const first = await webhook(event)
    expect(await first.json()).toEqual({ received: true, duplicate: false })
    const again = await webhook(event)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ received: true, duplicate: true })
    const other = await webhook({ ...event, id: `evt_${crypto.randomUUID()}` })
    expect(await other.json()).toEqual({ received: true, duplicate: true })
    expect(await balance(me.nick)).toBe(500)
    const tx = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transaction WHERE type = 'purchase' AND id = ?").bind(`pur_${i.id}`).first()
    expect(tx).toEqual({ n: 1 })
  })

  it('refuses webhooks that are not signed by the provider, stale, or about a different payment', async () => {
    const me = await buyer()
    const pkg = await starter()
    const i = await intent(me.token, pkg.id)
    const event = {
      id: `evt_${crypto.randomUUID()}`,
      type: 'payment.succeeded',
      data: { intent_id: i.id, provider_ref: await providerRef(i.id), amount: 49.9, currency: 'BRL' },
    }
    const forged = await api(DEMO, 'ledger/webhook/sandbox-card', {
      method: 'POST',
      json: event,
      headers: { [SANDBOX_SIGNATURE_HEADER]: `t=${Math.floor(Date.now() / 1000)},v1=forged` },
    })
    await expectEnvelope(forged, 400, 'invalid_signature')
    await expectEnvelope(await webhook(event, Math.floor(Date.now() / 1000) - 3600), 400, 'invalid_signature')
    await expectEnvelope(await webhook({ ...event, data: { ...event.data, provider_ref: 'sbx_other' } }), 404, 'not_found')
    await expectEnvelope(await webhook(event, undefined, 'nobody'), 404, 'not_found')
    const cheap = await webhook({ ...event, data: { ...event.data, amount: 0.01 } })
    expect(cheap.status).toBe(200)
    expect(await balance(me.nick)).toBe(0)
    expect(await (await api(DEMO, `ledger/transaction/intent/${i.id}`, { token: me.token })).json()).toMatchObject({
      status: 'failed',
      failure: 'amount_mismatch',
    })
  })

  it('declines by test card, issues nothing, and lets the buyer try again', async () => {
    const me = await buyer()
    const pkg = await starter()
    const i = await intent(me.token, pkg.id)
    expect(await (await pay(i, { card_number: '4000000000000002' })).json()).toMatchObject({ status: 'failed', failure_code: 'card_declined' })
    expect(await (await api(DEMO, `ledger/transaction/intent/${i.id}`, { token: me.token })).json()).toMatchObject({
      status: 'failed',
      failure: 'card_declined',
    })
    expect(await balance(me.nick)).toBe(0)
    await expectEnvelope(await pay(i, { card_number: '4111111111111111' }), 400, 'test_card')
    await expectEnvelope(await pay({ ...i, client_secret: 'wrong-secret-wrong-secret' }, { card_number: '4242424242424242' }), 404, 'not_found')
    expect(await (await pay(i, { card_number: '4242424242424242' })).json()).toMatchObject({ status: 'succeeded' })
    expect(await balance(me.nick)).toBe(500)
  })

  it('buys through the regional provider with transaction_amount, which must be the cost', async () => {
    const me = await buyer()
    const pkg = await creditPackage('demo', { cost: 29.99, currency: 'USD', points: 1000 })
    const body = (amount: unknown) => ({
      provider: 'sandbox-regional',
      product_id: pkg.id,
      idempotency_key: key(),
      provider_data: { transaction_amount: amount, description: 'Classroom' },
    })
    await expectEnvelope(await api(DEMO, 'ledger/transaction/purchase', { method: 'POST', token: me.token, json: body(10) }), 422, 'amount_mismatch')
    const res = await api(DEMO, 'ledger/transaction/purchase', { method: 'POST', token: me.token, json: body('29.99') })
    expect(res.status).toBe(201)
    const i = (await res.json()) as Intent
    expect(i).toMatchObject({ status: 'pending', currency: 'USD', amount: 29.99, qr_code: expect.stringContaining('SANDBOX-PAY:USD:29.99') })
    expect(await (await pay(i, { outcome: 'approve' })).json()).toMatchObject({ status: 'succeeded' })
    expect(await balance(me.nick)).toBe(1000)
  })

  it('refuses unknown or disabled packages, wrong provider kinds, and providers not available in the realm', async () => {
    const me = await buyer()
    const pkg = await starter()
    const post = (json: unknown) => api(DEMO, 'ledger/transaction/create-intent', { method: 'POST', token: me.token, json })
    await expectEnvelope(await post({ provider: 'sandbox-card', product_id: 'pkg_missing' }), 404, 'not_found')
    await expectEnvelope(await post({ provider: 'sandbox-regional', product_id: pkg.id }), 422, 'provider_unavailable')
    await expectEnvelope(await post({ provider: 'acme-pay', product_id: pkg.id }), 422, 'provider_unavailable')
    await expectEnvelope(await post({ provider: 'sandbox-card', product_id: pkg.id, provider_data: { return_url: 'https://evil.example/' } }), 400, 'invalid')

    // A production realm (not `development`) gets no sandbox: the UI says no provider is configured.
    const prod = await ledgerRealm()
    const seller = await userWith(prod.code, [DASH, 'ledger_package_create'])
    const sold = (await (
      await api(prod.host, 'ledger/package', { method: 'POST', token: seller.token, json: { name: 'Prod', cost: 10, points: 10 } })
    ).json()) as { id: string }
    const shop = (await (await api(prod.host, 'ledger/package/shop', { token: seller.token })).json()) as { providers: { available: boolean }[] }
    expect(shop.providers.map((p) => p.available)).toEqual([false, false])
    const refused = await api(prod.host, 'ledger/transaction/create-intent', {
      method: 'POST',
      token: seller.token,
      json: { provider: 'sandbox-card', product_id: sold.id },
    })
    const body = await expectEnvelope(refused, 422, 'provider_unavailable')
    expect(body.errors[0].message).toBe('ledger.error.provider_unavailable')
  })

  it('shows a buyer only their own intents', async () => {
    const me = await buyer()
    const pkg = await starter()
    const i = await intent(me.token, pkg.id)
    const other = await buyer()
    await expectEnvelope(await api(DEMO, `ledger/transaction/intent/${i.id}`, { token: other.token }), 404, 'not_found')
    const audit = await env.DB.prepare("SELECT actor FROM audit_log WHERE entity = 'ledger_payment_intent' AND entity_id = ?").bind(i.id).first()
    expect(audit).toEqual({ actor: me.nick })
  })
})
