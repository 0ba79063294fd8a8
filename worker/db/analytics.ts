import { periodsOf, type Granularity, type ReportRow } from '#shared/schemas/ledger-report'
import { ERROR_CATEGORIES, type AnalyticsAnswer, type AnalyticsSection, type AnalyticsTab } from '#shared/schemas/analytics'
import { SLOT_SECONDS, VIDEO_OF } from './csm-watch'
import { seriesStatement, tzOffsetMinutes } from './ledger-report'

/**
 * Analytics (issue 19, migration 0065). Each day of a realm (its calendar) is summed into `analytics_daily` rows by
 * `rollupDay` (the scheduled job; idempotent: the day is deleted and written again in one batch); the current day
 * is computed from the same statements over the indexed base tables at query time. A row is (room, metric, dim,
 * value); the realm's total of a metric is the room '*'.
 */

/** The UTC instants of a span of days of the realm's calendar ("YYYY-MM-DD" both ends, inclusive). */
export function dayWindow(timeZone: string, first: string, last = first): { from: string; to: string } {
  const offset = tzOffsetMinutes(timeZone, new Date(`${first}T12:00:00Z`))
  const shift = (iso: string) => new Date(new Date(iso).getTime() - offset * 60000).toISOString()
  return { from: shift(`${first}T00:00:00.000Z`), to: shift(`${last}T23:59:59.999Z`) }
}

/** Today in a time zone (YYYY-MM-DD). */
export function todayIn(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

const BUCKET = `(CASE WHEN s.watch_bucket > 0 THEN s.watch_bucket ELSE 30 END)`

/**
 * A day's figures, one statement per source table; ?1 realm, ?2 from, ?3 to. Each row: room_id, dim and metric
 * columns (every other column is a metric). A statement that gives the realm's total itself answers room '*'.
 */
const DAY_SQL: string[] = [
  `SELECT '*' AS room_id, '' AS dim, COUNT(*) AS signins, COUNT(DISTINCT nick) AS active_users
   FROM session WHERE realm = ?1 AND created_at >= ?2 AND created_at <= ?3`,
  `SELECT COALESCE(room_id, '') AS room_id, '' AS dim, COUNT(*) AS delivered, SUM(delivery = 'on_time') AS on_time, SUM(delivery = 'delayed') AS late
   FROM tms_answer WHERE realm = ?1 AND delivered_at >= ?2 AND delivered_at <= ?3 GROUP BY 1`,
  `SELECT COALESCE(room_id, '') AS room_id, '' AS dim, COUNT(*) AS opened
   FROM tms_answer_start WHERE realm = ?1 AND opened_at >= ?2 AND opened_at <= ?3 GROUP BY 1`,
  `SELECT COALESCE(tt.room_id, '') AS room_id, '' AS dim, COUNT(DISTINCT t.id) AS published
   FROM tms_task t LEFT JOIN tms_task_target tt ON tt.task_id = t.id
   WHERE t.realm = ?1 AND t.publish_at >= ?2 AND t.publish_at <= ?3 GROUP BY 1
   UNION ALL SELECT '*', '', COUNT(*) FROM tms_task WHERE realm = ?1 AND publish_at >= ?2 AND publish_at <= ?3`,
  `SELECT COALESCE(room_id, '') AS room_id, '' AS dim, COUNT(*) AS corrected
   FROM tms_answer WHERE realm = ?1 AND corrected_at >= ?2 AND corrected_at <= ?3 AND status = 'finished' GROUP BY 1`,
  `SELECT COALESCE(a.room_id, '') AS room_id, COALESCE(c.value, '') AS dim, COUNT(*) AS scored, SUM(a.score * 100.0 / a.max_score) AS score_sum
   FROM tms_answer a JOIN tms_task t ON t.id = a.task_id LEFT JOIN json_each(t.categories) c
   WHERE a.realm = ?1 AND a.corrected_at >= ?2 AND a.corrected_at <= ?3 AND a.status = 'finished' AND a.score IS NOT NULL AND a.max_score > 0
   GROUP BY 1, 2`,
  `SELECT COALESCE(a.room_id, '') AS room_id, g.key AS dim, COUNT(*) AS graded, SUM(g.value) AS grade_sum
   FROM tms_answer a, json_each(a.skill_grades) q, json_each(q.value) g
   WHERE a.realm = ?1 AND a.corrected_at >= ?2 AND a.corrected_at <= ?3 AND a.status = 'finished' GROUP BY 1, 2`,
  `SELECT COALESCE(a.room_id, '') AS room_id, m.value ->> 'category' AS dim, COUNT(*) AS essay_errors
   FROM tms_answer a, json_each(a.marks) q, json_each(q.value) m
   WHERE a.realm = ?1 AND a.corrected_at >= ?2 AND a.corrected_at <= ?3 AND a.status = 'finished' AND m.value ->> 'category' <> 'note' GROUP BY 1, 2`,
  `SELECT COALESCE(sr.room_id, '') AS room_id, '' AS dim, COUNT(*) AS sessions_held, SUM(s.live_seconds) AS live_seconds,
     SUM((SELECT COUNT(*) FROM json_each(s.live_durations))) AS attendance, SUM(s.chat_count) AS chat,
     SUM(s.hand_raise_count) AS hand_raises, SUM(s.attachment_count) AS attachments
   FROM csm_session s LEFT JOIN csm_session_room sr ON sr.session_id = s.id
   WHERE s.realm = ?1 AND s.started_at >= ?2 AND s.started_at <= ?3 AND s.recorded_in <> 'upload' GROUP BY 1`,
  `SELECT room_id, '' AS dim, COUNT(*) AS views, COUNT(DISTINCT session_id) AS sessions_watched, SUM(seconds) AS watched_seconds, SUM(duration) AS watchable_seconds
   FROM (SELECT w.session_id, COALESCE(sr.room_id, '') AS room_id, r.duration_seconds AS duration,
           SUM(${SLOT_SECONDS(BUCKET, 'r.duration_seconds', 'w.slot')}) AS seconds
         FROM csm_watch w JOIN csm_session s ON s.id = w.session_id AND s.realm = w.realm
           JOIN csm_recording r ON r.id = ${VIDEO_OF('s')} LEFT JOIN csm_session_room sr ON sr.session_id = s.id
         WHERE w.realm = ?1 AND w.watched_at >= ?2 AND w.watched_at <= ?3 GROUP BY w.session_id, w.nick)
   GROUP BY room_id`,
]

/** Metrics whose realm total is not the sum of its rooms (the statement answers '*' itself). */
const KEYS = new Set(['room_id', 'dim'])

export type DayRow = { room_id: string; metric: string; dim: string; value: number }

/** A day's rows of a realm from the base tables (with the realm's totals under room '*'). */
export async function computeDay(db: D1Database, realm: string, timeZone: string, day: string, wanted?: readonly string[]): Promise<DayRow[]> {
  const w = dayWindow(timeZone, day)
  const offset = tzOffsetMinutes(timeZone, new Date(`${day}T12:00:00Z`))
  // Only the statements that give a wanted metric (a tab reads a few of them; the rollup job all).
  const statements = DAY_SQL.filter((sql) => !wanted || [...sql.matchAll(/ AS (\w+)/g)].some((m) => wanted.includes(m[1])))
  const credits = !wanted || wanted.includes('credits_used')
  const results = await db.batch<Record<string, unknown>>([
    ...statements.map((sql) => db.prepare(sql).bind(realm, w.from, w.to)),
    // Credits used: the ledger's "consumed" series (the credits tab's own rule).
    ...(credits ? [seriesStatement(db, 'consumed', { realm, from: w.from, to: w.to, offset: `${offset} minutes`, format: '%Y-%m-%d' })] : []),
  ])
  const rows: DayRow[] = []
  for (const r of results.slice(0, statements.length)) {
    for (const row of r.results) {
      for (const [metric, value] of Object.entries(row)) {
        if (KEYS.has(metric) || !Number(value)) continue
        rows.push({ room_id: String(row.room_id), metric, dim: String(row.dim ?? ''), value: Number(value) })
      }
    }
  }
  const used = credits ? results[statements.length].results.reduce((n, r) => n + Number(r.points ?? 0), 0) : 0
  if (used) rows.push({ room_id: '*', metric: 'credits_used', dim: '', value: used })
  // The realm's totals of metrics counted per room.
  const own = new Set(rows.filter((r) => r.room_id === '*').map((r) => r.metric))
  const totals = new Map<string, DayRow>()
  for (const r of rows) {
    if (r.room_id === '*' || own.has(r.metric)) continue
    const key = `${r.metric}\u0000${r.dim}`
    const t = totals.get(key) ?? { room_id: '*', metric: r.metric, dim: r.dim, value: 0 }
    t.value += r.value
    totals.set(key, t)
  }
  return [...rows, ...totals.values()]
}

/** The month and the year of a day, and their windows (for their distinct active users). */
function enclosing(day: string): { key: string; first: string; last: string }[] {
  const [y, m] = day.split('-').map(Number)
  const lastOfMonth = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)
  return [
    { key: day.slice(0, 7), first: `${day.slice(0, 7)}-01`, last: lastOfMonth },
    { key: day.slice(0, 4), first: `${y}-01-01`, last: `${y}-12-31` },
  ]
}

