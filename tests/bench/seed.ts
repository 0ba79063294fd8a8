/**
 * Seeds the bench realm (`bench`, served at bench.localhost) into a local D1 state directory before the server
 * starts: 100,000 users, 100,000 ledger movements, 100,000 question-bank items and 10,000 task models, and a class of
 * 500 of those users (room `bench-class`) each with a session of the web client (token `benchStudentToken(i)`), for
 * the delivery bench. Each table is filled by one INSERT … SELECT over a recursive counter inside SQLite, so seeding
 * takes seconds, not API calls.
 * The realm, its roles and its root account are copies of the demo realm's (root signs in with demo1234).
 * Idempotent: a state that already holds the bench realm is left alone.
 */
import { getPlatformProxy } from 'wrangler'
import { sha256Hex } from '../../worker/lib/crypto'
import { DIM_METRICS, TAB_METRICS } from '../../worker/db/analytics'

export const BENCH_ROWS = {
  users: 100_000,
  movements: 100_000,
  bank: 100_000,
  models: 10_000,
  'students in bench-class': 500,
  'analytics rollup days': 365,
  'answers delivered today': 20_000,
}
/** The analytics bench's rooms (bench-room-001 …) and their room categories (bench-cat-01 …, 20 rooms each). */
export const BENCH_ROOMS = 200
/** The class of the delivery bench: its room and its students u000001 … u000500. */
export const BENCH_CLASS = 'bench-class'
/** The session token of student `i` (1-based) of the bench class: known to the bench, stored hashed as every token. */
export const benchStudentToken = (i: number) => `bench-student-session-${String(i).padStart(6, '0')}`
/** A word only a handful of rows carry (the "rare text search" row of the bench). */
export const RARE_WORD = 'zanzibarite'

const counter = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`
// Names built from two small lists (and the counter), so a word like "Silva" matches about 1 row in 20.
const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elisa',
  'Fábio',
  'Gabriela',
  'Hugo',
  'Iara',
  'João',
  'Karina',
  'Lucas',
  'Marta',
  'Nuno',
  'Olga',
  'Paulo',
  'Queila',
  'Rafael',
  'Sofia',
  'Tiago',
]
const LAST = [
  'Silva',
  'Souza',
  'Costa',
  'Santos',
  'Oliveira',
  'Pereira',
  'Lima',
  'Carvalho',
  'Ribeiro',
  'Almeida',
  'Gomes',
  'Martins',
  'Rocha',
  'Dias',
  'Barbosa',
  'Melo',
  'Castro',
  'Teixeira',
  'Moreira',
  'Nunes',
  'Freitas',
  'Cardoso',
  'Mendes',
]
const pick = (list: string[], expr: string) => `(CASE ${expr} % ${list.length} ${list.map((w, k) => `WHEN ${k} THEN '${w}'`).join(' ')} END)`
const rare = (base: string) => `CASE WHEN i % 20000 = 7 THEN ${base} || ' ${RARE_WORD}' ELSE ${base} END`
const STAMP = `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i % 300) || ' days', '+' || (i % 86400) || ' seconds')`

/** The demo realm's root account (its nick carries the realm's nick suffix). */
const ROOT = `'root' || (SELECT nick_suffix FROM realm WHERE code = 'demo')`

async function columns(db: D1Database, table: string): Promise<string[]> {
  const { results } = await db.prepare(`SELECT name FROM pragma_table_info(?)`).bind(table).all<{ name: string }>()
  return results.map((r) => r.name)
}

/** INSERT INTO table SELECT … FROM table WHERE realm = 'demo', with the realm column (and `overrides`) replaced. */
async function copyRows(db: D1Database, table: string, realmColumn: string, where: string, overrides: Record<string, string> = {}) {
  const cols = await columns(db, table)
  const select = cols.map((c) => (c === realmColumn ? `'bench'` : (overrides[c] ?? `"${c}"`)))
  return db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}" WHERE ${where}`)
}

