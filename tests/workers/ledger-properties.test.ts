import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import { creditPackage } from './factories'
import { DEMO, api, userWith } from './helpers'
import { propertyRuns } from '../support/property-runs'
import { DASH, balance, expectInvariants, funded, key, ledgerRealm, recipient } from './ledger-helpers'

const PERMS = ['ledger_transfer_create', 'ledger_transaction_debit', 'ledger_sponsor_create', 'ledger_transaction_reverse']
const PRICES: Record<string, number> = { 'lesson.summary': 5, 'lesson.slides': 20, 'persona.animation': 60 }
const USERS = 4

type Op =
  | { kind: 'transfer'; from: number; to: number[]; points: number }
  | { kind: 'debit'; who: number; contents: string[] }
  | { kind: 'purchase'; who: number; approve: boolean }
  | { kind: 'sponsor'; who: number; points: number }
  | { kind: 'reversal'; pick: number }
  | { kind: 'replay'; pick: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('transfer' as const),
    from: fc.nat(USERS - 1),
    to: fc.uniqueArray(fc.nat(USERS - 1), { minLength: 1, maxLength: 3 }),
    points: fc.integer({ min: 1, max: 120 }),
  }),
  fc.record({
    kind: fc.constant('debit' as const),
    who: fc.nat(USERS - 1),
    contents: fc.array(fc.constantFrom(...Object.keys(PRICES)), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('purchase' as const), who: fc.nat(USERS - 1), approve: fc.boolean() }),
  fc.record({ kind: fc.constant('sponsor' as const), who: fc.nat(USERS - 1), points: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('reversal' as const), pick: fc.nat(50) }),
  fc.record({ kind: fc.constant('replay' as const), pick: fc.nat(50) }),
)

