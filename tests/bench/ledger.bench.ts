import { localFetch as fetch } from '../support/local-fetch'
import type { BenchContext, Scenario } from './harness'
import { withCpu } from './cpu'

export const title = 'Credit ledger: transfers with contention on one wallet, then the invariant check'

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const demo = ctx.base('demo.localhost')
  const token = async (nick: string) => {
    const res = await fetch(`${demo}/api/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ realm: 'demo', nick, password: 'demo1234' }),
    })
    return ((await res.json()) as { auth_token: string }).auth_token
  }
  const [root, manager] = [await token('root'), await token('manager')]
  const run = crypto.randomUUID().slice(0, 8)
  const transfer = (auth: string, i: number, targets: string[]) =>
    fetch(`${demo}/api/ledger/transaction/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': auth },
      body: JSON.stringify({ targets, points: 1, description: 'bench', idempotency_key: `bench-${run}-${auth.slice(0, 6)}-${i}` }),
    })
  const wallet = async (nick: string) =>
    ((await (await fetch(`${demo}/api/ledger/wallet/${nick}`, { headers: { 'x-api-key': root } })).json()) as { points: number }).points
  /** The ledger's own invariant check over the realm (GET ledger/transaction/account/check). */
  const check = async () => {
    const c = (await (await fetch(`${demo}/api/ledger/transaction/account/check`, { headers: { 'x-api-key': root } })).json()) as Record<
      string,
      number | boolean
    >
    return `invariants ${c.ok ? 'hold' : 'BROKEN'}: ${c.transactions} tx, entries sum ${c.entries_sum}, unbalanced ${c.unbalanced}, balance≠entries ${c.mismatched}, wallets<0 ${c.negative}`
  }
  let refused = 0
  const scenarios: Scenario[] = [
    {
      name: 'POST transfer, one payer wallet (1 → 1)',
      concurrency: 16,
      requests: 1000,
      // The first transfers compile the handler and start the paying wallet's object: left out of the figures (they
      // are posted, and counted by the invariant check).
      warmup: 64,
      async run(i) {
        const res = await transfer(root, i, ['teacher'])
        if (res.status !== 201) throw new Error(`HTTP ${res.status}`)
        await res.arrayBuffer()
      },
      after: check,
    },
    {
      name: 'POST transfer, one payer wallet (1 → 3)',
      concurrency: 16,
      requests: 600,
      async run(i) {
        const res = await transfer(root, 100_000 + i, ['teacher', 'manager', 'student'])
        if (res.status !== 201) throw new Error(`HTTP ${res.status}`)
        await res.arrayBuffer()
      },
      after: check,
    },
    {
      // manager holds about 1,600 credits here; more transfers are sent than it can pay: the rest must be refused.
      name: 'POST transfer draining one wallet (422 expected)',
      concurrency: 16,
      requests: 2000,
      async run(i) {
        const res = await transfer(manager, i, ['student'])
        if (res.status === 422) refused++
        else if (res.status !== 201) throw new Error(`HTTP ${res.status}`)
        await res.arrayBuffer()
      },
      after: async () => `${refused} refused, payer left with ${await wallet('manager')}; ${await check()}`,
    },
  ]
  return scenarios.map((s) => withCpu(s, ctx))
}