/**
 * Rolls up one day of a realm: its rows are replaced whole (so a second run writes the same rows), the distinct
 * active users of its month and year are counted again, and the day is marked computed. One batch (atomic in D1).
 */
export async function rollupDay(db: D1Database, realm: string, timeZone: string, day: string, now = new Date().toISOString()): Promise<void> {
  const rows = await computeDay(db, realm, timeZone, day)
  const [month, year] = enclosing(day)
  const periods = enclosing(day).map((p) => ({ key: p.key, ...dayWindow(timeZone, p.first, p.last) }))
  await db.batch([
    db.prepare('DELETE FROM analytics_daily WHERE realm = ? AND day = ?').bind(realm, day),
    db
      .prepare(
        `INSERT INTO analytics_daily (realm, room_id, day, metric, dim, value)
         SELECT ?1, j.value ->> '$.room_id', ?2, j.value ->> '$.metric', j.value ->> '$.dim', j.value ->> '$.value' FROM json_each(?3) j`,
      )
      .bind(realm, day, JSON.stringify(rows)),
    ...periods.map((p) =>
      db
        .prepare(
          `INSERT OR REPLACE INTO analytics_daily (realm, room_id, day, metric, dim, value)
           SELECT ?1, '*', ?2, 'active_users', '', COUNT(DISTINCT nick) FROM session WHERE realm = ?1 AND created_at >= ?3 AND created_at <= ?4`,
        )
        .bind(realm, p.key, p.from, p.to),
    ),
    // The day's month summed again from its day rows (so it always equals the sum of its days).
    db.prepare('DELETE FROM analytics_monthly WHERE realm = ? AND month = ?').bind(realm, month.key),
    db
      .prepare(
        `INSERT INTO analytics_monthly (realm, room_id, month, metric, dim, value)
         SELECT ?1, room_id, ?2, metric, dim, SUM(value) FROM analytics_daily
         WHERE realm = ?1 AND day >= ?3 AND day <= ?4 AND length(day) = 10 GROUP BY room_id, metric, dim`,
      )
      .bind(realm, month.key, month.first, month.last),
    // And the day's year from its month rows (so it always equals the sum of its days too).
    db.prepare('DELETE FROM analytics_yearly WHERE realm = ? AND year = ?').bind(realm, year.key),
    db
      .prepare(
        `INSERT INTO analytics_yearly (realm, room_id, year, metric, dim, value)
         SELECT ?1, room_id, ?2, metric, dim, SUM(value) FROM analytics_monthly
         WHERE realm = ?1 AND month >= ?3 AND month <= ?4 GROUP BY room_id, metric, dim`,
      )
      .bind(realm, year.key, `${year.key}-01`, `${year.key}-12`),
    db.prepare('INSERT OR REPLACE INTO analytics_rollup (realm, day, computed_at) VALUES (?, ?, ?)').bind(realm, day, now),
  ])
}