describe('ledger invariants under random movements (fast-check)', () => {
  it('keeps the sum of entries at zero, balances equal to entries, no wallet below zero, and matches a model', async () => {
    const users = await Promise.all(Array.from({ length: USERS }, () => userWith('demo', [DASH, ...PERMS, `x_${crypto.randomUUID()}`])))
    const child = await ledgerRealm({ parent_code: 'demo' })
    const realmWallet = `realm:${child.code}`

    // The package bought in the model: built here (500 points), not the demo seed's.
    const pack = await creditPackage('demo', { points: 500, cost: 49.9 })
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 14 }), async (ops) => {
        // The model: every wallet this run touches, and the lines of each posted movement (for reversals).
        const model = new Map<string, number>()
        for (const u of users) model.set(`user:${u.nick}`, await balance(u.nick))
        model.set(
          realmWallet,
          ((await (await api(DEMO, `ledger/wallet/${child.code}?from_realm=true`, { token: users[0].token })).json()) as { points: number }).points,
        )
        const posted: { id: string; lines: [string, number][] }[] = []
        const sent: { path: string; token: string; body: Record<string, unknown>; status: number; answer: unknown }[] = []
        const apply = (lines: [string, number][]) => lines.forEach(([a, n]) => model.set(a, (model.get(a) ?? 0) + n))
        const affordable = (lines: [string, number][]) => lines.every(([a, n]) => (model.get(a) ?? 0) + n >= 0)
        const post = async (path: string, token: string, body: Record<string, unknown>) => {
          const res = await api(DEMO, `ledger/transaction/${path}`, { method: 'POST', token, json: body })
          const answer: unknown = await res.json()
          sent.push({ path, token, body, status: res.status, answer })
          return { status: res.status, answer: answer as { id: string } }
        }

        for (const o of ops) {
          if (o.kind === 'transfer') {
            const targets = o.to.filter((t) => t !== o.from)
            if (!targets.length) continue
            const lines: [string, number][] = [
              [`user:${users[o.from].nick}`, -o.points * targets.length],
              ...targets.map((t): [string, number] => [`user:${users[t].nick}`, o.points]),
            ]
            const r = await post('transfer', users[o.from].token, { targets: targets.map((t) => users[t].nick), points: o.points, idempotency_key: key() })
            expect(r.status).toBe(affordable(lines) ? 201 : 422)
            if (r.status === 201) {
              apply(lines)
              posted.push({ id: r.answer.id, lines })
            }
          } else if (o.kind === 'debit') {
            const total = o.contents.reduce((s, c) => s + PRICES[c], 0)
            const lines: [string, number][] = [[`user:${users[o.who].nick}`, -total]]
            const r = await post('debit', users[o.who].token, { contents: o.contents, idempotency_key: key() })
            expect(r.status).toBe(affordable(lines) ? 201 : 422)
            if (r.status === 201) {
              apply(lines)
              posted.push({ id: r.answer.id, lines })
            }
          } else if (o.kind === 'sponsor') {
            const lines: [string, number][] = [
              [`user:${users[o.who].nick}`, -o.points],
              [realmWallet, o.points],
            ]
            const r = await post('sponsor', users[o.who].token, { realm: child.code, points: o.points, idempotency_key: key() })
            expect(r.status).toBe(affordable(lines) ? 201 : 422)
            if (r.status === 201) {
              apply(lines)
              posted.push({ id: r.answer.id, lines })
            }
          } else if (o.kind === 'purchase') {
            const intent = (await (
              await api(DEMO, 'ledger/transaction/create-intent', {
                method: 'POST',
                token: users[o.who].token,
                json: { provider: 'sandbox-card', product_id: pack.id },
              })
            ).json()) as { id: string; client_secret: string }
            const paid = await api(DEMO, `ledger/sandbox/pay/${intent.id}`, {
              method: 'POST',
              json: { secret: intent.client_secret, card_number: o.approve ? '4242424242424242' : '4000000000009995' },
            })
            expect(paid.status).toBe(200)
            const lines: [string, number][] = [[`user:${users[o.who].nick}`, pack.points]]
            if (o.approve) {
              apply(lines)
              posted.push({ id: `pur_${intent.id}`, lines })
            }
          } else if (o.kind === 'reversal') {
            const target = posted[o.pick % Math.max(posted.length, 1)]
            if (!target) continue
            const lines = target.lines.map(([a, n]): [string, number] => [a, -n])
            const r = await post('reversal', users[0].token, { transaction_id: target.id, idempotency_key: key() })
            // Issuance and consumption accounts are outside the model; only wallets can refuse.
            expect(r.status).toBe(affordable(lines) ? 201 : 422)
            if (r.status === 201) {
              apply(lines)
              posted.splice(posted.indexOf(target), 1)
            }
          } else {
            // Replaying a posted call answers the stored answer and moves nothing. (A refused call frees its key,
            // so replaying it would be a new call: the model only replays posted ones.)
            const done = sent.filter((x) => x.status === 201)
            const previous = done[o.pick % Math.max(done.length, 1)]
            if (!previous) continue
            const res = await api(DEMO, `ledger/transaction/${previous.path}`, { method: 'POST', token: previous.token, json: previous.body })
            expect(res.status).toBe(201)
            expect(res.headers.get('idempotent-replayed')).toBe('true')
            expect(await res.json()).toEqual(previous.answer)
          }
        }
        for (const u of users) expect(await balance(u.nick), u.nick).toBe(model.get(`user:${u.nick}`))
        await expectInvariants()
      }),
      { numRuns: propertyRuns(12, env.PROPERTY_SCALE) },
    )
  }, 180_000)
})

describe('contention on one wallet', () => {
  it('never overdraws a wallet under concurrent transfers: exactly what it holds goes out', async () => {
    const payer = await funded(100)
    const a = await recipient()
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        api(DEMO, 'ledger/transaction/transfer', { method: 'POST', token: payer.token, json: { targets: [a.nick], points: 10, idempotency_key: key() } }),
      ),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(10)
    expect(statuses.filter((s) => s === 422)).toHaveLength(20)
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([0, 100])
    await expectInvariants()
  })

  it('posts once when the same request arrives many times at once', async () => {
    const payer = await funded(100)
    const a = await recipient()
    const k = key()
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api(DEMO, 'ledger/transaction/transfer', { method: 'POST', token: payer.token, json: { targets: [a.nick], points: 10, idempotency_key: k } }),
      ),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true)
    expect(statuses).toContain(201)
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([90, 10])
  })
})
