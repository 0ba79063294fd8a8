import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ERROR_CATEGORIES, type AnalyticsAnswer } from '#shared/schemas/analytics'
import { daysOf, rollupDay, rollupRealms, signedSplit } from '../../worker/db/analytics'
import { realmWith } from './factories'
import { api, expectEnvelope, userWith } from './helpers'

/** Analytics (issue 19): numbers from a small dataset whose expected figures are counted from the rows below. */
const TZ = 'America/Sao_Paulo'
const D1 = '2026-03-10'
const D2 = '2026-03-11'
const ALL = ['analytics_analytics_module', 'analytics_global_module', 'analytics_tms_module', 'analytics_csm_module', 'reports_reports_module']

async function dataset() {
  const realm = await realmWith({ created_at: '2026-01-01T00:00:00.000Z', time_zone: TZ })
  const r = realm.code
  const id = (p: string) => `${p}${crypto.randomUUID().slice(0, 8)}`
  const [roomA, roomB, catRoom, cat1, sk1, model, t1, t2, s1] = ['ra', 'rb', 'rc', 'tc', 'sk', 'm', 't1', 't2', 's1'].map(id)
  const db = env.DB
  const user = (nick: string) => db.prepare('INSERT INTO user (realm, nick, name, origin_realm) VALUES (?, ?, ?, ?)').bind(r, nick, `Name ${nick}`, r)
  const signin = (nick: string, at: string) =>
    db
      .prepare('INSERT INTO session (token_hash, realm, nick, device_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(crypto.randomUUID(), r, nick, 'd', at, at, '2030-01-01T00:00:00.000Z')
  const answer = (task: string, nick: string, room: string, v: Record<string, unknown>) =>
    db
      .prepare(
        `INSERT INTO tms_answer (id, realm, task_id, nick, room_id, client_id, status, opened_at, delivered_at, delivery, score, max_score, skill_grades, marks, corrected_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        id('a'),
        r,
        task,
        nick,
        room,
        id('c'),
        v.status,
        v.delivered_at,
        v.delivered_at,
        v.delivery,
        v.score ?? null,
        v.max_score ?? 0,
        JSON.stringify(v.skill_grades ?? {}),
        JSON.stringify(v.marks ?? {}),
        v.corrected_at ?? null,
        v.delivered_at,
        v.delivered_at,
      )
  const start = (task: string, nick: string, room: string, at: string) =>
    db.prepare('INSERT INTO tms_answer_start (realm, task_id, nick, room_id, opened_at) VALUES (?, ?, ?, ?, ?)').bind(r, task, nick, room, at)
  const at = '2026-01-01T00:00:00.000Z'
  await db.batch([
    user('u1'),
    user('u2'),
    user('u3'),
    db.prepare('INSERT INTO room_category (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(catRoom, r, 'Fundamental', at, at),
    db.prepare('INSERT INTO room (id, realm, name, category_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').bind(roomA, r, 'Sala A', catRoom, at, at),
    db.prepare('INSERT INTO room (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(roomB, r, 'Sala B', at, at),
    db.prepare('INSERT INTO tms_category (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(cat1, r, 'Redação', at, at),
    db.prepare('INSERT INTO tms_assessed_skill (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(sk1, r, 'Coesão', at, at),
    db.prepare('INSERT INTO tms_model (id, realm, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(model, r, 'M', at, at),
    db
      .prepare(
        'INSERT INTO tms_task (id, realm, model_id, model_version, title, publish_at, expire_at, categories, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)',
      )
      .bind(t1, r, model, 'T1', `${D1}T10:00:00.000Z`, '2026-04-01T00:00:00.000Z', JSON.stringify([cat1]), at, at),
    db
      .prepare(
        'INSERT INTO tms_task (id, realm, model_id, model_version, title, publish_at, expire_at, categories, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)',
      )
      .bind(t2, r, model, 'T2', `${D2}T10:00:00.000Z`, '2026-04-01T00:00:00.000Z', '[]', at, at),
    db.prepare('INSERT INTO tms_task_target (task_id, realm, room_id) VALUES (?, ?, ?)').bind(t1, r, roomA),
    db.prepare('INSERT INTO tms_task_target (task_id, realm, room_id) VALUES (?, ?, ?)').bind(t2, r, roomB),
    // Sign-ins: u1 twice on D1; u2 at 02:00 UTC of D1, which is 23:00 of the day before in São Paulo; u3 on D2.
    signin('u1', `${D1}T12:00:00.000Z`),
    signin('u1', `${D1}T18:00:00.000Z`),
    signin('u2', `${D1}T02:00:00.000Z`),
    signin('u3', `${D2}T15:00:00.000Z`),
    answer(t1, 'u1', roomA, {
      status: 'finished',
      delivered_at: `${D1}T13:00:00.000Z`,
      delivery: 'on_time',
      score: 8,
      max_score: 10,
      corrected_at: `${D1}T14:00:00.000Z`,
      skill_grades: { q1: { [sk1]: 8 } },
      marks: {
        q1: [
          { category: 'orthography', excerpt: 'x' },
          { category: 'syntax', excerpt: 'y' },
        ],
      },
    }),
    answer(t1, 'u2', roomA, { status: 'submitted', delivered_at: `${D1}T13:30:00.000Z`, delivery: 'delayed' }),
    answer(t2, 'u3', roomB, {
      status: 'finished',
      delivered_at: `${D2}T13:00:00.000Z`,
      delivery: 'on_time',
      score: 5,
      max_score: 10,
      corrected_at: `${D2}T20:00:00.000Z`,
      skill_grades: { q1: { [sk1]: 6 } },
      marks: { q1: [{ category: 'orthography', excerpt: 'z' }] },
    }),
    start(t1, 'u1', roomA, `${D1}T12:30:00.000Z`),
    start(t1, 'u2', roomA, `${D1}T12:40:00.000Z`),
    start(t2, 'u3', roomB, `${D2}T12:00:00.000Z`),
    start(t2, 'u1', roomB, `${D2}T12:10:00.000Z`),
    // A live session in room A on D1 (10 minutes, two attendees, 5 chat messages, 2 raised hands), its 120 s video
    // watched on D2: u1 slots 0 and 1 (60 s), u3 the last slot (120 − 90 = 30 s).
    db
      .prepare(
        `INSERT INTO csm_session (id, realm, title, channel_id, reference_date, recorded_in, status, video_status, started_at, ended_at, live_seconds, live_durations, chat_count, hand_raise_count, created_at, watch_bucket)
         VALUES (?, ?, 'Aula 1', '', ?, 'room', 'published', 'complete', ?, ?, 600, ?, 5, 2, ?, 30)`,
      )
      .bind(s1, r, D1, `${D1}T16:00:00.000Z`, `${D1}T16:10:00.000Z`, JSON.stringify({ u1: 600, u2: 300 }), `${D1}T16:00:00.000Z`),
    db.prepare('INSERT INTO csm_session_room (session_id, realm, room_id, started_at) VALUES (?, ?, ?, ?)').bind(s1, r, roomA, `${D1}T16:00:00.000Z`),
    db
      .prepare(
        `INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, status, size, duration_seconds, started_at)
         VALUES (?, ?, 'room', ?, ?, 'u1', 'k', 'up', 5242880, 'video/webm', 'complete', 10, 120, ?)`,
      )
      .bind(id('rec'), r, roomA, s1, `${D1}T16:00:00.000Z`),
    ...[
      ['u1', 0],
      ['u1', 1],
      ['u3', 3],
    ].map(([nick, slot]) =>
      db.prepare('INSERT INTO csm_watch (session_id, nick, slot, realm, watched_at) VALUES (?, ?, ?, ?, ?)').bind(s1, nick, slot, r, `${D2}T14:00:00.000Z`),
    ),
  ])
  const staff = await userWith(r, ALL)
  const get = async (path: string, token = staff.token) => {
    const res = await api(realm.host, path, { token })
    expect(res.status, await res.clone().text()).toBe(200)
    return (await res.json()) as AnalyticsAnswer
  }
  return { realm, get, staff, roomA, roomB, catRoom, s1, t1, answer }
}

const section = (a: AnalyticsAnswer, name: string) => a.sections.find((s) => s.name === name)!

describe('analytics API', () => {
  it('counts the general, activity and session figures of a seeded dataset, by day in the realm calendar', async () => {
    const { get } = await dataset()
    const range = `period=day&start_at=${D1}&end_at=${D2}`
    const general = await get(`analytics/general?${range}`)
    expect(general.unavailable_days).toBe(0)
    expect(section(general, 'overview').rows).toEqual([
      { label: D1, active_users: 1, signins: 2, delivered: 2, sessions_held: 1, views: 0, credits_used: 0 },
      { label: D2, active_users: 1, signins: 1, delivered: 1, sessions_held: 0, views: 2, credits_used: 0 },
    ])
    const activity = await get(`analytics/task?${range}`)
    expect(section(activity, 'deliveries').rows).toEqual([
      { label: D1, delivered: 2, on_time: 1, late: 1, late_percent: 50 },
      { label: D2, delivered: 1, on_time: 1, late: 0, late_percent: 0 },
    ])
    expect(section(activity, 'funnel').rows).toEqual([
      { label: 'published', count: 2, percent: 100 },
      { label: 'opened', count: 4, percent: 100 },
      { label: 'delivered', count: 3, percent: 75 },
      { label: 'corrected', count: 2, percent: 50 },
    ])
    expect(section(activity, 'scores_by_category').rows).toEqual(
      expect.arrayContaining([
        { label: 'Redação', answers: 1, mean_score: 80 },
        { label: '—', answers: 1, mean_score: 50 },
      ]),
    )
    expect(section(activity, 'scores_by_skill').rows).toEqual([{ label: 'Coesão', grades: 2, mean_grade: 7 }])
    const errors = section(activity, 'essay_errors').rows
    expect(errors).toEqual([
      expect.objectContaining({ label: 'Sala A', orthography: 1, syntax: 1, total: 2 }),
      expect.objectContaining({ label: 'Sala B', orthography: 1, syntax: 0, total: 1 }),
    ])
    const session = await get(`analytics/session?${range}`)
    expect(section(session, 'sessions').rows[0]).toEqual({
      label: D1,
      sessions_held: 1,
      live_minutes: 10,
      attendance: 2,
      chat: 5,
      hand_raises: 2,
      attachments: 0,
    })
    expect(section(session, 'vod').rows[1]).toEqual({ label: D2, views: 2, sessions_watched: 1, watched_minutes: 1.5, watched_percent: 37.5 })
  })

  it('counts today from the base tables (no rollup of today)', async () => {
    const { realm, get } = await dataset()
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date())
    const now = new Date().toISOString()
    await env.DB.prepare('INSERT INTO session (token_hash, realm, nick, device_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(crypto.randomUUID(), realm.code, 'u1', 'd', now, now, '2030-01-01T00:00:00.000Z')
      .run()
    // The staff member's own session (made by the test helper just now) and u1's sign-in.
    const general = await get(`analytics/general?period=day&start_at=${today}&end_at=${today}`)
    expect(section(general, 'overview').rows).toEqual([
      { label: today, active_users: 2, signins: 2, delivered: 0, sessions_held: 0, views: 0, credits_used: 0 },
    ])
    const month = await get(`analytics/general?period=month&start_at=${today}&end_at=${today}`)
    expect(section(month, 'overview').rows[0]).toMatchObject({ label: today.slice(0, 7), active_users: 2, signins: 2 })
    const rolled = await env.DB.prepare('SELECT COUNT(*) AS n FROM analytics_daily WHERE realm = ? AND day = ?').bind(realm.code, today).first<{ n: number }>()
    expect(rolled?.n).toBe(0)
  })

  it("reads today's per-room essay errors from the base tables, then from today's cache, for all rooms or a filter's", async () => {
    const { realm, get, roomA, roomB, t1, answer } = await dataset()
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date())
    const now = new Date().toISOString()
    await answer(t1, 'u9', roomA, {
      status: 'finished',
      delivered_at: now,
      delivery: 'on_time',
      corrected_at: now,
      marks: { q1: [{ category: 'orthography' }, { category: 'syntax' }, { category: 'note' }] },
    }).run()
    const zero = Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, 0]))
    const range = `period=day&start_at=${today}&end_at=${today}`
    const counted = section(await get(`analytics/task?${range}`), 'essay_errors').rows
    expect(counted).toEqual([{ label: 'Sala A', ...zero, orthography: 1, syntax: 1, total: 2 }])
    const cached = await env.DB.prepare('SELECT COUNT(*) AS n FROM analytics_today WHERE realm = ? AND metric = ?')
      .bind(realm.code, 'essay_errors')
      .first<{ n: number }>()
    expect(cached?.n).toBeGreaterThan(0)
    expect(section(await get(`analytics/task?${range}`), 'essay_errors').rows).toEqual(counted)
    expect(section(await get(`analytics/task?${range}&room=${roomA}`), 'essay_errors').rows).toEqual(counted)
    expect(section(await get(`analytics/task?${range}&room=${roomB}`), 'essay_errors').rows).toEqual([])
    expect(section(await get(`analytics/task?${range}&room=${roomB}`), 'funnel').rows.map((r) => r.count)).toEqual([0, 0, 0, 0])
    expect(section(await get(`analytics/task?${range}`), 'funnel').rows.map((r) => r.count)).toEqual([0, 0, 1, 1])
  })

  it('filters by room and by room category, and counts distinct active users per month', async () => {
    const { realm, get, roomA, roomB, catRoom } = await dataset()
    const range = `period=day&start_at=${D1}&end_at=${D2}`
    const byRoom = await get(`analytics/general?${range}&room=${roomA}`)
    expect(section(byRoom, 'overview').rows).toEqual([
      { label: D1, delivered: 2, sessions_held: 1, views: 0 },
      { label: D2, delivered: 0, sessions_held: 0, views: 2 },
    ])
    const byCategory = await get(`analytics/general?${range}&category=${catRoom}`)
    expect(byCategory.sections).toEqual(byRoom.sections)
    const roomB2 = await get(`analytics/task?${range}&room=${roomB}`)
    expect(section(roomB2, 'funnel').rows.map((r) => r.count)).toEqual([1, 2, 1, 1])
    for (let d = 1; d <= 31; d++) await rollupDay(env.DB, realm.code, TZ, `2026-03-${String(d).padStart(2, '0')}`)
    const month = await get('analytics/general?period=month&start_at=2026-03-01&end_at=2026-03-31')
    expect(month.unavailable_days).toBe(0)
    // u2's sign-in (23:00 of March 9th there) is in March too: three distinct users in the month.
    expect(section(month, 'overview').rows).toEqual([
      { label: '2026-03', active_users: 3, signins: 4, delivered: 3, sessions_held: 1, views: 2, credits_used: 0 },
    ])
  })

  it('recomputes a day idempotently and says which past days are not ready', async () => {
    const { realm, get } = await dataset()
    const rows = () => env.DB.prepare('SELECT * FROM analytics_daily WHERE realm = ? ORDER BY room_id, day, metric, dim').bind(realm.code).all()
    await rollupDay(env.DB, realm.code, TZ, D1)
    const first = (await rows()).results
    expect(first.length).toBeGreaterThan(5)
    await rollupDay(env.DB, realm.code, TZ, D1)
    await rollupDay(env.DB, realm.code, TZ, D1)
    expect((await rows()).results).toEqual(first)
    await rollupRealms(env.DB)
    await rollupRealms(env.DB)
    const after = (await rows()).results.filter((r) => String(r.day) <= D2 && String(r.day).length === 10)
    expect(after).toEqual(first.filter((r) => String(r.day).length === 10))
    // February: 28 days never rolled up; a query computes 7 of them and reports the other 21 unavailable.
    const feb = await get('analytics/general?period=day&start_at=2026-02-01&end_at=2026-02-28')
    expect(feb.unavailable_days).toBe(21)
    expect(section(feb, 'overview').rows).toHaveLength(28)
  })

  it('keeps monthly and yearly rollups equal to the sum of their days, idempotently, and reads whole months from it', async () => {
    const { realm, get } = await dataset()
    const march = () =>
      env.DB.batch([
        env.DB.prepare(
          `SELECT room_id, metric, dim, SUM(value) AS value FROM analytics_daily WHERE realm = ? AND day LIKE '2026-03-__' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        ).bind(realm.code),
        env.DB.prepare(`SELECT room_id, metric, dim, value FROM analytics_monthly WHERE realm = ? AND month = '2026-03' ORDER BY 1, 2, 3`).bind(realm.code),
      ])
    for (let d = 1; d <= 31; d++) await rollupDay(env.DB, realm.code, TZ, `2026-03-${String(d).padStart(2, '0')}`)
    const [daily, monthly] = await march()
    expect(monthly.results.length).toBeGreaterThan(5)
    expect(monthly.results).toEqual(daily.results)
    await rollupDay(env.DB, realm.code, TZ, D1)
    await rollupDay(env.DB, realm.code, TZ, D1)
    expect((await march())[1].results).toEqual(monthly.results)
    // The year row is the sum of its days too (here: March's).
    const yearly = await env.DB.prepare(`SELECT room_id, metric, dim, value FROM analytics_yearly WHERE realm = ? AND year = '2026' ORDER BY 1, 2, 3`)
      .bind(realm.code)
      .all()
    expect(yearly.results).toEqual(daily.results)
    // The month is read from the monthly row: a marked value there shows in the answer.
    const range = 'period=month&start_at=2026-03-01&end_at=2026-03-31'
    expect(section(await get(`analytics/general?${range}`), 'overview').rows[0]).toMatchObject({ delivered: 3 })
    await env.DB.prepare(`UPDATE analytics_monthly SET value = 1000 WHERE realm = ? AND month = '2026-03' AND room_id = '*' AND metric = 'delivered'`)
      .bind(realm.code)
      .run()
    expect(section(await get(`analytics/general?${range}`), 'overview').rows[0]).toMatchObject({ delivered: 1000 })
    // A range that starts mid-month reads its days from the daily rollup.
    expect(section(await get('analytics/general?period=month&start_at=2026-03-02&end_at=2026-03-31'), 'overview').rows[0]).toMatchObject({ delivered: 3 })
  })

  it('reads the per-room essay errors of a range from month rows minus the days outside it, as the day rows sum them', async () => {
    const { realm, get, roomA, roomB, t1, answer } = await dataset()
    const roomC = `rc${crypto.randomUUID().slice(0, 8)}`
    const at = '2026-01-01T00:00:00.000Z'
    const marked = (room: string, day: string, categories: string[], n: number) =>
      answer(t1, `e${n}`, room, {
        status: 'finished',
        delivered_at: `${day}T13:00:00.000Z`,
        delivery: 'on_time',
        corrected_at: `${day}T15:00:00.000Z`,
        marks: { q1: categories.map((category) => ({ category, excerpt: 'x' })) },
      })
    // Marks in the edge months inside and outside the ranges below (with D1's and D2's of March); room C only outside.
    await env.DB.batch([
      env.DB.prepare('INSERT INTO room (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(roomC, realm.code, 'Sala C', at, at),
      marked(roomC, '2026-01-03', ['orthography', 'orthography'], 1),
      marked(roomA, '2026-01-03', ['syntax'], 2),
      marked(roomA, '2026-01-10', ['orthography', 'note'], 3),
      marked(roomB, '2026-01-25', ['semantics'], 4),
      marked(roomA, '2026-02-14', ['orthography', 'orthography', 'language'], 5),
      marked(roomB, '2026-04-05', ['others'], 6),
      marked(roomA, '2026-04-20', ['morphology'], 7),
      marked(roomB, '2026-04-28', ['syntax'], 8),
      marked(roomC, '2026-04-28', ['orthography'], 9),
    ])
    for (const day of daysOf('2026-01-01', '2026-04-30')) await rollupDay(env.DB, realm.code, TZ, day)
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date())
    // The same ranking counted from the day rows.
    const fromDays = async (first: string, last: string) => {
      const { results } = await env.DB.prepare(
        `SELECT r.name AS room, d.dim, SUM(d.value) AS n FROM analytics_daily d JOIN room r ON r.id = d.room_id
         WHERE d.realm = ? AND d.metric = 'essay_errors' AND d.room_id <> '*' AND d.day >= ? AND d.day <= ? AND length(d.day) = 10 GROUP BY 1, 2`,
      )
        .bind(realm.code, first, last)
        .all<{ room: string; dim: string; n: number }>()
      const rooms = new Map<string, Record<string, number>>()
      for (const r of results) rooms.set(r.room, { ...rooms.get(r.room), [r.dim]: r.n })
      return [...rooms.entries()]
        .map(([label, k]) => ({
          label,
          ...Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, k[c] ?? 0])),
          total: Object.values(k).reduce((n, x) => n + x, 0),
        }))
        .sort((a, b) => b.total - a.total)
    }
    const zero = Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, 0]))
    // Both edges partial and mostly inside the range: January and April are read as month rows minus their days outside.
    expect(signedSplit('2026-01-05', '2026-04-25', today)).toEqual({
      years: [],
      months: [
        ['2026-01', 1],
        ['2026-02', 1],
        ['2026-03', 1],
        ['2026-04', 1],
      ],
      spans: [
        ['2026-01-01', '2026-01-04', -1],
        ['2026-04-26', '2026-04-30', -1],
      ],
    })
    const wide = section(await get('analytics/task?period=year&start_at=2026-01-05&end_at=2026-04-25'), 'essay_errors').rows
    expect(wide).toEqual([
      { label: 'Sala A', ...zero, orthography: 4, syntax: 1, language: 1, morphology: 1, total: 7 },
      { label: 'Sala B', ...zero, orthography: 1, semantics: 1, others: 1, total: 3 },
    ])
    expect(wide).toEqual(await fromDays('2026-01-05', '2026-04-25'))
    // Edges mostly outside the range: read by day.
    expect(signedSplit('2026-01-20', '2026-04-10', today).spans).toEqual([
      ['2026-01-20', '2026-01-31', 1],
      ['2026-04-01', '2026-04-10', 1],
    ])
    const narrow = section(await get('analytics/task?period=year&start_at=2026-01-20&end_at=2026-04-10'), 'essay_errors').rows
    expect(narrow).toEqual([
      { label: 'Sala A', ...zero, orthography: 3, syntax: 1, language: 1, total: 5 },
      { label: 'Sala B', ...zero, orthography: 1, semantics: 1, others: 1, total: 3 },
    ])
    expect(narrow).toEqual(await fromDays('2026-01-20', '2026-04-10'))
    // One month, both ends inside it; room C's marks are all outside, so it is left out.
    const march = section(await get('analytics/task?period=month&start_at=2026-03-02&end_at=2026-03-30'), 'essay_errors').rows
    expect(march).toEqual(await fromDays('2026-03-02', '2026-03-30'))
    expect(march.map((r) => r.label)).toEqual(['Sala A', 'Sala B'])
    // From January 1st to December 10th, seen in January 2027: the year row minus December plus its first 10 days.
    expect(signedSplit('2026-01-01', '2026-12-10', '2027-01-15')).toEqual({
      years: [['2026', 1]],
      months: [['2026-12', -1]],
      spans: [['2026-12-01', '2026-12-10', 1]],
    })
    // And a year so far (today's year): the same ranking as the day rows give.
    const year = today.slice(0, 4)
    const sofar = section(await get(`analytics/task?period=year&start_at=${year}-01-01&end_at=${today}`), 'essay_errors').rows
    expect(sofar).toEqual(await fromDays(`${year}-01-01`, today))
    if (year === '2026') {
      expect(signedSplit('2026-01-01', today, today).years).toEqual(today >= '2026-02-02' ? [['2026', 1]] : [])
      expect(sofar.map((r) => [r.label, r.total])).toEqual([
        ['Sala A', 8],
        ['Sala B', 4],
        ['Sala C', 3],
      ])
    }
  })

  it('answers session reports: watched videos, rankings and a student report', async () => {
    const { get, s1 } = await dataset()
    const range = `period=day&start_at=${D1}&end_at=${D2}`
    const videos = await get(`analytics/session-report?report=video_ranking&${range}`)
    expect(videos.sections[0].rows).toEqual([{ label: 'Aula 1', reference_date: D1, room: 'Sala A', viewers: 2, watched_minutes: 1.5, watched_percent: 37.5 }])
    const users = await get(`analytics/session-report?report=user_ranking&${range}`)
    expect(users.sections[0].rows).toEqual([
      { label: 'Name u1', nick: 'u1', sessions: 1, watched_minutes: 1, watched_percent: 50 },
      { label: 'Name u3', nick: 'u3', sessions: 1, watched_minutes: 0.5, watched_percent: 25 },
    ])
    const rooms = await get(`analytics/session-report?report=room_ranking&${range}`)
    expect(rooms.sections[0].rows).toEqual([{ label: 'Sala A', sessions: 1, viewers: 2, watched_minutes: 1.5, watched_percent: 37.5 }])
    const student = await get(`analytics/session-report?report=student&nick=u3&${range}`)
    expect(student.sections[0].rows).toEqual([{ label: 'Aula 1', reference_date: D1, room: 'Sala A', viewers: 1, watched_minutes: 0.5, watched_percent: 25 }])
    expect(student.sections[0].columns).not.toContain('viewers')
    const none = await get(`analytics/session-report?report=watched_videos&period=day&start_at=2026-02-01&end_at=2026-02-02`)
    expect(none.sections[0].rows).toEqual([])
    expect(s1).toBeTruthy()
  })

  it('bounds the period by granularity, with the invalid-date message, and refuses bad filters with the envelope', async () => {
    const { realm, staff } = await dataset()
    const q = (s: string) => api(realm.host, `analytics/general?${s}`, { token: staff.token })
    expect((await q('period=day&start_at=2026-01-01&end_at=2026-01-31')).status).toBe(200)
    const long = await expectEnvelope(await q('period=day&start_at=2026-01-01&end_at=2026-02-01'), 400)
    expect(long.errors[0]).toMatchObject({ field: 'end_at', message: 'ledger.validation.period_too_long' })
    await expectEnvelope(await q('period=month&start_at=2026-01-15&end_at=2026-04-01'), 400, 'check')
    await expectEnvelope(await q('period=year&start_at=2024-12-31&end_at=2026-01-01'), 400, 'check')
    const invalid = await expectEnvelope(await q('start_at=2026-02-30&end_at=2026-03-01'), 400)
    expect(invalid.errors[0]).toMatchObject({ field: 'start_at', message: 'ledger.validation.invalid_date' })
    // The form's "all" choices send empty values: no filter.
    expect((await q('start_at=2026-01-01&end_at=2026-01-02&room=&category=&children=')).status).toBe(200)
    await expectEnvelope(await q('start_at=2026-01-01&end_at=2026-01-02&room=bad%20id'), 400)
    await expectEnvelope(await q('start_at=2026-01-01&end_at=2026-01-02&room=nope'), 404, 'not_found')
    await expectEnvelope(await q('start_at=2026-01-01&end_at=2026-01-02&children=maybe'), 400, 'picklist')
    const student = await expectEnvelope(
      await api(realm.host, 'analytics/session-report?report=student&start_at=2026-01-01&end_at=2026-01-02', { token: staff.token }),
      400,
    )
    expect(student.errors[0].field).toBe('nick')
    expect(
      (await env.DB.prepare('SELECT COUNT(*) AS n FROM analytics_daily WHERE realm = ? AND day >= ?').bind(realm.code, '2026-01-01').first<{ n: number }>())?.n,
    ).toBe(0)
  })

  it('checks permissions per tab and keeps other realms out', async () => {
    const { realm } = await dataset()
    const only = async (perms: string[], path: string) =>
      api(realm.host, `${path}?start_at=${D1}&end_at=${D2}`, { token: (await userWith(realm.code, [...perms, `x_${crypto.randomUUID()}`])).token })
    await expectEnvelope(await only(['analytics_analytics_module'], 'analytics/general'), 403)
    await expectEnvelope(await only(['analytics_tms_module'], 'analytics/session'), 403)
    await expectEnvelope(await only(['analytics_csm_module'], 'analytics/task'), 403)
    await expectEnvelope(await only(['analytics_csm_module'], 'analytics/session-report'), 403)
    expect((await only(['analytics_csm_module'], 'analytics/session')).status).toBe(200)
    // A staff member of another realm counts only their own realm, and cannot name this one.
    const other = await realmWith({ created_at: '2026-01-01T00:00:00.000Z' })
    const outsider = await userWith(other.code, ALL)
    const own = (await (await api(other.host, `analytics/general?start_at=${D1}&end_at=${D2}`, { token: outsider.token })).json()) as AnalyticsAnswer
    expect(own.realms).toEqual([other.code])
    expect(section(own, 'overview').rows.every((r) => r.delivered === 0 && r.signins === 0)).toBe(true)
    await expectEnvelope(
      await api(other.host, `analytics/general?start_at=${D1}&end_at=${D2}&realm=${realm.code}`, { token: outsider.token }),
      403,
      'forbidden',
    )
  })
})
