import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ListQuery } from '#shared/schemas/common'
import type { FieldDef } from '#shared/schemas/entity'
import * as v from 'valibot'
import { movementEntity } from '#shared/schemas/ledger-entity'
import { accountId, userWallet } from '../../worker/db/ledger'
import { LIST_ENTITIES } from '../../worker/db/list-schema'
import { filterScope, listRows } from '../../worker/lib/entity'

/** Lists read from views (their rows are computed; the plan lines of their tables are checked for scans). */
const VIEWS = new Set(['ledger_account_view', 'ledger_movement', 'ledger_statement', 'tms_task_view', 'tms_token_view'])

/** A D1 stand-in that keeps the statements listRows sends (the page and its count) instead of running them. */
function capture() {
  const sent: { sql: string; params: unknown[] }[] = []
  const db = {
    prepare: (sql: string) => ({ bind: (...params: unknown[]) => ({ sql, params }) }),
    batch: async (stmts: { sql: string; params: unknown[] }[]) => {
      sent.push(...stmts)
      return [{ results: [] }, { results: [{ total: 0 }] }]
    },
  } as unknown as D1Database
  return { db, sent }
}

const SAMPLE: Record<string, (name: string, def: FieldDef) => Record<string, string>> = {
  eq: (name, def) => ({ [name]: def.type === 'bool' ? 'true' : def.type === 'int' || def.type === 'real' ? '1' : 'sample' }),
  in: (name) => ({ [name]: 'a,b' }),
  like: (name) => ({ [name]: 'amostra' }),
  date: (name) => ({ [`${name}_from`]: '2026-01-01', [`${name}_to`]: '2026-12-31' }),
}

/** Every list query the descriptors allow: each order (both ways), each filter, each with and without a text search. */
function cases() {
  const out: { name: string; desc: (typeof LIST_ENTITIES)[number]; query: Record<string, string> }[] = []
  for (const desc of LIST_ENTITIES) {
    const fields = Object.entries(desc.fields as Record<string, FieldDef>)
    const variants: [string, Record<string, string>][] = [['default order', {}]]
    for (const [name, def] of fields) {
      if (def.sort) variants.push([`order ${name}`, { order: name }], [`order -${name}`, { order: `-${name}` }])
      if (def.filter) variants.push([`filter ${name}`, SAMPLE[def.filter](name, def)])
    }
    for (const [label, query] of variants) {
      out.push({ name: `${desc.name}: ${label}`, desc, query })
      if (fields.some(([, d]) => d.search)) out.push({ name: `${desc.name}: ${label}, like`, desc, query: { ...query, like: 'amostra' } })
    }
  }
  return out
}

describe('every list query uses an index (EXPLAIN QUERY PLAN: no full scan of a table)', () => {
  const all = cases()
  it('covers every entity list', () => {
    expect(new Set(all.map((c) => c.desc.name)).size).toBe(LIST_ENTITIES.length)
  })

  it.each(all.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const { db, sent } = capture()
    // Tenant lists are scoped by realm; an account's statement (no realm column) by its account, as its endpoint does.
    const scope = c.desc.realmColumn
      ? { where: `"${c.desc.realmColumn}" = ?`, params: ['demo'] }
      : { where: 'account_id = ?', params: [accountId(userWallet('demo', 'any-account@demo'))] }
    await listRows(db, c.desc, scope, v.parse(ListQuery, { limit: '25', ...c.query }), filterScope(c.desc, c.query))
    expect(sent).toHaveLength(2)
    for (const { sql, params } of sent) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>()
      // A SCAN of a table (not of an index, a full-text index, a json_each list, a subquery or a view's co-routine,
      // whose own plan lines say how it reads its tables) reads every row.
      const details = results.map((r) => r.detail)
      const coroutines = new Set(details.flatMap((d) => /^CO-ROUTINE (\S+)/.exec(d)?.[1] ?? []))
      const scans = details.filter(
        (d) => /^SCAN /.test(d) && !coroutines.has(d.split(' ')[1]) && !/USING (COVERING )?INDEX|VIRTUAL TABLE|json_each|subquery|CONSTANT ROW/.test(d),
      )
      expect(scans, `${sql}\n${results.map((r) => r.detail).join('\n')}`).toEqual([])
      // An order alone (no search, no filter) on a table is served by its index, not by sorting the realm's rows.
      const plain = Object.keys(c.query).every((k) => k === 'order') && !VIEWS.has(c.desc.table) && sql.includes('ORDER BY')
      if (plain)
        expect(
          details.filter((d) => d.includes('TEMP B-TREE')),
          `${sql}\n${details.join('\n')}`,
        ).toEqual([])
    }
  })
})

describe('the movements list (GET ledger/transaction/transfer)', () => {
  it('reads the page of the realm that sees the movements from an index, newest first, without sorting them all', async () => {
    const { db, sent } = capture()
    await listRows(db, movementEntity, { where: 'seen_in = ?', params: ['demo'] }, v.parse(ListQuery, { limit: '25' }))
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sent[0].sql}`)
      .bind(...sent[0].params)
      .all<{ detail: string }>()
    const details = results.map((r) => r.detail)
    expect(details.join('\n')).toContain('ledger_movement_realm_at (realm=?)')
    expect(details.filter((d) => d.includes('TEMP B-TREE') || /^SCAN /.test(d))).toEqual([])
  })
})