export async function seedBench(db: D1Database): Promise<boolean> {
  if (await db.prepare(`SELECT 1 FROM realm WHERE code = 'bench'`).first()) return false
  const { users, movements, bank, models } = BENCH_ROWS
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
  await db.batch([
    await copyRows(db, 'realm', 'code', `code = 'demo'`, { name: `'Bench'` }),
    db.prepare(`INSERT INTO realm_host (host, realm) VALUES ('bench.localhost', 'bench')`),
    await copyRows(db, 'role', 'realm', `realm = 'demo'`),
    await copyRows(db, 'role_permission', 'realm', `realm = 'demo'`),
    await copyRows(db, 'user', 'realm', `realm = 'demo' AND nick = ${ROOT}`, { origin_realm: `'bench'` }),
    await copyRows(db, 'user_role', 'realm', `realm = 'demo' AND nick = ${ROOT}`),
  ])
  const userCols = ['realm', 'nick', 'name', 'email', 'phone', 'external_id', 'origin_realm', 'created_at', 'updated_at']
  const userValues = [
    `'bench'`,
    `printf('u%06d', i)`,
    rare(`${pick(FIRST, 'i')} || ' ' || ${pick(LAST, '(i / 20)')} || ' ' || i`),
    `printf('user%06d@bench.example', i)`,
    `printf('+55 11 9%08d', i)`,
    `printf('ext-%06d', i)`,
    `'bench'`,
    STAMP,
    STAMP,
  ]
  await db.batch([
    db.prepare(`${counter(users)} INSERT INTO user (${userCols.join(', ')}) SELECT ${userValues.join(', ')} FROM n`),
    db.prepare(`${counter(users)} INSERT INTO user_role (realm, nick, role, position) SELECT 'bench', printf('u%06d', i), 'student', 0 FROM n`),
  ])
  // Ledger: one issuance account and 1,000 wallets; each movement issues 1–10 credits into one wallet (entries
  // first, then the transaction rows whose trigger checks that their entries balance), balances as the sums.
  const wallets = 1000
  await db.batch([
    db.prepare(
      `INSERT INTO ledger_account (id, realm, kind, owner, balance, created_at, updated_at) VALUES ('issuance:bench:', 'bench', 'issuance', '', 0, ${now}, ${now})`,
    ),
    db.prepare(
      `${counter(wallets)} INSERT INTO ledger_account (id, realm, kind, owner, balance, created_at, updated_at) SELECT 'user:bench:' || printf('u%06d', i), 'bench', 'user', printf('u%06d', i), 0, ${now}, ${now} FROM n`,
    ),
    db.prepare(
      `${counter(movements)} INSERT INTO ledger_entry (transaction_id, realm, account_id, amount, created_at)
       SELECT printf('bench-tx-%06d', i), 'bench', 'issuance:bench:', -(1 + i % 10), ${STAMP} FROM n
       UNION ALL SELECT printf('bench-tx-%06d', i), 'bench', 'user:bench:' || printf('u%06d', 1 + i % ${wallets}), 1 + i % 10, ${STAMP} FROM n`,
    ),
    db.prepare(
      `${counter(movements)} INSERT INTO ledger_transaction (id, realm, type, actor, description, billing_key, points, created_at)
       SELECT printf('bench-tx-%06d', i), 'bench', 'issuance', 'root', ${rare(`'bench issuance ' || i`)}, printf('bench-bill-%06d', i), 1 + i % 10, ${STAMP} FROM n`,
    ),
    db.prepare(
      `UPDATE ledger_account SET balance = (SELECT COALESCE(SUM(amount), 0) FROM ledger_entry e WHERE e.account_id = ledger_account.id) WHERE realm = 'bench'`,
    ),
  ])
  await db.batch([
    db.prepare(
      `${counter(bank)} INSERT INTO tms_question_bank (id, realm, type, statement, statement_text, difficulty, created_at, created_by, updated_at, updated_by)
       SELECT printf('bench-q-%06d', i), 'bench', 'text', '<p>' || ${rare(`'Question ' || i || ' about ' || ${pick(LAST, 'i')}`)} || '</p>',
         ${rare(`'Question ' || i || ' about ' || ${pick(LAST, 'i')}`)}, CASE i % 3 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' ELSE 'hard' END,
         ${STAMP}, 'root', ${STAMP}, 'root' FROM n`,
    ),
    db.prepare(
      `${counter(models)} INSERT INTO tms_model (id, realm, title, description, created_at, created_by, updated_at, updated_by)
       SELECT printf('bench-m-%05d', i), 'bench', ${rare(`'Model ' || i || ' ' || ${pick(LAST, 'i')}`)}, '', ${STAMP}, 'root', ${STAMP}, 'root' FROM n`,
    ),
  ])
  await seedBenchClass(db)
  await seedBenchAnalytics(db)
  return true
}

