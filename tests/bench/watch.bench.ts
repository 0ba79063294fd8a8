import { getPlatformProxy } from 'wrangler'
import { createSession } from '../../worker/db/sessions'
import type { BenchContext, Scenario } from './harness'

/**
 * Watch-slot ingestion (issue 15): VIEWERS students (default 2,000, the issue's figure) of one published session, each
 * reporting the slot they watched every 30 s of video (`POST /api/csm/session/{id}/watch`). The 30 s are compressed
 * into BENCH_WATCH_PERIOD_MS (default 3,000 ms, i.e. 10× faster than real time) over BENCH_WATCH_ROUNDS periods
 * (default 5): every viewer sends once per period, at a random moment of it, so the server sees the arrival rate of
 * 10× the real crowd. Printed: the reports answered per second, the slot rows written per second (each report is one
 * new slot: one INSERT OR IGNORE row), the p50/p99 of a report, and the rows found in D1 afterwards (all must be there,
 * each once). A second scenario sends the same reports as fast as 200 connections allow (the ceiling).
 * The viewers are the bench realm's seeded students (u000001…), members of the session's room, with sessions made
 * in D1 before the run (signing 2,000 people in would measure password hashing, not watching).
 */
export const title = 'Watch slots (2,000 viewers)'

const VIEWERS = Number(process.env.BENCH_WATCH_VIEWERS ?? 2000)
const PERIOD_MS = Number(process.env.BENCH_WATCH_PERIOD_MS ?? 3000)
const ROUNDS = Number(process.env.BENCH_WATCH_ROUNDS ?? 5)
const VIDEO_SECONDS = 3600

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A published one-hour session in a room of VIEWERS students, and a session token for each (made in D1). */
async function seedViewers(state: string, tag: string) {
  const proxy = await getPlatformProxy<Env>({ configPath: 'wrangler.toml', persist: { path: `${state}/v3` } })
  const db = proxy.env.DB
  const at = new Date().toISOString()
  const room = `bench-watch-room-${tag}`
  const sessions = [`bench-watch-${tag}-a`, `bench-watch-${tag}-b`]
  try {
    await db.batch([
      db.prepare(`INSERT INTO room (id, realm, name, created_at, updated_at) VALUES (?, 'bench', ?, ?, ?)`).bind(room, `Watch ${tag}`, at, at),
      db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${VIEWERS})
         INSERT INTO room_member (realm, room_id, nick, added_at) SELECT 'bench', ?, printf('u%06d', i), ? FROM n`,
        )
        .bind(room, at),
      ...sessions.flatMap((id) => [
        db
          .prepare(
            `INSERT INTO csm_session (id, realm, title, channel_id, reference_date, recorded_in, status, video_status, started_at, ended_at, created_at)
             VALUES (?, 'bench', ?, '', ?, 'room', 'published', 'processed', ?, ?, ?)`,
          )
          .bind(id, `Watch bench ${id}`, at.slice(0, 10), at, at, at),
        db.prepare('INSERT INTO csm_session_room (session_id, realm, room_id, started_at) VALUES (?, ?, ?, ?)').bind(id, 'bench', room, at),
        db
          .prepare(
            `INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, status, size,
               duration_seconds, video_codec, audio_codec, started_at, completed_at)
             VALUES (?, 'bench', 'room', ?, ?, 'root', ?, '', 5242880, 'video/mp4', 'complete', 1, ?, 'avc', 'mp4a.40.2', ?, ?)`,
          )
          .bind(`rec-${id}`, room, id, `recordings/bench/${id}.mp4`, VIDEO_SECONDS, at, at),
      ]),
    ])
    const tokens: string[] = []
    for (let i = 0; i < VIEWERS; i += 100) {
      const batch = Array.from({ length: Math.min(100, VIEWERS - i) }, (_, k) => `u${String(i + k + 1).padStart(6, '0')}`)
      tokens.push(...(await Promise.all(batch.map(async (nick) => (await createSession(db, 'bench', nick, { platform: 'web' })).token))))
    }
    // The staff account that reads the rows back through the API (the bench realm's root, a copy of demo's).
    const root = await db.prepare("SELECT nick FROM user WHERE realm = 'bench' AND nick LIKE 'root%'").first<string>('nick')
    const rootToken = (await createSession(db, 'bench', root ?? 'root', { platform: 'dashboard' })).token
    return { sessions, tokens, rootToken }
  } finally {
    // The server's D1 is the same file: a proxy left open holds it and every request waits.
    await proxy.dispose()
  }
}
export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const base = ctx.base('bench.localhost')
  const tag = Date.now().toString(36)
  const seeded = await seedViewers(ctx.state, tag)
  /** The slot rows stored for a session, read back through the watchers API (every slot of the hour is full: 30 s). */
  const count = async (session: string) => {
    const res = await fetch(`${base}/api/csm/session/${session}/watchers`, { headers: { 'x-api-key': seeded.rootToken } })
    const page = (await res.json()) as { aggregate: { watched_seconds: number; bucket: number } }
    return Math.round(page.aggregate.watched_seconds / page.aggregate.bucket)
  }
  const [paced, burst] = seeded.sessions
  const report = async (session: string, token: string, slot: number) => {
    const res = await fetch(`${base}/api/csm/session/${session}/watch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': token },
      body: JSON.stringify({ slots: [slot] }),
    })
    if (!res.ok) throw new Error(`watch: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }

  let pacedNote = ''
  return [
    {
      name: `${VIEWERS} viewers, a report per viewer every ${PERIOD_MS / 1000} s (30 s compressed ${(30_000 / PERIOD_MS).toFixed(0)}×), ${ROUNDS} periods`,
      concurrency: 1,
      requests: 1,
      async run() {
        const latencies: number[] = []
        let failures = 0
        let firstError = ''
        const t0 = performance.now()
        await Promise.all(
          seeded.tokens.map(async (token) => {
            for (let round = 0; round < ROUNDS; round++) {
              // Each viewer reports at its own moment of each period.
              const due = t0 + round * PERIOD_MS + Math.random() * PERIOD_MS
              await sleep(Math.max(0, due - performance.now()))
              const s = performance.now()
              try {
                await report(paced, token, round)
                latencies.push(performance.now() - s)
              } catch (err) {
                failures++
                firstError ||= String(err)
              }
            }
          }),
        )
        const seconds = (performance.now() - t0) / 1000
        latencies.sort((a, b) => a - b)
        const rows = await count(paced)
        pacedNote =
          `${latencies.length.toLocaleString('en')} reports in ${seconds.toFixed(1)} s: ${(latencies.length / seconds).toFixed(0)} writes/s ` +
          `(real time: ${((VIEWERS / 30) * 1).toFixed(0)} writes/s), p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, ` +
          `${failures} failed; ${rows.toLocaleString('en')} rows in D1 (expected ${(VIEWERS * ROUNDS).toLocaleString('en')})${firstError ? `; first failure: ${firstError.slice(0, 120)}` : ''}`
      },
      after: async () => pacedNote,
    },
    {
      name: `Ceiling: the same reports as fast as 200 connections go`,
      concurrency: 200,
      requests: VIEWERS * 2,
      run: (i) => report(burst, seeded.tokens[i % VIEWERS], Math.floor(i / VIEWERS)),
      after: async () => {
        const rows = await count(burst)
        return `${rows.toLocaleString('en')} rows in D1 (expected ${(VIEWERS * 2).toLocaleString('en')})`
      },
    },
  ]
}