/** Days from `first` to `last` inclusive (YYYY-MM-DD). */
export const daysOf = (first: string, last: string) => (first > last ? [] : periodsOf('day', first, last))

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/** How many missing past days a query computes itself before it calls the rest "data unavailable". */
export const LAZY_DAYS = 7

/**
 * The past days of the range (from the realm's creation, before today) not rolled up yet; up to LAZY_DAYS of them
 * are rolled up now, the count of the rest is returned.
 */
async function ensureRollups(db: D1Database, realm: string, timeZone: string, first: string, last: string, today: string): Promise<number> {
  const end = last < today ? last : addDays(today, -1)
  const created = await db.prepare('SELECT created_at FROM realm WHERE code = ?').bind(realm).first<{ created_at: string }>()
  const born = created ? todayIn(timeZone, new Date(created.created_at)) : first
  const start = first > born ? first : born
  if (start > end) return 0
  const { results } = await db
    .prepare('SELECT day FROM analytics_rollup WHERE realm = ? AND day >= ? AND day <= ?')
    .bind(realm, start, end)
    .all<{ day: string }>()
  const done = new Set(results.map((r) => r.day))
  const missing = daysOf(start, end).filter((d) => !done.has(d))
  for (const day of missing.slice(0, LAZY_DAYS)) await rollupDay(db, realm, timeZone, day)
  return Math.max(0, missing.length - LAZY_DAYS)
}

/** The scheduled job: every live realm's yesterday and today so far, and up to LAZY_DAYS missing days of the last month. */
export async function rollupRealms(db: D1Database, now = new Date()): Promise<number> {
  const { results } = await db.prepare('SELECT code, time_zone FROM realm WHERE deleted_at IS NULL').all<{ code: string; time_zone: string }>()
  let days = 0
  for (const r of results) {
    const tz = r.time_zone || 'America/Sao_Paulo'
    const today = todayIn(tz, now)
    await rollupDay(db, r.code, tz, addDays(today, -1))
    await ensureRollups(db, r.code, tz, addDays(today, -31), addDays(today, -1), today)
    days++
  }
  return days
}

export interface AnalyticsScope {
  realms: string[]
  /** Room ids to count, or null for the realms' totals. */
  rooms: string[] | null
  timeZone: string
}

/** Metrics kept per second key (task category, skill, error category). */
export const DIM_METRICS = new Set(['scored', 'score_sum', 'graded', 'grade_sum', 'essay_errors'])

/** Metrics the activity tab shows per room (counts: read by `signedSplit`'s parts, which subtract). */
const PER_ROOM = new Set(['essay_errors'])

const bucketOf = (period: Granularity, day: string) => (period === 'day' ? day : period === 'month' ? day.slice(0, 7) : day.slice(0, 4))

/**
 * A range split for reading: the whole months before today's month (the monthly rollup) and the days at its edges
 * (the daily rollup), each edge an inclusive [first, last] span of days or null.
 */
export function splitRange(first: string, last: string, today: string): { months: string[]; head: [string, string] | null; tail: [string, string] | null } {
  const months: string[] = []
  for (let m = first.slice(0, 7); m <= last.slice(0, 7); m = addDays(`${m}-28`, 4).slice(0, 7)) {
    const end = enclosing(`${m}-01`)[0].last
    if (`${m}-01` >= first && end <= last && end < today) months.push(m)
  }
  if (!months.length) return { months, head: [first, last], tail: null }
  const from = `${months[0]}-01`
  const to = enclosing(`${months[months.length - 1]}-01`)[0].last
  return { months, head: first < from ? [first, addDays(from, -1)] : null, tail: to < last ? [addDays(to, 1), last] : null }
}

/** Days from `first` to `last` inclusive, counted (0 when `first` is after `last`). */
const dayCount = (first: string, last: string) => (first > last ? 0 : Math.round((Date.parse(last) - Date.parse(first)) / 86_400_000) + 1)

/** A range's signed parts: year rows, month rows and day spans, each added (+1) or subtracted (-1). */
export interface SignedParts {
  years: [string, 1 | -1][]
  months: [string, 1 | -1][]
  spans: [string, string, 1 | -1][]
}

const noParts = (): SignedParts => ({ years: [], months: [], spans: [] })

