import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomToken, sha256Hex } from '../../worker/lib/crypto'
import type { BenchContext, Scenario } from './harness'

/**
 * Watch-slot ingestion (issue 15): VIEWERS students (default 2,000, the issue's figure) of one published session, each
 * reporting the slot they watched every 30 s of video (`POST /api/csm/session/{id}/watch`), in real time by default:
 * BENCH_WATCH_PERIOD_MS (default 30,000 ms) over BENCH_WATCH_ROUNDS periods (default 2); every viewer sends once per
 * period at its own moment of it. A shorter period offers more than the real crowd's rate (the offered and real rates
 * are printed): at 10,000 ms this 2-core machine is overloaded and wrangler dev answers 503s. Printed: reports (= slot rows written, each report one new slot) per
 * second, p50/p95/p99 of a report, and the rows found afterwards (all must be there, each once). A second scenario
 * sends reports as fast as 200 connections allow (the ceiling). The viewers are the bench realm's seeded students
 * (u000001…), members of the session's room, with sessions written into D1 before the run (signing 2,000 people in
 * would measure password hashing, not watching).
 */
export const title = `Watch slots (${Number(process.env.BENCH_WATCH_VIEWERS ?? 2000).toLocaleString('en')} viewers)`

const VIEWERS = Number(process.env.BENCH_WATCH_VIEWERS ?? 2000)
const PERIOD_MS = Number(process.env.BENCH_WATCH_PERIOD_MS ?? 30_000)
const ROUNDS = Number(process.env.BENCH_WATCH_ROUNDS ?? 2)
const VIDEO_SECONDS = 3600

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `sql` run on the server's local D1 (`wrangler d1 execute --local`: safe beside the running server). */
function d1(state: string, sql: string) {
  const file = join(state, `watch-bench-${Date.now()}.sql`)
  writeFileSync(file, sql)
  const run = spawnSync('node_modules/.bin/wrangler', ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--file', file], {
    env: { ...process.env, CI: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (run.status !== 0) throw new Error('wrangler d1 execute failed')
}

const q = (v: string) => `'${v.replace(/'/g, "''")}'`

/**
 * A published one-hour session (two: one per scenario) in a room of VIEWERS students, and a session token for each
 * student and for the bench realm's root (who reads the rows back), written straight into D1.
 */
async function seedViewers(state: string, tag: string) {
  const at = new Date().toISOString()
  const expires = new Date(Date.now() + 86_400_000).toISOString()
  const room = `bench-watch-room-${tag}`
  const sessions = [`bench-watch-${tag}-a`, `bench-watch-${tag}-b`]
  const tokens = Array.from({ length: VIEWERS }, () => randomToken(32))
  const rootToken = randomToken(32)
  const sessionRow = async (token: string, nick: string, platform: string) =>
    `(${q(await sha256Hex(token))}, 'bench', ${nick}, ${q(randomToken(12))}, ${q(platform)}, ${q(at)}, ${q(at)}, ${q(expires)}, '', NULL)`
  const rows = await Promise.all(tokens.map((t, i) => sessionRow(t, q(`u${String(i + 1).padStart(6, '0')}`), 'web')))
  const cols = 'token_hash, realm, nick, device_id, platform, created_at, last_seen_at, expires_at, user_agent, active_realm'
  const chunks: string[] = []
  for (let i = 0; i < rows.length; i += 100) chunks.push(`INSERT INTO session (${cols}) VALUES ${rows.slice(i, i + 100).join(', ')};`)
  const rootRow = (await sessionRow(rootToken, 'nick', 'dashboard')).replace(/^\(|\)$/g, '')
  d1(
    state,
    [
      `INSERT INTO room (id, realm, name, created_at, updated_at) VALUES (${q(room)}, 'bench', ${q(`Watch ${tag}`)}, ${q(at)}, ${q(at)});`,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${VIEWERS})
       INSERT INTO room_member (realm, room_id, nick, added_at) SELECT 'bench', ${q(room)}, printf('u%06d', i), ${q(at)} FROM n;`,
      ...sessions.flatMap((id) => [
        `INSERT INTO csm_session (id, realm, title, channel_id, reference_date, recorded_in, status, video_status, started_at, ended_at, created_at)
         VALUES (${q(id)}, 'bench', ${q(`Watch bench ${id}`)}, '', ${q(at.slice(0, 10))}, 'room', 'published', 'processed', ${q(at)}, ${q(at)}, ${q(at)});`,
        `INSERT INTO csm_session_room (session_id, realm, room_id, started_at) VALUES (${q(id)}, 'bench', ${q(room)}, ${q(at)});`,
        `INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, status, size,
           duration_seconds, video_codec, audio_codec, started_at, completed_at)
         VALUES (${q(`rec-${id}`)}, 'bench', 'room', ${q(room)}, ${q(id)}, 'root', ${q(`recordings/bench/${id}.mp4`)}, '', 5242880, 'video/mp4',
           'complete', 1, ${VIDEO_SECONDS}, 'avc', 'mp4a.40.2', ${q(at)}, ${q(at)});`,
      ]),
      ...chunks,
      `INSERT INTO session (${cols}) SELECT ${rootRow} FROM user WHERE realm = 'bench' AND nick LIKE 'root%' LIMIT 1;`,
    ].join('\n'),
  )
  return { sessions, tokens, rootToken }
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const base = ctx.base('localhost')
  const tag = Date.now().toString(36)
  const seeded = await seedViewers(ctx.state, tag)
  console.log(`${VIEWERS.toLocaleString('en')} viewers and their sessions written to D1`)
  /** The slot rows stored for a session, read back through the watchers API (every slot of the hour is full: 30 s). */
  const count = async (session: string) => {
    const res = await fetch(`${base}/api/csm/session/${session}/watchers`, { headers: { 'x-api-key': seeded.rootToken, 'x-api-realm': 'bench' } })
    const page = (await res.json()) as { aggregate: { watched_seconds: number; bucket: number } }
    return Math.round(page.aggregate.watched_seconds / page.aggregate.bucket)
  }
  const [paced, burst] = seeded.sessions
  const report = async (session: string, token: string, slot: number) => {
    const res = await fetch(`${base}/api/csm/session/${session}/watch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': token, 'x-api-realm': 'bench' },
      body: JSON.stringify({ slots: [slot] }),
    })
    if (!res.ok) throw new Error(`watch: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }

  let ceilingError = ''
  let pacedError = ''
  // Each viewer's moment within a period (the same every period, as a player's timer).
  const offsets = seeded.tokens.map(() => Math.random() * PERIOD_MS)
  let t0 = 0
  return [
    {
      name: `${VIEWERS} viewers, one report each every ${PERIOD_MS / 1000} s (30 s compressed ${(30_000 / PERIOD_MS).toFixed(1)}×), ${ROUNDS} periods`,
      concurrency: VIEWERS,
      requests: VIEWERS * ROUNDS,
      before: async () => {
        t0 = performance.now()
      },
      // Waiting for the viewer's moment is outside the timing: only the report is timed.
      beforeEach: async (i) => {
        const due = t0 + Math.floor(i / VIEWERS) * PERIOD_MS + offsets[i % VIEWERS]
        await sleep(Math.max(0, due - performance.now()))
      },
      run: (i) =>
        report(paced, seeded.tokens[i % VIEWERS], Math.floor(i / VIEWERS)).catch((err: unknown) => {
          pacedError ||= String(err)
          throw err
        }),
      after: async () => {
        const rows = await count(paced)
        return (
          `offered ${((VIEWERS / PERIOD_MS) * 1000).toFixed(0)} reports/s (real time: ${(VIEWERS / 30).toFixed(0)}/s), each one new slot row; ` +
          `${rows.toLocaleString('en')} rows in D1 (expected ${(VIEWERS * ROUNDS).toLocaleString('en')})${pacedError ? `; first failure: ${pacedError.slice(0, 120)}` : ''}`
        )
      },
    },
    {
      name: `Ceiling: the same reports as fast as 200 connections go`,
      concurrency: 200,
      requests: VIEWERS * 2,
      run: (i) =>
        report(burst, seeded.tokens[i % VIEWERS], Math.floor(i / VIEWERS)).catch((err: unknown) => {
          ceilingError ||= String(err)
          throw err
        }),
      after: async () => {
        const rows = await count(burst)
        return `${rows.toLocaleString('en')} rows in D1 (expected ${(VIEWERS * 2).toLocaleString('en')})${ceilingError ? `; first failure: ${ceilingError.slice(0, 120)}` : ''}`
      },
    },
  ]
}
