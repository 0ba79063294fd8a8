import { env } from 'cloudflare:test'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ListQuery } from '#shared/schemas/common'
import { studentTasks } from '../../worker/db/answer'
import { STUDENT_FILTERS, answerEntity } from '../../worker/lib/answer-schemas'
import { filterScope, listRows } from '../../worker/lib/entity'
import { analyticsTab, categoryRooms, filterOptions, rollupDay, roomInRealms, sessionReport, watchVolumeExceeded } from '../../worker/db/analytics'
import { ANALYTICS_TABS, SESSION_REPORTS } from '#shared/schemas/analytics'
import { goalGrantsByRoom, recomputeStudent, studentAwards } from '../../worker/db/achievement'
import { studentTracks, trackExists, trackRoomsProgress } from '../../worker/db/track-progress'
import { usage } from '../../worker/db/tms'

/** A D1 stand-in that keeps the statements listRows sends instead of running them. */
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

/** Plan lines that read every row of a table (not an index, a subquery, a view's co-routine or json_each). */
async function fullScans(sql: string, params: unknown[]) {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>()
  const details = results.map((r) => r.detail)
  const coroutines = new Set(details.flatMap((d) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(d)?.[1] ?? []))
  return {
    scans: details.filter(
      (d) => /^SCAN /.test(d) && !coroutines.has(d.split(' ')[1]) && !/USING (COVERING )?INDEX|VIRTUAL TABLE|json_each|subquery|CONSTANT ROW/.test(d),
    ),
    details,
  }
}

/** The teachers' answer list (issue 17) under each of its filters and orders: every query reads through an index. */
const CASES: [string, Record<string, string>][] = [
  ['default order', {}],
  ['last page', { last: '1' }],
  ['order updated_at', { order: 'updated_at' }],
  ['order -delivered_at', { order: '-delivered_at' }],
  ['task', { task_id: 'sample' }],
  ['room', { room_id: 'sample' }],
  ['student', { nick: 'sample' }],
  ['status', { status: 'submitted' }],
  ['delivery', { delivery: 'delayed' }],
  ['delivered dates', { delivered_at_from: '2026-01-01', delivered_at_to: '2026-12-31' }],
  ['search', { like: 'amostra' }],
  ['task and status', { task_id: 'sample', status: 'submitted' }],
]

describe('the answer list uses an index for every filter and order (EXPLAIN QUERY PLAN)', () => {
  it.each(CASES)('%s', async (_, query) => {
    const { db, sent } = capture()
    await listRows(db, answerEntity, { where: 'realm = ?', params: ['demo'] }, v.parse(ListQuery, { limit: '25', ...query }), filterScope(answerEntity, query))
    expect(sent.length).toBeGreaterThan(0)
    for (const { sql, params } of sent) {
      const { scans, details } = await fullScans(sql, params)
      expect(scans, `${sql}\n${details.join('\n')}`).toEqual([])
    }
  })
})

describe('the student’s task list reads the realm’s tasks through indexes under every filter', () => {
  it.each(STUDENT_FILTERS.map((f) => [f]))('%s', async (filter) => {
    const { db, sent } = capture()
    await studentTasks(db, 'demo', 'someone@demo', filter, 25, 0)
    expect(sent).toHaveLength(2)
    for (const { sql, params } of sent) {
      const { scans, details } = await fullScans(sql, params)
      expect(scans, `${sql}\n${details.join('\n')}`).toEqual([])
    }
  })
})

/** A D1 stand-in that keeps every statement sent (prepared, batched or run) and answers the rows `rows` gives (none by default). */
function recorder(rows: (sql: string) => Record<string, unknown>[] = () => []) {
  const sent: { sql: string; params: unknown[] }[] = []
  const statement = (sql: string, params: unknown[] = []) => ({
    sql,
    params,
    bind: (...p: unknown[]) => statement(sql, p),
    first: async () => (sent.push({ sql, params }), rows(sql)[0] ?? null),
    all: async () => (sent.push({ sql, params }), { results: rows(sql) }),
    run: async () => (sent.push({ sql, params }), { results: [] }),
  })
  const db = {
    prepare: (sql: string) => statement(sql),
    batch: async (stmts: { sql: string; params: unknown[] }[]) => (
      sent.push(...stmts.map(({ sql, params }) => ({ sql, params }))),
      stmts.map(() => ({ results: [] }))
    ),
  } as unknown as D1Database
  return { db, sent }
}

/** The rollups' reads go the cheap way: given rooms by the primary key, every room's rows of one metric by the metric-first covering indexes. */
describe('analytics rollup reads pick their index', () => {
  it('reads the realm total by room and the per-room essay errors by metric', async () => {
    const { db, sent } = recorder()
    await analyticsTab(db, { realms: ['demo'], rooms: null, timeZone: 'America/Sao_Paulo' }, 'activity', {
      period: 'month',
      start_at: '2026-01-05',
      end_at: '2026-03-20',
    })
    const plan = async (marker: string) => {
      const found = sent.filter((s) => s.sql.includes(marker))
      expect(found).toHaveLength(1)
      return (await fullScans(found[0].sql, found[0].params)).details.join('\n')
    }
    const perRoom = await plan('CROSS JOIN analytics_daily')
    expect(perRoom).toMatch(/SEARCH d USING COVERING INDEX analytics_daily_metric \(realm=\? AND metric=\? AND day>\? AND day<\?\)/)
    expect(perRoom).toMatch(/SEARCH m USING COVERING INDEX analytics_monthly_metric \(realm=\? AND metric=\? AND month=\?\)/)
    expect(perRoom).toMatch(/SEARCH y USING COVERING INDEX analytics_yearly_metric \(realm=\? AND metric=\? AND year=\?\)/)
    const total = await plan('substr(day, 1, ?9)')
    expect(total).toMatch(/analytics_daily USING PRIMARY KEY \(realm=\? AND room_id=\? AND day>\? AND day<\?\)/)
    expect(total).toMatch(/analytics_monthly USING PRIMARY KEY \(realm=\? AND room_id=\? AND month=\?\)/)
  })
})