/**
 * The months of [first, last] (inside one year) as signed parts, appended to `out` with `sign`; returns how many
 * stored rows per key they read (a month row 1 if the month has begun, a day 1 if it is before today). A month partly
 * in the span is read as its days in it, or as its month row minus its days outside it, whichever reads fewer.
 */
function monthParts(first: string, last: string, today: string, sign: 1 | -1, out: SignedParts): number {
  const yesterday = addDays(today, -1)
  const stored = (a: string, b: string) => dayCount(a, b < yesterday ? b : yesterday)
  let cost = 0
  for (let m = first.slice(0, 7); m <= last.slice(0, 7); m = addDays(`${m}-28`, 4).slice(0, 7)) {
    const { first: start, last: end } = enclosing(`${m}-01`)[0]
    const a = first > start ? first : start
    const b = last < end ? last : end
    const outside: [string, string][] = [
      ...(a > start ? [[start, addDays(a, -1)] as [string, string]] : []),
      ...(b < end ? [[addDays(b, 1), end] as [string, string]] : []),
    ]
    const whole = (start <= yesterday ? 1 : 0) + outside.reduce((n, [x, y]) => n + stored(x, y), 0)
    const direct = stored(a, b)
    if (whole < direct) {
      out.months.push([m, sign])
      for (const [x, y] of outside) out.spans.push([x, y, sign === 1 ? -1 : 1])
    } else out.spans.push([a, b, sign])
    cost += Math.min(whole, direct)
  }
  return cost
}

/**
 * A range as signed parts, for sums of counts (exact in any order). Each calendar year is read as its months and days
 * in the range (`monthParts`), or as its year row minus its months and days outside the range, whichever reads fewer
 * stored rows; rows of a period are always the sum of its days so far (`rollupDay` writes the day, its month and its
 * year in one batch), the current month's and year's too, and today is never a day row. So a range ending today
 * reads the current month (or year) as one row, and a year as a few rows per key instead of a row per day.
 */
export function signedSplit(first: string, last: string, today: string): SignedParts {
  const parts = noParts()
  for (let y = Number(first.slice(0, 4)); y <= Number(last.slice(0, 4)); y++) {
    const start = `${y}-01-01`
    const end = `${y}-12-31`
    const a = first > start ? first : start
    const b = last < end ? last : end
    const direct = noParts()
    const directCost = monthParts(a, b, today, 1, direct)
    const whole = noParts()
    const wholeCost =
      (start < today ? 1 : 0) +
      (a > start ? monthParts(start, addDays(a, -1), today, -1, whole) : 0) +
      (b < end ? monthParts(addDays(b, 1), end, today, -1, whole) : 0)
    const pick = wholeCost < directCost ? whole : direct
    if (pick === whole) parts.years.push([String(y), 1])
    parts.months.push(...pick.months)
    parts.spans.push(...pick.spans)
  }
  return parts
}

/**
 * The per-room rows of a range (every room but the realm's total '*'), summed per (room, metric, dim) from
 * `signedSplit`'s parts; ?1 realms, ?2 metrics, ?3 signed day spans, ?4 the label, ?5 signed months, ?6 signed
 * years. Rooms whose sum is 0 are left out (as a read of the day rows, which are never 0, leaves them out).
 */
const PER_ROOM_SQL = `SELECT ?4 AS day, room_id, metric, dim, SUM(value) AS value FROM (
    SELECT d.room_id, d.metric, d.dim, d.value * (s.value ->> 2) AS value
    FROM json_each(?3) s CROSS JOIN analytics_daily d
    WHERE d.realm IN (SELECT value FROM json_each(?1)) AND d.metric IN (SELECT value FROM json_each(?2))
      AND d.day >= s.value ->> 0 AND d.day <= s.value ->> 1 AND length(d.day) = 10 AND d.room_id <> '*'
    UNION ALL SELECT m.room_id, m.metric, m.dim, m.value * (s.value ->> 1)
    FROM json_each(?5) s CROSS JOIN analytics_monthly m
    WHERE m.realm IN (SELECT value FROM json_each(?1)) AND m.metric IN (SELECT value FROM json_each(?2))
      AND m.month = s.value ->> 0 AND m.room_id <> '*'
    UNION ALL SELECT y.room_id, y.metric, y.dim, y.value * (s.value ->> 1)
    FROM json_each(?6) s CROSS JOIN analytics_yearly y
    WHERE y.realm IN (SELECT value FROM json_each(?1)) AND y.metric IN (SELECT value FROM json_each(?2))
      AND y.year = s.value ->> 0 AND y.room_id <> '*')
  GROUP BY room_id, metric, dim HAVING SUM(value) <> 0`

/**
 * Rollup rows of a range: day rows at its edges and month rows for whole months, summed per (label, room, metric, dim).
 * It reads given rooms (the realm's total '*', or a filter's rooms) by the primary key (realm, room_id, day): `+metric`
 * keeps SQLite off the metric-first indexes, which would visit every room's rows of each metric (the per-room read's
 * way, `PER_ROOM_SQL`).
 */
const ROLLUP_SQL = (label: string, rooms: string) => {
  const days = (a: number, b: number) =>
    `SELECT day, room_id, metric, dim, value FROM analytics_daily
     WHERE realm IN (SELECT value FROM json_each(?1)) AND ${rooms} AND day >= ?${a} AND day <= ?${b} AND length(day) = 10
       AND +metric IN (SELECT value FROM json_each(?8))`
  return `SELECT ${label} AS day, room_id, metric, dim, SUM(value) AS value FROM (
      ${days(3, 4)}
      UNION ALL ${days(5, 6)}
      UNION ALL SELECT month, room_id, metric, dim, value FROM analytics_monthly
        WHERE realm IN (SELECT value FROM json_each(?1)) AND ${rooms} AND month IN (SELECT value FROM json_each(?7))
          AND +metric IN (SELECT value FROM json_each(?8)))
    GROUP BY 1, room_id, metric, dim`
}

