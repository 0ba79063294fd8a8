import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import type { LedgerMovement, StatementEntry } from '#shared/schemas/ledger-entity'
import { realmWallet, userWallet } from '../../worker/db/ledger'
import { DEMO, api, expectEnvelope, userWith } from './helpers'
import { DASH, balance, expectInvariants, funded, grant, ledgerRealm, move, recipient } from './ledger-helpers'

const realmBalance = async (code: string) =>
  (await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`realm:${code}:${code}`).first<{ balance: number }>())?.balance ?? 0

describe('POST ledger/transaction/debit', () => {
  it('charges the realm prices of the listed contents into the consumption account', async () => {
    const user = await funded(100, ['ledger_transaction_debit'])
    const res = await move('debit', user.token, { contents: ['lesson.slides', 'lesson.summary', 'lesson.summary'] })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({
      type: 'debit',
      points: 30,
      contents: [
        { key: 'lesson.slides', points: 20 },
        { key: 'lesson.summary', points: 5 },
        { key: 'lesson.summary', points: 5 },
      ],
    })
    expect(await balance(user.nick)).toBe(70)
    await expectInvariants()
  })

  it('refuses insufficient points with the generation message, and unknown contents by key', async () => {
    const user = await funded(10, ['ledger_transaction_debit'])
    const body = await expectEnvelope(await move('debit', user.token, { contents: ['persona.voice_clone'] }), 422, 'insufficient_credits')
    expect(body.errors[0]).toMatchObject({ message: 'ledger.error.insufficient_credits_generation', value: { required: 100, available: 10 } })
    const unknown = await expectEnvelope(await move('debit', user.token, { contents: ['lesson.summary', 'nope.nothing'] }), 404, 'not_found')
    expect(unknown.errors.map((e) => e.value)).toEqual(['nope.nothing'])
    await expectEnvelope(await move('debit', user.token, { contents: [] }), 400)
    expect(await balance(user.nick)).toBe(10)
  })

  it('charges nothing for free contents', async () => {
    const admin = await userWith('demo', [DASH, 'ledger_content_edit'])
    await api(DEMO, 'ledger/content/free.sample', { method: 'PUT', token: admin.token, json: { name: 'Free sample', points: 0 } })
    const user = await funded(0, ['ledger_transaction_debit'])
    const res = await move('debit', user.token, { contents: ['free.sample'] })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: null, points: 0 })
  })
})

describe('POST ledger/transaction/sponsor', () => {
  it("funds a realm's wallet in the caller's tree from the caller's wallet", async () => {
    const child = await ledgerRealm({ parent_code: 'demo' })
    const sponsor = await funded(40, ['ledger_sponsor_create'])
    const res = await move('sponsor', sponsor.token, { realm: child.code, points: 25, description: 'Início do ano' })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ type: 'sponsor', realm: child.code, points: 25, source: `user:${sponsor.nick}` })
    expect([await balance(sponsor.nick), await realmBalance(child.code)]).toEqual([15, 25])
    await expectInvariants()
  })

  it('refuses realms outside the tree, realms without the ledger, insufficient points and a realm funding itself', async () => {
    const outside = await ledgerRealm()
    const sponsor = await funded(10, ['ledger_sponsor_create', 'ledger_transfer_cross_realm'])
    await expectEnvelope(await move('sponsor', sponsor.token, { realm: outside.code, points: 1 }), 404, 'not_found')
    await env.DB.prepare("UPDATE realm SET parent_code = 'demo' WHERE code = 'escola'").run()
    try {
      await expectEnvelope(await move('sponsor', sponsor.token, { realm: 'escola', points: 1 }), 422, 'disabled')
    } finally {
      await env.DB.prepare("UPDATE realm SET parent_code = NULL WHERE code = 'escola'").run()
    }
    await expectEnvelope(await move('sponsor', sponsor.token, { realm: 'demo', points: 11 }), 422, 'insufficient_credits')
    await expectEnvelope(await move('sponsor', sponsor.token, { realm: 'demo', points: 1, from_realm: 'demo' }), 422, 'self_transfer')
    expect(await balance(sponsor.nick)).toBe(10)
  })

  it('pays from a parent realm wallet to a child realm with ledger_transfer_cross_realm', async () => {
    const child = await ledgerRealm({ parent_code: 'demo' })
    const admin = await funded(0, ['ledger_sponsor_create', 'ledger_transfer_cross_realm'])
    await grant(realmWallet('demo'), 30)
    expect((await move('sponsor', admin.token, { realm: child.code, points: 30, from_realm: 'demo' })).status).toBe(201)
    expect(await realmBalance(child.code)).toBe(30)
  })
})