/** The delivery bench's class: a room of the first 500 users with a web session each (valid 30 days from seeding). */
async function seedBenchClass(db: D1Database) {
  const students = BENCH_ROWS['students in bench-class']
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
  const sessions = await Promise.all(
    Array.from({ length: students }, async (_, k) => `('${await sha256Hex(benchStudentToken(k + 1))}', 'u${String(k + 1).padStart(6, '0')}')`),
  )
  await db.batch([
    db.prepare(`INSERT INTO room (id, realm, name, created_at, updated_at) VALUES ('${BENCH_CLASS}', 'bench', 'Bench class', ${now}, ${now})`),
    db.prepare(
      `${counter(students)} INSERT INTO room_member (realm, room_id, nick, added_at) SELECT 'bench', '${BENCH_CLASS}', printf('u%06d', i), ${now} FROM n`,
    ),
    db.prepare(
      `INSERT INTO session (token_hash, realm, nick, device_id, platform, created_at, last_seen_at, expires_at)
       SELECT column1, 'bench', column2, 'bench-device-' || column2, 'web', ${now}, ${now}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+30 days')
       FROM (VALUES ${sessions.join(', ')})`,
    ),
  ])
}

/**
 * The analytics bench (issue 19): a year of daily rollups of the bench realm's 100,000 students in 200 rooms (10
 * room categories), as the scheduled job leaves them — realm totals, per-room rows, scores per task category and
 * skill, essay errors per room — each day marked computed; and today's base rows the current day is counted from:
 * 50 tasks published today and 20,000 answers delivered and corrected today.
 */