/** How old the cached "today so far" of a realm may be before a query counts today again from the base tables. */
export const TODAY_MAX_AGE_MS = 5 * 60_000

/**
 * Today's rows of a realm (with the realm's totals under room '*'): the cache `analytics_today` when it is of today
 * and younger than TODAY_MAX_AGE_MS, else counted from the base tables (every metric) and cached in one batch. The
 * cache is read for `metrics` only, and for the rooms `rooms` (all when null) plus every room of the `perRoom`
 * metrics; the rows counted afresh are all of them (the caller keeps what it reads).
 */
export async function todayRows(
  db: D1Database,
  realm: string,
  timeZone: string,
  today: string,
  metrics: string[],
  rooms: string[] | null = null,
  perRoom: string[] = [],
  now = new Date(),
): Promise<DayRow[]> {
  const [at, cached] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT day, computed_at FROM analytics_today_at WHERE realm = ?').bind(realm),
    db
      .prepare(
        `SELECT room_id, metric, dim, value FROM analytics_today WHERE realm = ?1 AND metric IN (SELECT value FROM json_each(?2))
           AND (?3 IS NULL OR room_id IN (SELECT value FROM json_each(?3)) OR metric IN (SELECT value FROM json_each(?4)))`,
      )
      .bind(realm, JSON.stringify(metrics), rooms ? JSON.stringify(rooms) : null, JSON.stringify(perRoom)),
  ])
  const mark = at.results[0] as { day: string; computed_at: string } | undefined
  if (mark && mark.day === today && now.getTime() - new Date(mark.computed_at).getTime() < TODAY_MAX_AGE_MS) {
    return cached.results.map((r) => ({ room_id: String(r.room_id), metric: String(r.metric), dim: String(r.dim), value: Number(r.value) }))
  }
  const rows = await computeDay(db, realm, timeZone, today)
  await db.batch([
    db.prepare('DELETE FROM analytics_today WHERE realm = ?').bind(realm),
    db
      .prepare(
        `INSERT OR REPLACE INTO analytics_today (realm, room_id, metric, dim, value)
         SELECT ?1, j.value ->> '$.room_id', j.value ->> '$.metric', j.value ->> '$.dim', j.value ->> '$.value' FROM json_each(?2) j`,
      )
      .bind(realm, JSON.stringify(rows)),
    db.prepare('INSERT OR REPLACE INTO analytics_today_at (realm, day, computed_at) VALUES (?, ?, ?)').bind(realm, today, now.toISOString()),
  ])
  return rows
}

/**
 * The rows of a range: the monthly rollup for whole past months, the daily one for the other past days, today's
 * cache for today; summed per (day, metric, dim, room).
 */
async function readRange(
  db: D1Database,
  scope: AnalyticsScope,
  period: Granularity,
  first: string,
  last: string,
  metrics: string[],
): Promise<{ rows: (DayRow & { day: string })[]; unavailable: number }> {
  const today = todayIn(scope.timeZone)
  let unavailable = 0
  for (const realm of scope.realms) unavailable += await ensureRollups(db, realm, scope.timeZone, first, last, today)
  const rooms = scope.rooms ?? ['*']
  // Summed per period in SQL (a year by day is 365 rows per metric, by year one); a series by day reads days only.
  const cut = period === 'day' ? 10 : period === 'month' ? 7 : 4
  const split = splitRange(first, last, today)
  const params = (s: ReturnType<typeof splitRange>, rooms: string[] | null, wanted: string[], label: number | string) => [
    JSON.stringify(scope.realms),
    JSON.stringify(rooms ?? []),
    ...(s.head ?? ['1', '0']),
    ...(s.tail ?? ['1', '0']),
    JSON.stringify(s.months),
    JSON.stringify(wanted),
    label,
  ]
  const bySeries = period === 'day' ? { months: [], head: [first, last] as [string, string], tail: null } : split
  const { results } = await db
    .prepare(ROLLUP_SQL('substr(day, 1, ?9)', 'room_id IN (SELECT value FROM json_each(?2))'))
    .bind(...params(bySeries, rooms, metrics, cut))
    .all<DayRow & { day: string }>()
  // Metrics shown per room (essay errors) are read room by room even without a room filter, summed over the range.
  const perRoom = scope.rooms === null ? metrics.filter((m) => PER_ROOM.has(m)) : []
  const rows = results.filter((r) => !perRoom.includes(r.metric))
  if (perRoom.length) {
    // Counts (essay errors), so year and month rows minus what lies outside the range are exact: few rows for any range.
    const parts = signedSplit(first, last, today)
    const { results: roomRows } = await db
      .prepare(PER_ROOM_SQL)
      .bind(
        JSON.stringify(scope.realms),
        JSON.stringify(perRoom),
        JSON.stringify(parts.spans),
        first,
        JSON.stringify(parts.months),
        JSON.stringify(parts.years),
      )
      .all<DayRow & { day: string }>()
    for (const r of roomRows) rows.push(r)
  }
  if (first <= today && today <= last) {
    const wanted = new Set(rooms)
    for (const realm of scope.realms) {
      for (const r of await todayRows(db, realm, scope.timeZone, today, metrics, rooms, perRoom)) {
        if (!metrics.includes(r.metric)) continue
        if (perRoom.includes(r.metric) ? r.room_id !== '*' : wanted.has(r.room_id)) rows.push({ ...r, day: today })
      }
    }
  }
  return { rows, unavailable }
}