describe('POST ledger/transaction/reversal', () => {
  it('posts the exact opposite, once; a reversal cannot be reversed', async () => {
    const payer = await funded(50)
    const a = await recipient()
    const t = (await (await move('transfer', payer.token, { targets: [a.nick], points: 20 })).json()) as { id: string }
    const admin = await userWith('demo', [DASH, 'ledger_transaction_reverse'])
    const res = await move('reversal', admin.token, { transaction_id: t.id })
    expect(res.status).toBe(201)
    const r = (await res.json()) as { id: string; reverses: string; points: number }
    expect(r).toMatchObject({ type: 'reversal', reverses: t.id, points: 20 })
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([50, 0])
    await expectEnvelope(await move('reversal', admin.token, { transaction_id: t.id }), 409, 'already_reversed')
    await expectEnvelope(await move('reversal', admin.token, { transaction_id: r.id }), 422, 'not_reversible')
    await expectEnvelope(await move('reversal', admin.token, { transaction_id: 'tx_missing' }), 404, 'not_found')
    await expectInvariants()
  })

  it('refuses when a credited wallet already spent the credits, naming it', async () => {
    const payer = await funded(50)
    const a = await userWith('demo', [DASH, 'ledger_transfer_create', `x_${crypto.randomUUID()}`])
    const t = (await (await move('transfer', payer.token, { targets: [a.nick], points: 20 })).json()) as { id: string }
    expect((await move('transfer', a.token, { targets: ['teacher'], points: 15 })).status).toBe(201)
    const admin = await userWith('demo', [DASH, 'ledger_transaction_reverse'])
    const body = await expectEnvelope(await move('reversal', admin.token, { transaction_id: t.id }), 422, 'insufficient_credits')
    expect(body.errors[0].value).toEqual({ account: `user:${a.nick}`, required: 20, available: 5 })
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([30, 5])
  })

  it('keeps ledger rows immutable: corrections are reversals, never edits', async () => {
    await expect(env.DB.prepare('UPDATE ledger_entry SET amount = amount + 1').run()).rejects.toThrow(/ledger_immutable/)
    await expect(env.DB.prepare('DELETE FROM ledger_transaction').run()).rejects.toThrow(/ledger_immutable/)
  })
})

describe('GET ledger/transaction/transfer, wallets and statements', () => {
  it('lists movements by type, period and targets, with sources and targets', async () => {
    const payer = await funded(30)
    const a = await recipient()
    const t = (await (await move('transfer', payer.token, { targets: [a.nick], points: 9 })).json()) as { id: string; billing_key: string }
    const reader = await userWith('demo', [DASH, 'ledger_transfer_list'])
    const today = new Date().toISOString().slice(0, 10)
    const res = await api(DEMO, `ledger/transaction/transfer?type=transfer&targets=${a.nick}&start_at=${today}&end_at=${today}`, { token: reader.token })
    const page = (await res.json()) as ListPage<LedgerMovement>
    expect(page.total).toBe(1)
    expect(page.items[0]).toMatchObject({
      id: t.id,
      billing_key: t.billing_key,
      points: 9,
      sources: [`user:${payer.nick}`],
      targets: [`user:${a.nick}`],
      reversed_by: null,
    })
    const none = (await (
      await api(DEMO, `ledger/transaction/transfer?type=debit&targets=${a.nick}`, { token: reader.token })
    ).json()) as ListPage<LedgerMovement>
    expect(none.total).toBe(0)
    await expectEnvelope(await api(DEMO, 'ledger/transaction/transfer?start_at=yesterday', { token: reader.token }), 400)
  })

  it("answers the caller's own wallet with points; other wallets only with ledger_wallet_get_others", async () => {
    const me = await funded(12)
    const own = await api(DEMO, `ledger/wallet/${me.nick}`, { token: me.token })
    expect(await own.json()).toMatchObject({ kind: 'user', owner: me.nick, points: 12 })
    await expectEnvelope(await api(DEMO, 'ledger/wallet/root', { token: me.token }), 404, 'not_found')
    const auditor = await userWith('demo', [DASH, 'ledger_wallet_get_others'])
    expect(await (await api(DEMO, 'ledger/wallet/root', { token: auditor.token })).json()).toMatchObject({ owner: 'root@demo', kind: 'user' })
    expect(await (await api(DEMO, 'ledger/wallet/demo?from_realm=true', { token: auditor.token })).json()).toMatchObject({ kind: 'realm', owner: 'demo' })
    await expectEnvelope(await api(DEMO, 'ledger/wallet/escola?from_realm=true', { token: auditor.token }), 404, 'not_found')
    await expectEnvelope(await api(DEMO, 'ledger/wallet/demo?from_realm=true', { token: me.token }), 404, 'not_found')
  })

  it("gives a wallet's statement with the balance after each entry", async () => {
    const me = await funded(40)
    await move('transfer', me.token, { targets: ['teacher'], points: 15 })
    await move('transfer', me.token, { targets: ['manager'], points: 5 })
    const page = (await (await api(DEMO, `ledger/wallet/${me.nick}/statement`, { token: me.token })).json()) as ListPage<StatementEntry>
    expect(page.items.map((e) => [e.type, e.amount, e.balance_after])).toEqual([
      ['transfer', -5, 20],
      ['transfer', -15, 25],
      ['issuance', 40, 40],
    ])
    expect(page.items[0].counterparts).toEqual(['user:manager@demo'])
  })

  it('lists the accounts of the realm and checks the invariants', async () => {
    await grant(userWallet('demo', 'student@demo'), 3)
    const admin = await userWith('demo', [DASH, 'ledger_balance_list'])
    const page = (await (
      await api(DEMO, 'ledger/transaction/account?kind=user&owner=student@demo&fields=owner,balance', { token: admin.token })
    ).json()) as ListPage<Record<string, unknown>>
    expect(page.items).toEqual([{ owner: 'student@demo', balance: expect.any(Number) }])
    const check = (await (await api(DEMO, 'ledger/transaction/account/check', { token: admin.token })).json()) as Record<string, unknown>
    expect(check).toMatchObject({ realm: 'demo', ok: true, mismatched: 0, negative: 0, unbalanced: 0, entries_sum: 0 })
    await expectEnvelope(await api(DEMO, 'ledger/transaction/account?realm=escola', { token: admin.token }), 403, 'forbidden')
  })
})
