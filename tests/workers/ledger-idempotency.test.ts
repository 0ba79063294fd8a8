import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { creditPackage } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'
import { DASH, balance, expectInvariants, funded, key, ledgerRealm, move, recipient } from './ledger-helpers'

const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n

interface Case {
  path: string
  /** The caller, a request body, another body, and what the call changes (read before and after each call). */
  setup: () => Promise<{ token: string; body: Record<string, unknown>; other: Record<string, unknown>; effect: () => Promise<unknown> }>
}

/** Every movement that carries an idempotency key besides transfer (covered in ledger-transfer.test.ts). */
const cases: Record<string, Case> = {
  debit: {
    path: 'ledger/transaction/debit',
    setup: async () => {
      const user = await funded(100, ['ledger_transaction_debit'])
      return { token: user.token, body: { contents: ['lesson.summary'] }, other: { contents: ['lesson.slides'] }, effect: () => balance(user.nick) }
    },
  },
  sponsor: {
    path: 'ledger/transaction/sponsor',
    setup: async () => {
      const child = await ledgerRealm({ parent_code: 'demo' })
      const sponsor = await funded(100, ['ledger_sponsor_create'])
      return {
        token: sponsor.token,
        body: { realm: child.code, points: 10, description: 'Apoio' },
        other: { realm: child.code, points: 11, description: 'Apoio' },
        effect: () => balance(sponsor.nick),
      }
    },
  },
  reversal: {
    path: 'ledger/transaction/reversal',
    setup: async () => {
      const payer = await funded(100)
      const a = await recipient()
      const tx = async () => ((await (await move('transfer', payer.token, { targets: [a.nick], points: 10 })).json()) as { id: string }).id
      const [one, two] = [await tx(), await tx()]
      const admin = await userWith('demo', [DASH, 'ledger_transaction_reverse'])
      return {
        token: admin.token,
        body: { transaction_id: one },
        other: { transaction_id: two },
        effect: () => Promise.all([balance(payer.nick), balance(a.nick)]),
      }
    },
  },
  purchase: {
    path: 'ledger/transaction/purchase',
    setup: async () => {
      const me = await userWith('demo', [DASH, `x_${crypto.randomUUID()}`])
      const pack = await creditPackage('demo', { currency: 'USD', cost: 29.99, points: 1000, name: 'Classroom' })
      const body = (description: string) => ({
        provider: 'sandbox-regional',
        product_id: pack.id,
        provider_data: { transaction_amount: '29.99', description },
      })
      return {
        token: me.token,
        body: body('Classroom'),
        other: body('Another'),
        effect: () => count('SELECT COUNT(*) AS n FROM ledger_payment_intent WHERE nick = ?', me.nick),
      }
    },
  },
}

describe('idempotency of debit, sponsor, reversal and purchase', () => {
  it.each(Object.entries(cases))('%s: needs a key; a replay answers the original with one effect; another body with the key is 422', async (_name, c) => {
    const { token, body, other, effect } = await c.setup()
    const post = (json: Record<string, unknown>, k?: string) => api(DEMO, c.path, { method: 'POST', token, json: k ? { ...json, idempotency_key: k } : json })
    const start = await effect()
    await expectEnvelope(await post(body), 400)
    expect(await effect()).toEqual(start)

    const k = key()
    const first = await post(body, k)
    expect(first.status, await first.clone().text()).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const after = await effect()
    expect(after).not.toEqual(start)

    const second = await post(body, k)
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await second.json()).toEqual(await first.json())
    expect(await effect()).toEqual(after)

    await expectEnvelope(await post(other, k), 422, 'idempotency_mismatch')
    expect(await effect()).toEqual(after)
    await expectInvariants()
  })
})
