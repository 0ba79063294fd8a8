import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ListQuery } from '#shared/schemas/common'
import type { FieldDef } from '#shared/schemas/entity'
import * as v from 'valibot'
import { movementEntity } from '#shared/schemas/ledger-entity'
import { accountId, userWallet } from '../../worker/db/ledger'
import { encodeCursor, resolveOrder } from '../../worker/db/list-query'
import { LIST_ENTITIES, searchIndexOf } from '../../worker/db/list-schema'
import { filterScope, listRows } from '../../worker/lib/entity'

/** Lists read from views (their rows are computed; the plan lines of their tables are checked for scans). */
const VIEWS = new Set([
  'ledger_account_view',
  'ledger_movement',
  'ledger_statement',
  'tms_task_view',
  'tms_token_view',
  'lesson_lesson_view',
  'survey_survey_view',
])

/**
 * A D1 stand-in that keeps the statements listRows sends instead of running them: the page and its count; for a
 * search through the full-text index, its two pages (from the index, walking the sort index) and the count.
 */
function capture() {
  const sent: { sql: string; params: unknown[] }[] = []
  const db = {
    prepare: (sql: string) => ({ bind: (...params: unknown[]) => ({ sql, params }) }),
    batch: async (stmts: { sql: string; params: unknown[] }[]) => {
      sent.push(...stmts)
      return stmts.length === 3 ? [{ results: [] }, { results: [] }, { results: [{ total: 0 }] }] : [{ results: [] }, { results: [{ total: 0 }] }]
    },
  } as unknown as D1Database
  return { db, sent }
}

/** A cursor naming a row of `desc` under `order` (the sort value is a sample of the field's type; NULL when asked). */
function cursorFor(desc: (typeof LIST_ENTITIES)[number], order: string, nullValue = false) {
  const resolved = resolveOrder(desc, order)!
  const def = (desc.fields as Record<string, FieldDef>)[resolved.field]
  const sample = (d: FieldDef) => (d.type === 'int' || d.type === 'real' || d.type === 'bool' ? 1 : 'sample')
  const keyDef = (desc.fields as Record<string, FieldDef>)[desc.key]
  const key = sample(keyDef)
  return encodeCursor(resolved, { [resolved.field]: resolved.field === desc.key ? key : nullValue ? null : sample(def), [desc.key]: key })
}

const SAMPLE: Record<string, (name: string, def: FieldDef) => Record<string, string>> = {
  eq: (name, def) => ({ [name]: def.type === 'bool' ? 'true' : def.type === 'int' || def.type === 'real' ? '1' : 'sample' }),
  in: (name) => ({ [name]: 'a,b' }),
  like: (name) => ({ [name]: 'amostra' }),
  date: (name) => ({ [`${name}_from`]: '2026-01-01', [`${name}_to`]: '2026-12-31' }),
}

/**
 * Every list query the descriptors allow: each order (both ways), each read by offset, after a cursor, before a
 * cursor (a NULL sort value too, for nullable fields) and as the last page; each filter; each with and without a
 * text search (whose batch holds both pages: read from the full-text index, for few matches, and walking the sort
 * index, for many).
 */
function cases() {
  const out: { name: string; desc: (typeof LIST_ENTITIES)[number]; query: Record<string, string> }[] = []
  for (const desc of LIST_ENTITIES) {
    const fields = Object.entries(desc.fields as Record<string, FieldDef>)
    const variants: [string, Record<string, string>][] = [
      ['default order', {}],
      ['last page', { last: '1' }],
    ]
    for (const [name, def] of fields) {
      if (def.sort)
        for (const order of [name, `-${name}`]) {
          variants.push(
            [`order ${order}`, { order }],
            [`order ${order}, after`, { order, after: cursorFor(desc, order) }],
            [`order ${order}, before`, { order, before: cursorFor(desc, order) }],
            [`order ${order}, last`, { order, last: '1' }],
          )
          if (def.nullable) {
            variants.push(
              [`order ${order}, after NULL`, { order, after: cursorFor(desc, order, true) }],
              [`order ${order}, before NULL`, { order, before: cursorFor(desc, order, true) }],
            )
          }
        }
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
    const search = Boolean(c.query.like && searchIndexOf(c.desc))
    expect(sent).toHaveLength(search ? 3 : 2)
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
      // An order alone (no search, no filter; any cursor or the last page) on a table is served by its index, not by
      // sorting the realm's rows.
      const plain = Object.keys(c.query).every((k) => ['order', 'after', 'before', 'last'].includes(k)) && !VIEWS.has(c.desc.table) && sql.includes('ORDER BY')
      if (plain)
        expect(
          details.filter((d) => d.includes('TEMP B-TREE')),
          `${sql}\n${details.join('\n')}`,
        ).toEqual([])
    }
    // A cursor seeks the sort index from its row (a range of the index), instead of stepping over the rows before it;
    // a nullable field read towards its NULLs adds them with an OR, which the index walks (asserted by the scan check).
    const order = resolveOrder(c.desc, c.query.order ?? '')!
    const cursor = c.query.after ?? c.query.before
    const towardsNulls = order.nullable && (c.query.after ? order.descending : !order.descending)
    const nullCursor = cursor !== undefined && c.name.endsWith('NULL')
    if (cursor && !c.query.like && !VIEWS.has(c.desc.table) && Object.keys(c.query).length === 2 && !towardsNulls && !nullCursor) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sent[0].sql}`)
        .bind(...sent[0].params)
        .all<{ detail: string }>()
      expect(results.map((r) => r.detail).join('\n'), sent[0].sql).toMatch(/SEARCH .*INDEX \S+ \(.*[<>]/)
    }
  })
})

describe('cursor paging knows which sortable columns hold NULL', () => {
  it.each(LIST_ENTITIES.filter((d) => !VIEWS.has(d.table)).map((d) => [d.name, d] as const))('%s declares every nullable sortable column', async (_, desc) => {
    const { results } = await env.DB.prepare('SELECT name, "notnull" AS not_null, pk FROM pragma_table_info(?)')
      .bind(desc.table)
      .all<{ name: string; not_null: number; pk: number }>()
    expect(results.length).toBeGreaterThan(0)
    for (const [name, def] of Object.entries(desc.fields as Record<string, FieldDef>)) {
      const column = results.find((r) => r.name === name)
      if (!def.sort || !column || name === desc.key) continue
      expect(Boolean(def.nullable), `${desc.table}.${name}`).toBe(column.not_null === 0 && column.pk === 0)
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