/** Distinct active users per month or year (the job's rows; the current period also counts today's). */
async function activePerPeriod(
  db: D1Database,
  scope: AnalyticsScope,
  period: Granularity,
  labels: string[],
  todayActive: number,
): Promise<Map<string, number>> {
  const { results } = await db
    .prepare(
      `SELECT day, SUM(value) AS value FROM analytics_daily
       WHERE realm IN (SELECT value FROM json_each(?1)) AND room_id = '*' AND day IN (SELECT value FROM json_each(?2)) AND metric = 'active_users' AND dim = ''
       GROUP BY day`,
    )
    .bind(JSON.stringify(scope.realms), JSON.stringify(labels))
    .all<{ day: string; value: number }>()
  const out = new Map(results.map((r) => [r.day, Number(r.value)]))
  const current = bucketOf(period, todayIn(scope.timeZone))
  if (labels.includes(current)) out.set(current, Math.max(out.get(current) ?? 0, todayActive))
  return out
}

/** The metrics each tab reads. */
export const TAB_METRICS: Record<AnalyticsTab, string[]> = {
  general: ['active_users', 'signins', 'delivered', 'sessions_held', 'views', 'credits_used'],
  activity: ['delivered', 'on_time', 'late', 'published', 'opened', 'corrected', 'scored', 'score_sum', 'graded', 'grade_sum', 'essay_errors'],
  session: [
    'sessions_held',
    'live_seconds',
    'attendance',
    'chat',
    'hand_raises',
    'attachments',
    'views',
    'sessions_watched',
    'watched_seconds',
    'watchable_seconds',
  ],
}

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places
const pct = (part: number, whole: number) => (whole > 0 ? round((part * 100) / whole) : 0)

/** Names of the things a ranking's rows are (rooms, task categories, skills), realm-scoped; one batch for all. */
async function namesOf(db: D1Database, realms: string[], wanted: ['room' | 'tms_category' | 'tms_assessed_skill', string[]][]): Promise<Map<string, string>[]> {
  const asked = wanted.filter(([, ids]) => ids.length)
  const results = asked.length
    ? await db.batch<{ id: string; name: string }>(
        asked.map(([table, ids]) =>
          db
            .prepare(`SELECT id, name FROM ${table} WHERE realm IN (SELECT value FROM json_each(?1)) AND id IN (SELECT value FROM json_each(?2))`)
            .bind(JSON.stringify(realms), JSON.stringify(ids.slice(0, 500))),
        ),
      )
    : []
  return wanted.map((w) => new Map((results[asked.indexOf(w)]?.results ?? []).map((r) => [r.id, r.name])))
}