async function seedBenchAnalytics(db: D1Database) {
  const rooms = BENCH_ROOMS
  const days = BENCH_ROWS['analytics rollup days']
  const answers = BENCH_ROWS['answers delivered today']
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
  // The realm's calendar is São Paulo's (UTC−3): day k before today.
  const day = (k: string) => `date('now', '-3 hours', '-' || ${k} || ' days')`
  const realmMetrics = [...new Set(Object.values(TAB_METRICS).flat())].filter((m) => !DIM_METRICS.has(m))
  const roomMetrics = ['delivered', 'on_time', 'late', 'published', 'opened', 'corrected', 'sessions_held', 'views', 'watched_seconds', 'watchable_seconds']
  const values = (names: string[]) => names.map((m) => `('${m}')`).join(', ')
  const value = `(ABS(RANDOM()) % 5000) + 1`
  await db.batch([
    db.prepare(
      `${counter(rooms)} INSERT INTO room_category (id, realm, name, created_at, updated_at)
       SELECT printf('bench-cat-%02d', i), 'bench', printf('Série %02d', i), ${now}, ${now} FROM n WHERE i <= ${rooms / 20}`,
    ),
    db.prepare(
      `${counter(rooms)} INSERT INTO room (id, realm, name, category_id, created_at, updated_at)
       SELECT printf('bench-room-%03d', i), 'bench', printf('Turma %03d', i), printf('bench-cat-%02d', 1 + (i - 1) / 20), ${now}, ${now} FROM n`,
    ),
    db.prepare(
      `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < ${days - 1}), m(name) AS (VALUES ${values(realmMetrics)})
       INSERT INTO analytics_daily (realm, room_id, day, metric, dim, value) SELECT 'bench', '*', ${day('k')}, name, '', ${value} FROM d, m`,
    ),
    db.prepare(
      `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < ${days - 1}), r(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM r WHERE j < ${rooms}),
         m(name) AS (VALUES ${values(roomMetrics)})
       INSERT INTO analytics_daily (realm, room_id, day, metric, dim, value) SELECT 'bench', printf('bench-room-%03d', j), ${day('k')}, name, '', ${value} % 200 FROM d, r, m`,
    ),
    // Scores by 20 task categories and grades by 10 skills (realm totals), essay errors by category in every room.
    db.prepare(
      `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < ${days - 1}), c(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM c WHERE j < 20),
         m(name) AS (VALUES ('scored'), ('score_sum'), ('graded'), ('grade_sum'))
       INSERT INTO analytics_daily (realm, room_id, day, metric, dim, value)
       SELECT 'bench', '*', ${day('k')}, name, CASE WHEN name IN ('scored', 'score_sum') THEN printf('bench-tc-%02d', j) ELSE printf('bench-sk-%02d', j % 10) END, ${value}
       FROM d, c, m WHERE name IN ('scored', 'score_sum') OR j <= 10`,
    ),
    db.prepare(
      `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < ${days - 1}), r(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM r WHERE j < ${rooms}),
         e(cat) AS (VALUES ('orthography'), ('morphology'), ('syntax'), ('semantics'), ('language'), ('others'))
       INSERT INTO analytics_daily (realm, room_id, day, metric, dim, value) SELECT 'bench', printf('bench-room-%03d', j), ${day('k')}, 'essay_errors', cat, ABS(RANDOM()) % 40 FROM d, r, e`,
    ),
    // Distinct active users of each month and year of the range.
    db.prepare(
      `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < ${days - 1})
       INSERT OR REPLACE INTO analytics_daily (realm, room_id, day, metric, dim, value)
       SELECT 'bench', '*', substr(${day('k')}, 1, 7), 'active_users', '', 60000 FROM d
       UNION SELECT 'bench', '*', substr(${day('k')}, 1, 4), 'active_users', '', 95000 FROM d`,
    ),
    // The monthly rollups of those days (what rollupDay writes with each day).
    db.prepare(
      `INSERT INTO analytics_monthly (realm, room_id, month, metric, dim, value)
       SELECT realm, room_id, substr(day, 1, 7), metric, dim, SUM(value) FROM analytics_daily WHERE realm = 'bench' AND length(day) = 10
       GROUP BY room_id, substr(day, 1, 7), metric, dim`,
    ),
    // And the yearly rollups of those months (rollupDay writes them in the same batch too).
    db.prepare(
      `INSERT INTO analytics_yearly (realm, room_id, year, metric, dim, value)
       SELECT realm, room_id, substr(month, 1, 4), metric, dim, SUM(value) FROM analytics_monthly WHERE realm = 'bench'
       GROUP BY room_id, substr(month, 1, 4), metric, dim`,
    ),
    db.prepare(
      `WITH RECURSIVE d(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM d WHERE k < ${days - 1})
       INSERT INTO analytics_rollup (realm, day, computed_at) SELECT 'bench', ${day('k')}, ${now} FROM d`,
    ),
  ])
  // Today: 50 tasks published to the rooms, 20,000 answers delivered and corrected (with skill grades and marks).
  await db.batch([
    db.prepare(
      `${counter(50)} INSERT INTO tms_task (id, realm, model_id, model_version, title, publish_at, expire_at, categories, created_at, updated_at)
       SELECT printf('bench-t-%02d', i), 'bench', printf('bench-m-%05d', i), 1, 'Task ' || i, ${now}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+7 days'),
         json_array(printf('bench-tc-%02d', 1 + i % 20)), ${now}, ${now} FROM n`,
    ),
    db.prepare(
      `${counter(50)} INSERT INTO tms_task_target (task_id, realm, room_id) SELECT printf('bench-t-%02d', i), 'bench', printf('bench-room-%03d', 1 + i % ${rooms}) FROM n`,
    ),
    db.prepare(
      `${counter(answers)} INSERT INTO tms_answer (id, realm, task_id, nick, room_id, client_id, status, opened_at, delivered_at, delivery, score, max_score,
         skill_grades, marks, corrected_at, created_at, updated_at)
       SELECT printf('bench-a-%06d', i), 'bench', printf('bench-t-%02d', 1 + i % 50), printf('u%06d', i), printf('bench-room-%03d', 1 + i % ${rooms}), 'c' || i,
         'finished', ${now}, ${now}, CASE WHEN i % 7 = 0 THEN 'delayed' ELSE 'on_time' END, i % 11, 10,
         json_object('q1', json_object(printf('bench-sk-%02d', i % 10), i % 11)), json_object('q1', json_array(json_object('category', 'orthography', 'excerpt', 'x'))),
         ${now}, ${now}, ${now} FROM n`,
    ),
  ])
}

/** Seeds the bench realm into a local state directory (the server must not be running on it). */
export async function seedBenchState(stateDir: string): Promise<boolean> {
  const proxy = await getPlatformProxy<Env>({ configPath: 'wrangler.toml', persist: { path: `${stateDir}/v3` } })
  try {
    return await seedBench(proxy.env.DB)
  } finally {
    await proxy.dispose()
  }
}
