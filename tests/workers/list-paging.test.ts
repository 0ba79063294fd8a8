import { env } from 'cloudflare:test'
import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import { COUNT_CAP, CURSOR_MAX, ListQuery, type ListPage } from '#shared/schemas/common'
import { defineEntity } from '#shared/schemas/entity'
import { userEntity } from '#shared/schemas/user'
import { SORT_FROM_INDEX_MAX } from '../../worker/db/list-query'
import { listRows } from '../../worker/lib/entity'
import { DEMO, api, call, consoleSignIn, expectEnvelope, signIn } from './helpers'

/**
 * Cursor paging and the capped count of the list machinery (worker/lib/entity.ts listRows, worker/db/list-query.ts),
 * on a table of its own: names with ties and NULLs, so every order has equal values and NULLs to cross.
 */
type Probe = { id: string; realm: string; name: string | null; n: number }
const probe = defineEntity<Probe>({
  name: 'paging_probe',
  table: 'paging_probe',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', sort: true, list: true },
    realm: { type: 'text', list: true },
    name: { type: 'text', sort: true, list: true, search: true, nullable: true },
    n: { type: 'int', sort: true, list: true },
  },
  defaultOrder: 'id',
})
const scope = { where: 'realm = ?', params: ['p'] }
const ROWS = 53
const query = (q: Record<string, string | number>) => v.parse(ListQuery, Object.fromEntries(Object.entries(q).map(([k, x]) => [k, String(x)])))
const ids = (page: ListPage<Probe>) => page.items.map((r) => r.id)

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare('CREATE TABLE IF NOT EXISTS paging_probe (realm TEXT NOT NULL, id TEXT NOT NULL, name TEXT, n INTEGER NOT NULL, PRIMARY KEY (realm, id))'),
    env.DB.prepare('CREATE INDEX IF NOT EXISTS paging_probe_name ON paging_probe (realm, name, id)'),
    env.DB.prepare('CREATE INDEX IF NOT EXISTS paging_probe_n ON paging_probe (realm, n, id)'),
    // Names repeat every 7 rows and every fifth row has none; n repeats every 4: ties and NULLs in every order.
    env.DB.prepare(
      `INSERT INTO paging_probe (realm, id, name, n)
       WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${ROWS})
       SELECT 'p', printf('r%03d', i), CASE WHEN i % 5 = 0 THEN NULL ELSE 'name ' || (i % 7) END, i % 4 FROM s`,
    ),
    // Rows of another realm never show.
    env.DB.prepare(`INSERT INTO paging_probe (realm, id, name, n) VALUES ('other', 'r001', 'name 1', 1)`),
  ])
})

describe('cursor paging reads the same rows as offset paging, in every order, both ways', () => {
  for (const order of ['id', '-id', 'name', '-name', 'n', '-n']) {
    it(`order ${order}`, async () => {
      const all = ids(await listRows(env.DB, probe, scope, query({ order, limit: 1000 })))
      expect(all).toHaveLength(ROWS)
      // Forwards: first page, then `next` until it is null.
      const forwards: string[] = []
      let page = await listRows(env.DB, probe, scope, query({ order, limit: 10 }))
      expect(page.prev).toBeNull()
      for (;;) {
        forwards.push(...ids(page))
        if (!page.next) break
        page = await listRows(env.DB, probe, scope, query({ order, limit: 10, after: page.next }))
        expect(page.prev).not.toBeNull()
      }
      expect(forwards).toEqual(all)
      // Backwards: the last page (the order reversed), then `prev` until it is null.
      const backwards: string[][] = []
      page = await listRows(env.DB, probe, scope, query({ order, limit: 10, last: 1 }))
      expect(page.next).toBeNull()
      expect(page.offset).toBe(ROWS - 10)
      for (;;) {
        backwards.unshift(ids(page))
        if (!page.prev) break
        page = await listRows(env.DB, probe, scope, query({ order, limit: 10, before: page.prev }))
        expect(page.next).not.toBeNull()
      }
      expect(backwards.flat()).toEqual(all)
      expect(backwards[0]).toHaveLength(3)
    })
  }

  it('offset paging answers cursors too, and a search pages the same way', async () => {
    const page = await listRows(env.DB, probe, scope, query({ order: 'name', limit: 10, offset: 20 }))
    const after = await listRows(env.DB, probe, scope, query({ order: 'name', limit: 10, after: page.next! }))
    const byOffset = await listRows(env.DB, probe, scope, query({ order: 'name', limit: 10, offset: 30 }))
    expect(ids(after)).toEqual(ids(byOffset))
    const before = await listRows(env.DB, probe, scope, query({ order: 'name', limit: 10, before: page.prev! }))
    expect(ids(before)).toEqual(ids(await listRows(env.DB, probe, scope, query({ order: 'name', limit: 10, offset: 10 }))))
    const found = await listRows(env.DB, probe, scope, query({ like: 'name 3', order: '-id', limit: 3 }))
    const rest = await listRows(env.DB, probe, scope, query({ like: 'name 3', order: '-id', limit: 3, after: found.next! }))
    const every = await listRows(env.DB, probe, scope, query({ like: 'name 3', order: '-id', limit: 100 }))
    expect([...ids(found), ...ids(rest)]).toEqual(ids(every).slice(0, 6))
    expect(found.total).toBe(every.items.length)
  })

  it('refuses a cursor it did not make, or one made for another order (400, field named)', async () => {
    const page = await listRows(env.DB, probe, scope, query({ order: 'name', limit: 10 }))
    for (const [q, field] of [
      [{ order: '-name', after: page.next! }, 'after'],
      [{ order: 'name', before: 'not-a-cursor' }, 'before'],
      [{ order: 'name', after: btoa('[1,2]') }, 'after'],
    ] as const) {
      await expect(listRows(env.DB, probe, scope, query({ limit: 10, ...q }))).rejects.toMatchObject({ status: 400, errors: [{ field, cause: 'invalid' }] })
    }
  })
})