/** One tab's figures over a range (validated by the caller), in the realm's calendar. */
export async function analyticsTab(
  db: D1Database,
  scope: AnalyticsScope,
  tab: AnalyticsTab,
  q: { period: Granularity; start_at: string; end_at: string },
): Promise<AnalyticsAnswer> {
  const { rows, unavailable } = await readRange(db, scope, q.period, q.start_at, q.end_at, TAB_METRICS[tab])
  const periods = periodsOf(q.period, q.start_at, q.end_at)
  // Sum of a metric per period (over rooms and dims).
  const perPeriod = new Map<string, Record<string, number>>()
  const totals: Record<string, number> = {}
  const byDim = new Map<string, Record<string, number>>()
  const byRoomDim = new Map<string, Record<string, number>>()
  for (const r of rows) {
    const label = bucketOf(q.period, r.day)
    const p = perPeriod.get(label) ?? {}
    p[r.metric] = (p[r.metric] ?? 0) + Number(r.value)
    perPeriod.set(label, p)
    totals[r.metric] = (totals[r.metric] ?? 0) + Number(r.value)
    const d = byDim.get(r.dim) ?? {}
    d[r.metric] = (d[r.metric] ?? 0) + Number(r.value)
    byDim.set(r.dim, d)
    if (r.metric === 'essay_errors') {
      const k = byRoomDim.get(r.room_id) ?? {}
      k[r.dim] = (k[r.dim] ?? 0) + Number(r.value)
      byRoomDim.set(r.room_id, k)
    }
  }
  const get = (label: string, metric: string) => perPeriod.get(label)?.[metric] ?? 0
  const series = (name: string, columns: string[], chart: string[], value: (label: string, c: string) => number): AnalyticsSection => ({
    name,
    kind: 'series',
    columns,
    chart,
    rows: periods.map((label) => ({ label, ...Object.fromEntries(columns.map((c) => [c, value(label, c)])) })),
  })
  const answer = (sections: AnalyticsSection[]): AnalyticsAnswer => ({
    tab,
    period: q.period,
    start_at: q.start_at,
    end_at: q.end_at,
    time_zone: scope.timeZone,
    realms: scope.realms,
    unavailable_days: unavailable,
    sections,
  })

  if (tab === 'general') {
    // Active users, sign-ins and credits are counted per realm, not per room: a room filter leaves them out.
    const realmWide = scope.rooms === null
    const active =
      realmWide && q.period !== 'day'
        ? await activePerPeriod(
            db,
            scope,
            q.period,
            periods,
            rows.filter((r) => r.metric === 'active_users' && r.day === todayIn(scope.timeZone)).reduce((n, r) => n + r.value, 0),
          )
        : null
    const columns = realmWide ? TAB_METRICS.general : ['delivered', 'sessions_held', 'views']
    return answer([
      series('overview', columns, realmWide ? ['active_users', 'signins', 'delivered'] : columns, (label, c) =>
        c === 'active_users' && active ? (active.get(label) ?? 0) : get(label, c),
      ),
    ])
  }

  if (tab === 'activity') {
    const [categoryNames, skillNames, roomNames] = await namesOf(db, scope.realms, [
      ['tms_category', [...byDim.keys()]],
      ['tms_assessed_skill', [...byDim.keys()]],
      ['room', [...byRoomDim.keys()]],
    ])
    const dims = [...byDim.entries()]
    return answer([
      series('deliveries', ['delivered', 'on_time', 'late', 'late_percent'], ['on_time', 'late'], (label, c) =>
        c === 'late_percent' ? pct(get(label, 'late'), get(label, 'delivered')) : get(label, c),
      ),
      {
        name: 'funnel',
        kind: 'ranking',
        columns: ['count', 'percent'],
        chart: ['count'],
        rows: ['published', 'opened', 'delivered', 'corrected'].map((step) => ({
          label: step,
          count: totals[step] ?? 0,
          percent: step === 'published' ? 100 : pct(totals[step] ?? 0, totals.opened ?? 0),
        })),
      },
      {
        name: 'scores_by_category',
        kind: 'ranking',
        columns: ['answers', 'mean_score'],
        chart: ['mean_score'],
        rows: dims
          .filter(([, d]) => d.scored)
          .map(([dim, d]) => ({ label: dim ? (categoryNames.get(dim) ?? dim) : '—', answers: d.scored, mean_score: round(d.score_sum / d.scored) }))
          .sort((a, b) => b.answers - a.answers),
      },
      {
        name: 'scores_by_skill',
        kind: 'ranking',
        columns: ['grades', 'mean_grade'],
        chart: ['mean_grade'],
        rows: dims
          .filter(([, d]) => d.graded)
          .map(([dim, d]) => ({ label: skillNames.get(dim) ?? dim, grades: d.graded, mean_grade: round(d.grade_sum / d.graded) }))
          .sort((a, b) => b.grades - a.grades),
      },
      {
        name: 'essay_errors',
        kind: 'ranking',
        columns: [...ERROR_CATEGORIES, 'total'],
        chart: [...ERROR_CATEGORIES],
        rows: [...byRoomDim.entries()]
          .map(([room, k]) => ({
            label: room && room !== '*' ? (roomNames.get(room) ?? room) : '—',
            ...Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, k[c] ?? 0])),
            total: Object.values(k).reduce((n, x) => n + x, 0),
          }))
          .sort((a, b) => b.total - a.total) as ReportRow[],
      },
    ])
  }

  return answer([
    series(
      'sessions',
      ['sessions_held', 'live_minutes', 'attendance', 'chat', 'hand_raises', 'attachments'],
      ['sessions_held', 'attendance', 'chat', 'hand_raises'],
      (label, c) => (c === 'live_minutes' ? round(get(label, 'live_seconds') / 60, 1) : get(label, c)),
    ),
    series('vod', ['views', 'sessions_watched', 'watched_minutes', 'watched_percent'], ['views', 'watched_minutes'], (label, c) =>
      c === 'watched_minutes'
        ? round(get(label, 'watched_seconds') / 60, 1)
        : c === 'watched_percent'
          ? pct(get(label, 'watched_seconds'), get(label, 'watchable_seconds'))
          : get(label, c),
    ),
  ])
}

/** Scope of a base-table read: realms, rooms (null: all) and an optional student, over UTC instants. */
interface ReportScope extends AnalyticsScope {
  nick?: string
}