/** Analytics (issue 19): the rollup of a day, every tab (rollups and today's base tables) and every session report read through indexes. */
describe('analytics queries use an index or a rollup (EXPLAIN QUERY PLAN)', () => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())
  const period = { period: 'day' as const, start_at: today, end_at: today }
  const cases: [string, (db: D1Database) => Promise<unknown>][] = [
    ['rollup of a day', (db) => rollupDay(db, 'demo', 'America/Sao_Paulo', '2026-03-10')],
    ...ANALYTICS_TABS.flatMap((tab): [string, (db: D1Database) => Promise<unknown>][] => [
      [`${tab} tab`, (db) => analyticsTab(db, { realms: ['demo'], rooms: null, timeZone: 'America/Sao_Paulo' }, tab, period)],
      [
        `${tab} tab by room, by month`,
        (db) => analyticsTab(db, { realms: ['demo'], rooms: ['r1'], timeZone: 'America/Sao_Paulo' }, tab, { ...period, period: 'month' }),
      ],
    ]),
    ...SESSION_REPORTS.map((r): [string, (db: D1Database) => Promise<unknown>] => [
      `session report ${r}`,
      (db) => sessionReport(db, { realms: ['demo'], rooms: r === 'room_ranking' ? ['r1'] : null, timeZone: 'America/Sao_Paulo', nick: 'student' }, r, period),
    ]),
    [
      'activity tab over a year (month rows and edge days)',
      (db) =>
        analyticsTab(db, { realms: ['demo'], rooms: null, timeZone: 'America/Sao_Paulo' }, 'activity', {
          period: 'year',
          start_at: '2025-11-26',
          end_at: today,
        }),
    ],
    ['high-volume check', (db) => watchVolumeExceeded(db, ['demo'], '2026-01-01', '2026-02-01', 10)],
    ['filters', (db) => Promise.all([filterOptions(db, ['demo']), categoryRooms(db, ['demo'], 'c1'), roomInRealms(db, ['demo'], 'r1')])],
  ]
  it.each(cases)('%s', async (_, run) => {
    const { db, sent } = recorder()
    await run(db)
    expect(sent.length).toBeGreaterThan(0)
    for (const { sql, params } of sent) {
      if (/^\s*(INSERT|DELETE)/.test(sql) && !/SELECT/.test(sql)) continue
      const { scans, details } = await fullScans(sql, params)
      expect(scans, `${sql}\n${details.join('\n')}`).toEqual([])
    }
  })
})

/**
 * Goals (issue 19): a student's recomputation after a correction (the goal's period, the rooms, the one activities
 * statement with the goal's activity and question categories, objectives, awards) and both award surfaces read
 * through indexes.
 */
describe('goal progress and award queries use an index (EXPLAIN QUERY PLAN)', () => {
  const period = {
    id: 'g1',
    targets: JSON.stringify([
      { kind: 'room', id: 'r1' },
      { kind: 'group', id: 'rg1' },
    ]),
    activity_categories: '["c1"]',
    question_categories: '["c2"]',
    objective_ids: '["o1"]',
    period_key: 'once',
    starts_on: '2026-01-01',
    ends_on: '2026-12-31',
  }
  const rows = (sql: string): Record<string, unknown>[] =>
    /FROM achievement_goal_period/.test(sql) ? [period] : /FROM room_member/.test(sql) ? [{ room_id: 'r1' }] : []
  const cases: [string, (db: D1Database) => Promise<unknown>][] = [
    ['recompute after a correction', (db) => recomputeStudent(db, 'demo', 'student', '2026-03-10')],
    ['the student’s awards', (db) => studentAwards(db, 'demo', 'student')],
    ['a goal’s grants per room', (db) => goalGrantsByRoom(db, 'demo', 'g1')],
  ]
  it.each(cases)('%s', async (_, run) => {
    const { db, sent } = recorder(rows)
    await run(db)
    expect(sent.length).toBeGreaterThan(0)
    for (const { sql, params } of sent) {
      const { scans, details } = await fullScans(sql, params)
      expect(scans, `${sql}\n${details.join('\n')}`).toEqual([])
    }
  })
})

describe('a room’s track progress reads through indexes (issue 19)', () => {
  const cases: [string, (db: D1Database) => Promise<unknown>][] = [
    ['the rooms following a track and one room’s progress', (db) => trackRoomsProgress(db, 'demo', 'tr-demo-reading', 'r1')],
    ['the student’s tracks', (db) => studentTracks(db, 'demo', 'student')],
    ['a track exists', (db) => trackExists(db, 'demo', 'tr-demo-reading')],
    // The stand-in answers no count row: only the statement sent matters here.
    ['the rooms following a track (in use)', (db) => usage(db, 'demo', 'track', 'tr-demo-reading').catch(() => 0)],
  ]
  it.each(cases)('%s', async (_, run) => {
    const { db, sent } = recorder()
    await run(db)
    expect(sent.length).toBeGreaterThan(0)
    for (const { sql, params } of sent) {
      const { scans, details } = await fullScans(sql, params)
      expect(scans, `${sql}\n${details.join('\n')}`).toEqual([])
      // Publications by model and completions by publication: never a realm-wide range of dates or states.
      expect(
        details.filter((d) => /\(realm=\? AND (publish_at|status)\b|(tms_task|lesson_lesson|survey_survey)\w* \(realm=\?\)/.test(d)),
        details.join('\n'),
      ).toEqual([])
    }
  })
})
