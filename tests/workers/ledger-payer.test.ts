import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { recordStatements } from '../../worker/db/ledger-group'
import { balance, expectInvariants, funded, key, move, recipient } from './ledger-helpers'

/** One INSERT of an idempotency row (a plain table with a unique key), as the paying wallet's object receives it. */
const claim = (k: string) =>
  recordStatements((db) => [
    db.prepare("INSERT INTO ledger_idempotency (realm, key, request_hash, status, created_at) VALUES ('demo', ?, 'h', 'pending', 'now')").bind(k),
  ])[0]
const stored = async (k: string) => (await env.DB.prepare("SELECT key FROM ledger_idempotency WHERE realm = 'demo' AND key = ?").bind(k).first()) !== null

describe('the paying wallet object (group commit of movements)', () => {
  it('records a builder’s statements as SQL text and parameters', () => {
    expect(recordStatements((db) => [db.prepare('SELECT ?1, ?2').bind('a', 2)])).toEqual([{ sql: 'SELECT ?1, ?2', params: ['a', 2] }])
  })

  it('commits movements sent at once; one that fails writes nothing of its own and the others are still committed', async () => {
    const payer = env.LEDGER_PAYER.get(env.LEDGER_PAYER.idFromName(`test:${crypto.randomUUID()}`))
    const taken = key()
    await env.DB.prepare("INSERT INTO ledger_idempotency (realm, key, request_hash, status, created_at) VALUES ('demo', ?, 'h', 'pending', 'now')")
      .bind(taken)
      .run()
    const keys = Array.from({ length: 6 }, () => key())
    // The first movement takes a while (a counter to 300,000), so the others wait for it and are committed as one group.
    // The fourth writes its own row, then fails on a key already stored: its row must not stay, the others' must.
    const slow = recordStatements((db) => [
      db.prepare('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT COUNT(*) FROM n'),
    ])
    const movements = keys.map((k, i) => (i === 0 ? [...slow, claim(k)] : i === 3 ? [claim(k), claim(taken)] : [claim(k)]))
    const answers = await Promise.all(movements.map((m) => payer.post(m)))
    expect(answers[0]).toBeNull()
    expect(answers.map((a) => a === null)).toEqual([true, true, true, false, true, true])
    expect(answers[3]).toMatch(/UNIQUE constraint failed: ledger_idempotency/)
    expect(await Promise.all(keys.map(stored))).toEqual([true, true, true, false, true, true])
  })

  it('keeps the conditional debit: 30 transfers at once from a wallet holding 10 post exactly 10, the rest are refused', async () => {
    const payer = await funded(10)
    const to = [await recipient(), await recipient(), await recipient()]
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => move('transfer', payer.token, { targets: [to[i % 3].nick], points: 1 })))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(10)
    expect(statuses.filter((s) => s === 422)).toHaveLength(20)
    for (const r of results.filter((x) => x.status === 422))
      expect((await r.json()) as unknown).toMatchObject({ errors: [{ cause: 'insufficient_credits', field: 'points' }] })
    const ids = await Promise.all(results.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { id: string }).id))
    expect(new Set(ids).size).toBe(10)
    const audits = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'ledger_transaction' AND entity_id IN (SELECT value FROM json_each(?))`,
    )
      .bind(JSON.stringify(ids))
      .first<{ n: number }>()
    expect(audits?.n).toBe(10)
    expect(await balance(payer.nick)).toBe(0)
    expect((await Promise.all(to.map((u) => balance(u.nick)))).reduce((a, b) => a + b, 0)).toBe(10)
    await expectInvariants()
  })

  it('keeps idempotency when keys repeat among transfers sent at once: one movement per key, every call answers it', async () => {
    const payer = await funded(100)
    const a = await recipient()
    const bodies = Array.from({ length: 8 }, (_, i) => ({ targets: [a.nick], points: i + 1, idempotency_key: key() }))
    const results = await Promise.all([...bodies, ...bodies, ...bodies].map((b) => move('transfer', payer.token, b)))
    expect(results.map((r) => r.status)).toEqual(Array(24).fill(201))
    const ids = await Promise.all(results.map(async (r) => ((await r.json()) as { id: string }).id))
    for (let i = 0; i < 8; i++) expect(new Set([ids[i], ids[i + 8], ids[i + 16]]).size).toBe(1)
    expect(new Set(ids).size).toBe(8)
    expect(await balance(payer.nick)).toBe(100 - 36)
    expect(await balance(a.nick)).toBe(36)
    await expectInvariants()
  })
})