describe('a sort value too long for a cursor', () => {
  it('answers no cursors, so the client pages by offset', async () => {
    const long = 'x'.repeat(CURSOR_MAX)
    await env.DB.prepare(`INSERT INTO paging_probe (realm, id, name, n) VALUES ('long', 'a', ?1, 1), ('long', 'b', ?1 || 'y', 2)`).bind(long).run()
    const page = await listRows(env.DB, probe, { where: 'realm = ?', params: ['long'] }, query({ order: 'name', limit: 1 }))
    expect(page.items.map((r) => r.id)).toEqual(['a'])
    expect(page.next).toBeUndefined()
    expect(page.prev).toBeUndefined()
    const second = await listRows(env.DB, probe, { where: 'realm = ?', params: ['long'] }, query({ order: 'name', limit: 1, offset: 1 }))
    expect(second.items.map((r) => r.id)).toEqual(['b'])
  })
})

describe('the count stops at COUNT_CAP', () => {
  it('answers an exact total below it and total_capped above it; the last page stays reachable', async () => {
    await env.DB.prepare(
      `INSERT INTO paging_probe (realm, id, name, n)
       WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${COUNT_CAP + 5})
       SELECT 'big', printf('b%06d', i), 'big ' || i, i FROM s`,
    ).run()
    const big = { where: 'realm = ?', params: ['big'] }
    const first = await listRows(env.DB, probe, big, query({ limit: 25 }))
    expect(first).toMatchObject({ total: COUNT_CAP, total_capped: true })
    const exact = await listRows(env.DB, probe, scope, query({ limit: 25 }))
    expect(exact).toMatchObject({ total: ROWS, total_capped: false })
    const last = await listRows(env.DB, probe, big, query({ limit: 25, last: 1 }))
    expect(last.items.at(-1)?.id).toBe(`b${String(COUNT_CAP + 5).padStart(6, '0')}`)
    expect(last.next).toBeNull()
  })
})