/** True when the range holds more watch rows than a report reads at once (the caller asks to narrow it). */
export async function watchVolumeExceeded(db: D1Database, realms: string[], from: string, to: string, limit: number): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM csm_watch WHERE realm IN (SELECT value FROM json_each(?1)) AND watched_at >= ?2 AND watched_at <= ?3 LIMIT ?4)`,
    )
    .bind(JSON.stringify(realms), from, to, limit + 1)
    .first<{ n: number }>()
  return Number(row?.n ?? 0) > limit
}

/** Per (session, user): what was watched in the range, with the session's room and video duration. */
const WATCHED = `SELECT w.session_id, w.nick, s.title, s.reference_date, COALESCE(sr.room_id, '') AS room_id, r.duration_seconds AS duration,
    SUM(${SLOT_SECONDS(BUCKET, 'r.duration_seconds', 'w.slot')}) AS seconds
  FROM csm_watch w JOIN csm_session s ON s.id = w.session_id AND s.realm = w.realm
    JOIN csm_recording r ON r.id = ${VIDEO_OF('s')} LEFT JOIN csm_session_room sr ON sr.session_id = s.id
  WHERE w.realm IN (SELECT value FROM json_each(?1)) AND w.watched_at >= ?2 AND w.watched_at <= ?3
    AND (?4 IS NULL OR sr.room_id IN (SELECT value FROM json_each(?4))) AND (?5 IS NULL OR w.nick = ?5)
  GROUP BY w.session_id, w.nick`

const REPORT_SQL: Record<string, string> = {
  videos: `SELECT p.session_id AS id, p.title AS label, p.reference_date, COALESCE(ro.name, '') AS room, COUNT(*) AS viewers,
      SUM(p.seconds) AS seconds, SUM(p.duration) AS watchable
    FROM (${WATCHED}) p LEFT JOIN room ro ON ro.id = p.room_id GROUP BY p.session_id`,
  rooms: `SELECT p.room_id AS id, COALESCE(ro.name, '') AS label, COUNT(DISTINCT p.session_id) AS sessions, COUNT(DISTINCT p.nick) AS viewers,
      SUM(p.seconds) AS seconds, SUM(p.duration) AS watchable
    FROM (${WATCHED}) p LEFT JOIN room ro ON ro.id = p.room_id GROUP BY p.room_id`,
  users: `SELECT p.nick AS id, COALESCE(NULLIF(u.name, ''), p.nick) AS label, p.nick, COUNT(*) AS sessions, SUM(p.seconds) AS seconds, SUM(p.duration) AS watchable
    FROM (${WATCHED}) p LEFT JOIN user u ON u.nick = p.nick AND u.realm IN (SELECT value FROM json_each(?1)) GROUP BY p.nick`,
}

const ORDER: Record<string, string> = {
  watched_videos: 'ORDER BY reference_date DESC, label LIMIT 1000',
  video_ranking: 'ORDER BY seconds DESC, viewers DESC, label LIMIT 100',
  room_ranking: 'ORDER BY seconds DESC, label LIMIT 100',
  user_ranking: 'ORDER BY seconds DESC, label LIMIT 100',
  student: 'ORDER BY reference_date DESC, label LIMIT 1000',
}

const SOURCE: Record<string, string> = { watched_videos: 'videos', video_ranking: 'videos', room_ranking: 'rooms', user_ranking: 'users', student: 'videos' }

/** A session report (seed 002 §2) over the range: rows of videos, rooms or users with watched time and percentage. */
export async function sessionReport(
  db: D1Database,
  scope: ReportScope,
  report: keyof typeof ORDER,
  q: { period: Granularity; start_at: string; end_at: string },
): Promise<AnalyticsAnswer> {
  const w = dayWindow(scope.timeZone, q.start_at, q.end_at)
  const { results } = await db
    .prepare(`SELECT * FROM (${REPORT_SQL[SOURCE[report]]}) ${ORDER[report]}`)
    .bind(JSON.stringify(scope.realms), w.from, w.to, scope.rooms ? JSON.stringify(scope.rooms) : null, scope.nick ?? null)
    .all<Record<string, string | number>>()
  const watched = (r: Record<string, string | number>) => ({
    watched_minutes: round(Number(r.seconds) / 60, 1),
    watched_percent: pct(Number(r.seconds), Number(r.watchable)),
  })
  const shape: Record<string, { columns: string[]; chart: string[]; row: (r: Record<string, string | number>) => ReportRow }> = {
    videos: {
      columns: ['reference_date', 'room', 'viewers', 'watched_minutes', 'watched_percent'],
      chart: ['watched_minutes'],
      row: (r) => ({ label: String(r.label), reference_date: String(r.reference_date), room: String(r.room), viewers: Number(r.viewers), ...watched(r) }),
    },
    rooms: {
      columns: ['sessions', 'viewers', 'watched_minutes', 'watched_percent'],
      chart: ['watched_minutes'],
      row: (r) => ({ label: String(r.label) || '—', sessions: Number(r.sessions), viewers: Number(r.viewers), ...watched(r) }),
    },
    users: {
      columns: ['nick', 'sessions', 'watched_minutes', 'watched_percent'],
      chart: ['watched_minutes'],
      row: (r) => ({ label: String(r.label), nick: String(r.nick), sessions: Number(r.sessions), ...watched(r) }),
    },
  }
  const s = shape[SOURCE[report]]
  const columns = report === 'student' ? s.columns.filter((c) => c !== 'viewers') : s.columns
  return {
    tab: report as AnalyticsAnswer['tab'],
    period: q.period,
    start_at: q.start_at,
    end_at: q.end_at,
    time_zone: scope.timeZone,
    realms: scope.realms,
    unavailable_days: 0,
    sections: [{ name: report, kind: 'ranking', columns, chart: s.chart, rows: results.map(s.row) }],
  }
}

/** True when room `id` belongs to one of `realms`. */
export async function roomInRealms(db: D1Database, realms: string[], id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM room WHERE id = ? AND realm IN (SELECT value FROM json_each(?))').bind(id, JSON.stringify(realms)).first()) !== null
}

/** The rooms of a room category of `realms`, or null when there is no such category there. */
export async function categoryRooms(db: D1Database, realms: string[], category: string): Promise<string[] | null> {
  const [found, rooms] = await db.batch<{ id: string }>([
    db.prepare('SELECT id FROM room_category WHERE id = ? AND realm IN (SELECT value FROM json_each(?))').bind(category, JSON.stringify(realms)),
    db.prepare('SELECT id FROM room WHERE realm IN (SELECT value FROM json_each(?)) AND category_id = ?').bind(JSON.stringify(realms), category),
  ])
  return found.results.length ? rooms.results.map((r) => r.id) : null
}

/** The filters' choices of a scope (rooms and room categories by name, by the realm-and-name indexes). */
export async function filterOptions(db: D1Database, realms: string[]): Promise<NonNullable<AnalyticsAnswer['options']>> {
  const list = (table: string) =>
    db.prepare(`SELECT id, name FROM ${table} WHERE realm IN (SELECT value FROM json_each(?)) ORDER BY name LIMIT 200`).bind(JSON.stringify(realms))
  const [rooms, categories] = await db.batch<{ id: string; name: string }>([list('room'), list('room_category')])
  return { rooms: rooms.results, categories: categories.results }
}