describe('the user list search (full-text index)', () => {
  it('pages the same whether the search matches few rows (read from the index) or many (the sort index walked)', async () => {
    // SORT_FROM_INDEX_MAX + 40 users whose names share a word, and 30 with a rarer one.
    await env.DB.prepare(
      `INSERT INTO user (realm, nick, name, email, origin_realm)
       WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${SORT_FROM_INDEX_MAX + 70})
       SELECT 'demo', printf('pg%05d', i), CASE WHEN i <= 30 THEN 'Rarissimo ' || i ELSE 'Comunzinho ' || i END, '', 'demo' FROM s`,
    ).run()
    const demo = { where: 'realm = ?', params: ['demo'] }
    for (const [like, matches] of [
      ['rarissimo', 30],
      ['comunzinho', SORT_FROM_INDEX_MAX + 40],
    ] as const) {
      for (const order of ['name', '-nick']) {
        const page = await listRows(env.DB, userEntity, demo, query({ like, order, limit: 25 }))
        expect(page.total).toBe(matches)
        const next = await listRows(env.DB, userEntity, demo, query({ like, order, limit: 25, after: page.next! }))
        const byOffset = await listRows(env.DB, userEntity, demo, query({ like, order, limit: 50 }))
        expect([...page.items, ...next.items].map((u) => u.nick)).toEqual(byOffset.items.map((u) => u.nick))
        // SQLite's order (BINARY collation): code-unit comparison, as JavaScript's < does.
        const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
        const sorted = [...byOffset.items].sort((a, b) => (order === 'name' ? cmp(a.name, b.name) || cmp(a.nick, b.nick) : cmp(b.nick, a.nick)))
        expect(byOffset.items.map((u) => u.nick)).toEqual(sorted.map((u) => u.nick))
      }
    }
  })

  it("reads rows for one of its two pages only: a rare word does not walk the realm's sort index", async () => {
    // SORT_FROM_INDEX_MAX + 100 users share a word, 20 hold a rare one.
    await env.DB.prepare(
      `INSERT INTO user (realm, nick, name, email, origin_realm)
       WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${SORT_FROM_INDEX_MAX + 120})
       SELECT 'demo', printf('rw%05d', i), CASE WHEN i <= 20 THEN 'Quimerica ' || i ELSE 'Ordinaria ' || i END, '', 'demo' FROM s`,
    ).run()
    const reads: number[][] = []
    const db = new Proxy(env.DB, {
      get: (target, name) =>
        name === 'batch'
          ? async (statements: D1PreparedStatement[]) => {
              const results = await target.batch(statements)
              reads.push(results.map((r) => r.meta.rows_read))
              return results
            }
          : (Reflect.get(target, name) as unknown as (...args: unknown[]) => unknown).bind(target),
    })
    const demo = { where: 'realm = ?', params: ['demo'] }
    const rare = await listRows(db, userEntity, demo, query({ like: 'quimerica', limit: 25 }))
    const common = await listRows(db, userEntity, demo, query({ like: 'ordinaria', limit: 25 }))
    expect([rare.total, common.total]).toEqual([20, SORT_FROM_INDEX_MAX + 100])
    // D1's rows read per statement: [page from the index, page walking the sort index, count]. The page not chosen
    // reads only what its guard counts (the matches, up to SORT_FROM_INDEX_MAX + 1): the rare word's sort-index page
    // read all 1,100 users of the realm when the guard was a WHERE term, and the common word's index page 2,001 rows.
    expect(reads).toHaveLength(2)
    expect(reads[0][1], JSON.stringify(reads)).toBeLessThanOrEqual(2 * 20)
    expect(reads[1][0], JSON.stringify(reads)).toBeLessThanOrEqual(SORT_FROM_INDEX_MAX + 1)
  })

  it('answers each user with their roles, and a bad cursor with the error envelope', async () => {
    const token = await signIn(DEMO, 'demo', 'root')
    const page = (await (await api(DEMO, 'mas/user?like=root&limit=5', { token })).json()) as ListPage<{ nick: string; roles: string[] }>
    expect(page.items.length, JSON.stringify(page)).toBeGreaterThan(0)
    expect(page.items.find((u) => u.nick.startsWith('root'))?.roles, JSON.stringify(page)).toContain('root')
    const envelope = await expectEnvelope(await api(DEMO, 'mas/user?after=xyz', { token }), 400, 'invalid')
    expect(envelope.errors[0]).toMatchObject({ field: 'after', message: 'validation.cursor' })
  })
})

describe('a console list page whose cursor no longer fits (an old bookmark, a hand-edited URL)', () => {
  it('goes to the list’s first page, keeping its search and order, instead of the error state', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const stale = await call(DEMO, '/user?order=name&like=demo&after=not-a-cursor&offset=25', { headers: { cookie }, redirect: 'manual' })
    expect(stale.status).toBe(302)
    expect(stale.headers.get('location')).toBe('/user?order=name&like=demo')
    const first = await call(DEMO, stale.headers.get('location')!, { headers: { cookie } })
    expect(first.status).toBe(200)
  })
})
