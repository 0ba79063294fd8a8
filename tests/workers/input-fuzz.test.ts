import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { assetEntity } from '#shared/schemas/asset'
import { categoryEntity as roomCategoryEntity } from '#shared/schemas/category'
import { isErrorEnvelope } from '#shared/schemas/error'
import { extraFieldEntity } from '#shared/schemas/extra-field'
import { contentEntity, packageEntity } from '#shared/schemas/ledger-entity'
import { metaverseRoomEntity } from '#shared/schemas/metaverse'
import { PERMISSIONS } from '#shared/schemas/permission'
import { realmEntity } from '#shared/schemas/realm'
import { reportEntity } from '#shared/schemas/report'
import { roomEntity, roomGroupEntity } from '#shared/schemas/room'
import { bankEntity } from '#shared/schemas/tms/bank'
import tmsCategoryEntity from '#shared/entities/tms-category'
import { modelEntity } from '#shared/schemas/tms/model'
import { taskEntity } from '#shared/schemas/tms/task'
import { userEntity } from '#shared/schemas/user'
import { createApi, versionHeader } from '../../worker/api'
import { endpointAccess } from '../../worker/lib/guard'
import worker from '../../worker/index'
import { propertyRuns } from '../support/property-runs'
import { DEMO, userWith } from './helpers'

/**
 * Issue 11: malformed input never gets a 5xx. Every API route of the route table (each method and path, path
 * parameters filled with real and with hostile values) receives bodies and query strings of wrong types, with
 * missing and extra fields, huge and deep values and bad encodings, from a user holding every permission (so the
 * request gets past the permission check to validation). Every answer must be below 500, every refusal must be the
 * error envelope, and a refused request must change no row of any table.
 *
 * Three passes: a valid body of every route that has one (its entity's GET answer, or an example written here) with
 * each text field in turn replaced by a value that has broken parsers; a fixed sweep of every route (empty, deep,
 * non-UTF-8, non-JSON and wrongly typed bodies, a hostile query string, bad path parameters); then FUZZ_RUNS random
 * cases (default 100, times PROPERTY_SCALE) from FUZZ_SEED (default 11). A failure prints the seed, so
 * `FUZZ_SEED=<seed> FUZZ_RUNS=<n> npx vitest run --project workers tests/workers/input-fuzz.test.ts` replays it.
 */
const RUNS = Number(env.FUZZ_RUNS) || propertyRuns(100, env.PROPERTY_SCALE)
const SEED = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : 11

type Route = { method: string; path: string; params: string[]; body: boolean }
const routes: Route[] = createApi()
  .routes.filter((r) => r.handler !== versionHeader && !(r.method === 'ALL' && r.path === '/*') && endpointAccess(r.handler) !== undefined)
  .map((r) => {
    const method = r.method === 'ALL' ? 'POST' : r.method
    return { method, path: r.path, params: [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]), body: ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) }
  })

// ---------------------------------------------------------------------------------------------------------------
// Changes to the database. Every table gets test-only triggers (created in beforeAll, never in a migration) that
// note each inserted, updated or deleted row in `fuzz_change`; a refused request must leave no row noted. This sees
// every write, even one that restores the same values, and costs one query per case whatever the size of the data
// (a dump of every table, compared before and after, grew slower with every row the run added).

/**
 * Writes that are right on a refused request, left out:
 * - `signin_throttle`: counting refused sign-ins is what it is for (wrong password, bad captcha).
 * - `signing_key`: the captcha key is created on first use, whatever the outcome of that request.
 * - `session.last_seen_at`: authentication refreshes it (once a minute) before the body is validated.
 * Everything else (error_log, audit_log and the captcha challenges included) must not change.
 */
const EXCLUDED_TABLES = new Set(['signin_throttle', 'signing_key'])
const EXCLUDED_COLUMNS: Record<string, string[]> = { session: ['last_seen_at'] }

async function watchTables(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'fuzz_change') ORDER BY name",
  ).all<{ name: string }>()
  const statements = [
    env.DB.prepare('CREATE TABLE IF NOT EXISTS fuzz_change (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, op TEXT NOT NULL, row INTEGER)'),
  ]
  // Full-text indexes (virtual tables, and their shadow tables `<index>_data`, …) mirror their base tables, which are watched.
  const virtual = (
    await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all<{ name: string }>()
  ).results.map((r) => r.name)
  const derived = (table: string) => virtual.some((v) => table === v || table.startsWith(`${v}_`))
  for (const { name } of results.filter((r) => !EXCLUDED_TABLES.has(r.name) && !derived(r.name))) {
    const columns = (await env.DB.prepare('SELECT name FROM pragma_table_info(?)').bind(name).all<{ name: string }>()).results.map((r) => r.name)
    const watched = columns.filter((c) => !EXCLUDED_COLUMNS[name]?.includes(c))
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      const event = op === 'UPDATE' && watched.length < columns.length ? `UPDATE OF ${watched.map((c) => `"${c}"`).join(', ')}` : op
      const row = op === 'DELETE' ? 'OLD.rowid' : 'NEW.rowid'
      statements.push(
        env.DB.prepare(
          `CREATE TRIGGER IF NOT EXISTS "fuzz_${op.toLowerCase()}_${name}" AFTER ${event} ON "${name}" BEGIN INSERT INTO fuzz_change (tbl, op, row) VALUES ('${name}', '${op}', ${row}); END`,
        ),
      )
    }
  }
  await env.DB.batch(statements)
}

/**
 * The rows written since the last call (`table op ×n`), and a clean slate for the next case. A row inserted and
 * deleted again within the request left nothing behind (the ledger claims an idempotency key, then frees it when the
 * call is refused), so it does not count.
 */
async function takeChanges(): Promise<string[]> {
  const [noted] = await env.DB.batch([env.DB.prepare('SELECT tbl, op, row FROM fuzz_change ORDER BY seq'), env.DB.prepare('DELETE FROM fuzz_change')])
  const byRow = new Map<string, string[]>()
  for (const r of noted.results as { tbl: string; op: string; row: number }[]) byRow.set(`${r.tbl}:${r.row}`, [...(byRow.get(`${r.tbl}:${r.row}`) ?? []), r.op])
  const left = new Map<string, number>()
  for (const [row, ops] of byRow) {
    if (ops[0] === 'INSERT' && ops[ops.length - 1] === 'DELETE') continue
    const what = `${row.split(':')[0]} ${ops[ops.length - 1]}`
    left.set(what, (left.get(what) ?? 0) + 1)
  }
  return [...left].map(([what, n]) => `${what} ×${n}`)
}

// ---------------------------------------------------------------------------------------------------------------
// Values: real ones (so a request reaches the code behind validation) and hostile ones.

/** Path parameters that exist, per route path pattern (first match wins); a parameter not listed gets hostile values only. */
const PLAUSIBLE_SQL: [RegExp, string, string][] = [
  [/\/mas\/permission\/:role/, 'role', "SELECT role AS v FROM role WHERE realm = 'demo' AND description <> 'matrix'"],
  [/:code|:realm/, 'code|realm', "SELECT code AS v FROM realm WHERE code IN ('demo', 'demo-sul')"],
  [/\/mas\/realm\/:id/, 'id', "SELECT code AS v FROM realm WHERE code IN ('demo-sul', 'demo-norte')"],
  [/\/metaverse_room\/:id/, 'id', "SELECT id AS v FROM metaverse_room WHERE realm = 'demo'"],
  [/\/mas\/file\/:id/, 'id', "SELECT id AS v FROM file WHERE realm = 'demo'"],
  [/\/mas\/user\/:nick/, 'nick', "SELECT nick AS v FROM user WHERE realm = 'demo' AND name NOT LIKE 'Matrix %'"],
  [/\/room\/room\/:id\/member\/:nick/, 'nick', "SELECT nick AS v FROM user WHERE realm = 'demo' AND name NOT LIKE 'Matrix %'"],
  [/\/mas\/report\/:id/, 'id', "SELECT id AS v FROM complaint_report WHERE realm = 'demo'"],
  [/\/mas\/extra_field\/form\/:entity/, 'entity', "SELECT DISTINCT entity AS v FROM extra_field WHERE realm = 'demo' UNION SELECT 'room' UNION SELECT 'task'"],
  [/\/mas\/extra_field\/:id/, 'id', "SELECT id AS v FROM extra_field WHERE realm = 'demo'"],
  [/\/mas\/audit_log\/:id/, 'id', "SELECT id AS v FROM audit_log WHERE realm = 'demo' LIMIT 3"],
  [/\/mas\/error_log\/:id/, 'id', 'SELECT id AS v FROM error_log LIMIT 3'],
  [/\/ledger\/content\/:(key|id)/, 'key|id', "SELECT key AS v FROM ledger_content WHERE realm = 'demo'"],
  [/\/ledger\/package\/:id/, 'id', "SELECT id AS v FROM ledger_package WHERE realm = 'demo'"],
  [/\/ledger\/(transaction\/intent|sandbox\/\w+)\/:id/, 'id', "SELECT id AS v FROM ledger_payment_intent WHERE realm = 'demo' LIMIT 3"],
  [/\/ledger\/wallet\/:id/, 'id', "SELECT nick AS v FROM user WHERE realm = 'demo' AND name NOT LIKE 'Matrix %' UNION SELECT 'demo-sul'"],
  [/\/ledger\/webhook\/:provider/, 'provider', "SELECT 'sandbox-card' AS v UNION SELECT 'sandbox-regional'"],
  [/\/room\/category\/:id/, 'id', "SELECT id AS v FROM room_category WHERE realm = 'demo'"],
  [/\/asset\/:id/, 'id', "SELECT id AS v FROM asset WHERE realm = 'demo'"],
  [/\/tms\/model\/:id\/category\/:categoryId/, 'categoryId', "SELECT id AS v FROM tms_category WHERE realm = 'demo'"],
  [/\/tms\/model\/:id/, 'id', "SELECT id AS v FROM tms_model WHERE realm = 'demo'"],
  [/\/tms\/task\/options\/:modelId/, 'modelId', "SELECT id AS v FROM tms_model WHERE realm = 'demo'"],
  [/\/tms\/task\/:id/, 'id', "SELECT id AS v FROM tms_task WHERE realm = 'demo'"],
  [/\/tms\/token\/task\/:taskId/, 'taskId', "SELECT id AS v FROM tms_task WHERE realm = 'demo'"],
  [/\/room\/:roomName/, 'roomName', "SELECT name AS v FROM room WHERE realm = 'demo'"],
  [/\/tms\/question_bank\/:id/, 'id', "SELECT id AS v FROM tms_question_bank WHERE realm = 'demo'"],
  [/\/tms\/category\/:id/, 'id', "SELECT id AS v FROM tms_category WHERE realm = 'demo'"],
  [/\/tms\/assessed_skill\/:id/, 'id', "SELECT id AS v FROM tms_assessed_skill WHERE realm = 'demo'"],
  [/\/tms\/genre\/:id/, 'id', "SELECT id AS v FROM tms_genre WHERE realm = 'demo'"],
  [/\/room\/room\/:id/, 'id', "SELECT id AS v FROM room WHERE realm = 'demo'"],
  [/\/room\/group\/:id/, 'id', "SELECT id AS v FROM room_group WHERE realm = 'demo'"],
]
/** Real values per route and parameter, read once the demo data is seeded. */
const plausible = new Map<string, string[]>()

/** Path segments that are not what the route expects, written raw: bad percent-encodings, traversal, NUL, huge. */
const HOSTILE_SEGMENTS = [
  'sample',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%80',
  '%FF',
  '%00',
  '..',
  '%2e%2e%2f',
  '%2F',
  '-1',
  '0',
  '1e999',
  'x'.repeat(3000),
  '%F0%9F%98%80',
  'null',
  '%20',
]

/** Strings that have broken parsers before: bad URLs, encodings, control and bidirectional characters, SQL. */
const NASTY_STRINGS = [
  '',
  ' ',
  'a:b',
  'javascript:alert(1)',
  'http://[',
  'https://a:b',
  '//evil.example',
  '%',
  '%zz',
  '\u0000',
  'a\u0000b',
  '\u202Egnp.exe',
  '\uD800',
  '\uFEFF',
  "' OR 1=1 --",
  '"; DROP TABLE user; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '1e309',
  'NaN',
  '-1',
  'true',
  'null',
  '2025-13-45',
  '9999-99-99T99:99',
  'demo',
  'escola',
  'root@demo',
  'teacher',
  'x'.repeat(5000),
  '日本語',
  '🙂'.repeat(100),
  '0x10',
  '{}',
  '[]',
  '__proto__',
  'constructor',
  // Values that pass one rule, so the next rule (and the code behind validation) is reached.
  'link',
  'upload',
  'youtube',
  'group',
  'skill',
  'https://example.com/v.mp4',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  '/ledger/balance',
  'teacher@demo',
  'demo-sul',
  'm-demo-fractions',
  'sandbox-card',
  'pkg_demo_start',
  'lesson.summary',
  'ftp://files.example.org/a',
  'example.org',
  'a@b.co',
]

/** Field names worth sending: every field of the declared entities and the bodies written by hand. */
const FIELD_POOL = [
  ...new Set([
    ...[
      realmEntity,
      assetEntity,
      roomCategoryEntity,
      extraFieldEntity,
      contentEntity,
      packageEntity,
      metaverseRoomEntity,
      reportEntity,
      roomEntity,
      roomGroupEntity,
      bankEntity,
      tmsCategoryEntity,
      modelEntity,
      taskEntity,
      userEntity,
    ].flatMap((e) => Object.keys(e.fields)),
    ...[
      'provider_data',
      'return_url',
      'transaction_amount',
      'leaf_realm',
      'targets',
      'points',
      'idempotency_key',
      'csv',
      'sentences',
      'domains',
      'hosts',
      'admin',
      'password',
      'new_password',
      'key',
      'token',
    ],
    ...[
      'answer',
      'session_key',
      'realm',
      'nick',
      'provider',
      'product_id',
      'product_type',
      'contents',
      'transaction_id',
      'category_id',
      'members',
      'permissions',
      'questions',
      'extra',
      'limit',
      'offset',
      'like',
      'order',
    ],
    ...['__proto__', 'constructor', ''],
  ]),
]

/**
 * A valid (or nearly valid) body for the routes written by hand; entity routes take theirs from the entity's own GET
 * answer. Cases mutate a few fields of these, so validation passes up to the field changed and the code behind it runs.
 */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  'POST /device': { realm: 'demo', nick: 'teacher', password: 'not-the-password' },
  'POST /mas/session/handover/claim': { code: 'x'.repeat(40) },
  'POST /mas/permission': { role: 'fuzzrole', description: 'fuzz', asset_asset_list: true },
  'PUT /mas/permission/:role': { description: 'fuzz', asset_asset_list: false },
  'PUT /mas/realm/:code/change': { leaf_realm: 'demo-sul' },
  'POST /mas/realm': { code: 'fz', name: 'Fuzz realm', parent_code: 'demo', dashboard_url: 'https://fz.example.org/' },
  'POST /registration/edusp': { realm: 'demo', id: 'RG123456789SP', password: 'not-the-password', platform: 'dashboard' },
  'POST /registration/edusp/token': { realm: 'demo', token: 'abc.def', platform: 'dashboard' },
  'POST /registration/:realm': { realm: 'demo', token: 'abc.def.ghi', provider: 'google' },
  'POST /mas/registration': { realm: 'demo', token: 'abc.def.ghi', provider: 'revalidate', with_permissions: true },
  'POST /captcha/challenge': { realm: 'demo', type: 'text', lang: 'en-US' },
  'POST /captcha/verify': { type: 'text', realm: 'demo', payload: { challengeId: 'abcdefgh12', answer: '1' } },
  'POST /mas/password/recover': { realm: 'demo', login: 'tutor' },
  'POST /mas/password/reset': { password: 'new-password-1', confirm: 'new-password-1' },
  'POST /mas/oauth2/authorize': {
    client_id: 'demo-reports',
    redirect_uri: 'http://localhost:8790/callback',
    response_type: 'code',
    scope: 'profile',
    state: 'st',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  },
  'POST /mas/oauth2/token': {
    grant_type: 'authorization_code',
    code: 'abc',
    redirect_uri: 'http://localhost:8790/callback',
    client_id: 'demo-reports',
    code_verifier: 'a'.repeat(43),
  },
  'POST /ledger/transaction/transfer': { targets: ['teacher@demo'], points: 1, description: 'fuzz' },
  'POST /ledger/transaction/debit': { contents: ['lesson.summary'] },
  'POST /ledger/transaction/sponsor': { realm: 'demo-sul', points: 1 },
  'POST /ledger/transaction/reversal': { transaction_id: 'abcd1234' },
  'POST /ledger/transaction/create-intent': { provider: 'sandbox-card', product_id: 'pkg_demo_start', provider_data: { return_url: '/ledger/balance' } },
  'POST /ledger/transaction/purchase': {
    provider: 'sandbox-regional',
    product_id: 'pkg_demo_start',
    provider_data: { transaction_amount: 10, return_url: '/ledger/balance' },
  },
  'POST /ledger/sandbox/pay/:id': { secret: 'x'.repeat(40), outcome: 'approve', card_number: '4242424242424242' },
  'PUT /ledger/content/:key': { name: 'Fuzz', points: 3 },
  'PUT /mas/realm/:realm/word_filter': { sentences: ['bad word'] },
  'PUT /mas/realm/:realm/exemption': { domains: ['example.org'] },
  'PUT /mas/config': { blocked_media_hosts: ['blocked.example'] },
  'POST /mas/user/import': { csv: 'nick,name\nfuzzimport,Fuzz Import', dry_run: true },
  'POST /mas/user': { nick: 'fuzzuser', name: 'Fuzz User', password: 'demo12345', roles: ['teacher'] },
  'PUT /mas/user/:nick/disable': { disabled: false },
  'POST /mas/report': { target_type: 'user', target_id: 'teacher@demo', reason: 'spam' },
  'PUT /mas/report/:id': { status: 'resolved' },
  'PUT /room/metaverse/token/generate': { host: 'meta.example.org', email: 'a@b.co' },
  'POST /tms/model/:id/duplicate': { title: 'Fuzz copy' },
  'POST /tms/model/:id/category': { category_id: 'c-demo-subject' },
  'POST /tms/task': { model_id: 'm-demo-fractions', publication_type: 'all' },
  'POST /room/room/:id/member': { nick: 'student@demo' },
}
/** Where a route's valid body comes from when it is not the usual GET of the same entity. */
const SEED_SOURCES: Record<string, string> = { 'POST /tms/model/import': '/tms/model/:id/export' }
/** Valid bodies per route: its example and the entity's GET answer (read in beforeAll). */
const seeds = new Map<Route, Record<string, unknown>[]>()

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n)
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 4 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.constantFrom(0, -1, 1, 1.5, -0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 100_000_000_000), weight: 2 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
)
const value: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: leaf, weight: 8 },
  { arbitrary: fc.array(leaf, { maxLength: 5 }), weight: 2 },
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELD_POOL.slice(0, 40), 'x', 'y'), leaf, { maxKeys: 4 }), weight: 2 },
  { arbitrary: fc.integer({ min: 20, max: 31 }).map((n) => JSON.parse(deepArray(n)) as unknown), weight: 1 },
  { arbitrary: fc.constant(Array.from({ length: 3000 }, (_, i) => i)), weight: 1 },
)

/** Values that pass a loose rule (a string, a number) and then broke the code behind it: URLs, encodings, sizes. */
const URL_POISONS = ['a:b', 'http://[', 'javascript:alert(1)', 'https://a:b', '//evil.example/x']
const TEXT_POISONS = ['x\u0000y', 'a:b', 'x\u202Ey', 'x'.repeat(3000), '%zz', "x'; --", '']
/** Field names that hold addresses. */
const URLISH = /url|uri|link|endpoint|href|src|terms|privacy/i
const MAX_FIELDS_PER_ROUTE = 40

/** A replacement for one field of a valid body: mostly strings that have broken parsers, else any value. */
const poison: fc.Arbitrary<unknown> = fc.oneof({ arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 }, { arbitrary: value, weight: 2 })

/** What goes in the body: an object built from the route's fields (some missing, some extra, values of any type), or raw text. */
type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string } | { kind: 'bytes'; bytes: number[] }
const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  "{'a':1}",
  'nul',
  '[1,2',
  '{"a":1}}',
  '\u0000',
  '"unterminated',
  deepArray(33),
  deepArray(50_000),
  deepObject(50_000),
  '[]',
  '"text"',
  '1',
  'null',
  'true',
  '{"__proto__":{"x":1}}',
]

function bodyArb(route: Route): fc.Arbitrary<Body> {
  const fields = requiredFields.get(route) ?? []
  const object = fc
    .record({
      present: fc.array(
        fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
        { minLength: fields.length, maxLength: fields.length },
      ),
      values: fc.array(value, { minLength: fields.length, maxLength: fields.length }),
      extra: fc.dictionary(fc.constantFrom(...FIELD_POOL), value, { maxKeys: 3 }),
    })
    .map(({ present, values, extra }): Body => {
      const out: Record<string, unknown> = { ...extra }
      fields.forEach((f, i) => present[i] && setPath(out, f, values[i]))
      return { kind: 'json', value: out }
    })
  const valid = seeds.get(route) ?? []
  // A valid body with one to three fields replaced (by a value of any type) or removed, sometimes with an extra one.
  const mutated = fc
    .record({
      base: fc.nat(),
      // Mostly one change, so the other fields stay valid and the changed one alone decides how far the request gets.
      changes: fc.array(fc.record({ key: fc.nat(), remove: fc.integer({ min: 0, max: 7 }).map((n) => n === 0), value: poison }), {
        minLength: 1,
        maxLength: 3,
        size: 'xsmall',
      }),
      extra: fc.option(fc.tuple(fc.constantFrom(...FIELD_POOL), value), { freq: 4 }),
    })
    .map(({ base, changes, extra }): Body => {
      const out = structuredClone(valid[base % Math.max(1, valid.length)] ?? {})
      const keys = [...new Set([...flatKeys(out), ...fields])]
      for (const ch of changes) {
        const key = keys.length ? keys[ch.key % keys.length] : FIELD_POOL[ch.key % FIELD_POOL.length]
        if (ch.remove) removePath(out, key)
        else setPath(out, key, ch.value)
      }
      if (extra) setPath(out, extra[0], extra[1])
      return { kind: 'json', value: out }
    })
  return fc.oneof(
    { arbitrary: mutated, weight: valid.length ? 8 : 0 },
    { arbitrary: object, weight: 4 },
    { arbitrary: value.map((v): Body => ({ kind: 'json', value: v })), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_BODIES).map((text): Body => ({ kind: 'raw', text })), weight: 2 },
    {
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 40 })
        .map((bytes): Body => ({ kind: 'bytes', bytes: [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, ...bytes, 0x22, 0x7d] })),
      weight: 1,
    },
    { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 1 },
  )
}

/** Top-level keys, and `key.sub` for the keys of nested objects (one level), as the envelope names fields. */
function flatKeys(o: Record<string, unknown>): string[] {
  return Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? [k, ...Object.keys(v).map((s) => `${k}.${s}`)] : [k]))
}

function removePath(target: Record<string, unknown>, path: string) {
  const keys = path.split('.')
  let at: unknown = target
  for (const k of keys.slice(0, -1)) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined
  if (at && typeof at === 'object') delete (at as Record<string, unknown>)[keys[keys.length - 1]]
}

/** `a.b.c` sets a nested field, as the envelope names nested failures. */
function setPath(target: Record<string, unknown>, path: string, v: unknown) {
  const keys = path.split('.')
  let at = target
  for (const k of keys.slice(0, -1)) {
    if (typeof at[k] !== 'object' || at[k] === null || Array.isArray(at[k])) at[k] = {}
    at = at[k] as Record<string, unknown>
  }
  at[keys[keys.length - 1]] = v
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zz',
  'multipart/form-data',
  'application/xml',
  null,
]
const contentType = fc.oneof({ arbitrary: fc.constant('application/json'), weight: 6 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 3 })

/** A raw query string: list parameters and fields with hostile values, repeated keys and broken percent-encodings. */
const QUERY_KEYS = [
  'limit',
  'offset',
  'like',
  'order',
  'from_realm',
  'realm',
  'created_at_from',
  'created_at_to',
  'type',
  'provider',
  'status',
  'nick',
  'kind',
  'tab',
  'format',
  'code',
  ...FIELD_POOL.slice(0, 30),
]
const QUERY_VALUES = [
  'abc',
  '-1',
  '0',
  '1001',
  '1e999',
  '25.5',
  '%',
  '%zz',
  '%FF',
  '%00',
  '%E0%A4%A',
  'x'.repeat(3000),
  '-created_at',
  'name;drop',
  '__proto__',
  '',
  '2025-02-30',
  'true',
  'a,b,,c',
  '%2C%2C',
]
const queryArb = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(fc.constantFrom(...QUERY_VALUES), fc.string({ maxLength: 10 }).map(encodeURIComponent))), {
    maxLength: 5,
  })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'))

interface Case {
  route: Route
  params: string[]
  query: string
  body: Body
  contentType: string | null
}

function describeCase(c: Case): string {
  const body =
    c.body.kind === 'json'
      ? JSON.stringify(c.body.value)
      : c.body.kind === 'raw'
        ? c.body.text
        : c.body.kind === 'bytes'
          ? `bytes ${c.body.bytes.join(',')}`
          : '(none)'
  return `${c.route.method} ${urlOf(c)} content-type=${c.contentType} body=${body.length > 300 ? `${body.slice(0, 300)}… (${body.length} chars)` : body}`
}

function urlOf(c: Case): string {
  let i = 0
  const path = c.route.path.replace(/:[A-Za-z_]+/g, () => c.params[i++])
  return `/api${path}${c.query ? `?${c.query}` : ''}`
}

/**
 * Sends a case to the Worker's own fetch handler, as SELF.fetch would, with waitUntil work awaited so every write of
 * the request is seen. Called directly because SELF.fetch slows down with every request a test file makes (from
 * 5 ms to over 100 ms per request after a few hundred), which this file would feel most.
 */
async function send(c: Case, token: string): Promise<Response> {
  const headers = new Headers({ 'x-api-key': token, host: new URL(`http://${DEMO}`).host })
  let body: BodyInit | undefined
  if (c.route.body && c.body.kind !== 'none') {
    body = c.body.kind === 'json' ? JSON.stringify(c.body.value) : c.body.kind === 'raw' ? c.body.text : new Uint8Array(c.body.bytes)
    if (c.contentType) headers.set('content-type', c.contentType)
  }
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request(`http://${DEMO}${urlOf(c)}`, { method: c.route.method, headers, body, redirect: 'manual' }), env, ctx)
  const bytes = await res.arrayBuffer()
  const answer = new Response([101, 204, 205, 304].includes(res.status) ? null : bytes, res)
  await waitOnExecutionContext(ctx)
  return answer
}

/** The session the cases use (renewed after a write succeeds, which may have ended it). */
let token: string | null = null
/** The envelope items of the last refused case. */
let lastErrors: { field: string; cause: string }[] = []

/** Runs one case and reports what is wrong with its answer, or null. */
async function check(c: Case): Promise<string | null> {
  token ??= (await userWith('demo', PERMISSIONS)).token
  await takeChanges()
  const res = await send(c, token)
  const text = await res.text()
  lastErrors = []
  if (res.status === 401 || (res.status < 400 && c.route.method !== 'GET')) token = null
  if (res.status >= 500) return `${res.status}: ${text.slice(0, 300)}`
  if (res.status < 400) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return `${res.status} is not the error envelope: ${text.slice(0, 200)}`
  }
  if (!isErrorEnvelope(parsed) || !parsed.errors.length || parsed.errors.some((e) => Object.keys(e).sort().join() !== 'cause,field,message,value')) {
    return `${res.status} is not the error envelope: ${text.slice(0, 200)}`
  }
  lastErrors = parsed.errors
  const changed = await takeChanges()
  return changed.length ? `${res.status} refused, yet wrote ${changed.join(', ')}: ${text.slice(0, 200)}` : null
}

/** Required fields of a route's body, learnt from the envelope of an empty object (`required` items). */
const requiredFields = new Map<Route, string[]>()

function paramValues(route: Route, name: string): string[] {
  return plausible.get(`${route.path}|${name}`) ?? []
}

function caseArb(route: Route): fc.Arbitrary<Case> {
  const params = fc.tuple(
    ...route.params.map((name) => {
      const real = paramValues(route, name).map(encodeURIComponent)
      return real.length
        ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 3 }, { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 1 })
        : fc.constantFrom(...HOSTILE_SEGMENTS)
    }),
  )
  return fc.record({ route: fc.constant(route), params, query: queryArb, body: bodyArb(route), contentType })
}

describe('every API route under malformed input (fuzz, issue 11)', () => {
  beforeAll(async () => {
    // One asset, so the asset routes have a real id too (the demo data has none).
    await env.DB.prepare(
      "INSERT INTO asset (id, realm, name, type, provider, infra, url, created_at, updated_at, updated_by) VALUES ('fuzzasset1', 'demo', 'Fuzz', 'video', 'link', 'cdn', 'https://example.com/a.mp4', '2025-01-01', '2025-01-01', 'root@demo')",
    ).run()
    for (const route of routes) {
      for (const name of route.params) {
        const found = PLAUSIBLE_SQL.find(([pattern, names]) => pattern.test(route.path) && names.split('|').includes(name))
        if (!found) continue
        const rows = await env.DB.prepare(found[2]).all<{ v: string }>()
        plausible.set(`${route.path}|${name}`, rows.results.map((r) => String(r.v)).slice(0, 5))
      }
    }
    // Valid bodies: the hand-written examples, and what the entity's GET answers (PUT /x/:id ← GET /x/:id, POST /x ← GET /x/:id).
    const { token } = await userWith('demo', PERMISSIONS)
    for (const route of routes.filter((r) => r.body)) {
      const found: Record<string, unknown>[] = []
      const example = EXAMPLES[`${route.method} ${route.path}`]
      if (example) found.push(example)
      const sourcePath =
        SEED_SOURCES[`${route.method} ${route.path}`] ?? (route.method === 'PUT' ? route.path : route.method === 'POST' ? `${route.path}/:id` : undefined)
      const getRoute = routes.find((r) => r.method === 'GET' && r.path === sourcePath)
      const params = getRoute?.params.map((name) => paramValues(getRoute, name)[0])
      if (getRoute && params?.every(Boolean)) {
        const res = await send(
          { route: getRoute, params: params.map((p) => encodeURIComponent(p!)), query: '', body: { kind: 'none' }, contentType: null },
          token,
        )
        const got: unknown = res.status === 200 ? await res.json() : await res.body?.cancel()
        if (got && typeof got === 'object' && !Array.isArray(got)) found.push(Object.fromEntries(Object.entries(got).filter(([, v]) => v !== null)))
      }
      // An answer is not always a valid input (read-only or derived fields): drop what the route refuses, twice at most.
      const params2 = route.params.map((name) => encodeURIComponent(paramValues(route, name)[0] ?? 'sample'))
      for (const body of found) {
        for (let round = 0; round < 2; round++) {
          const res = await send(
            { route, params: params2, query: '', body: { kind: 'json', value: body }, contentType: 'application/json' },
            (await userWith('demo', PERMISSIONS)).token,
          )
          const answer = (await res.json().catch(() => null)) as { errors?: { field: string }[] } | null
          if (res.status !== 400 || !answer?.errors) break
          for (const e of answer.errors) if (e.field) removePath(body, e.field.split('.')[0])
        }
      }
      if (found.length) seeds.set(route, found)
    }
    await watchTables()
  })

  it('answers a valid body with each of its text fields in turn replaced by a value that has broken parsers', async () => {
    const failures: string[] = []
    let n = 0
    for (const [route, bodies] of seeds) {
      const params = route.params.map((name) => encodeURIComponent(paramValues(route, name)[0] ?? 'sample'))
      const valid = bodies[bodies.length - 1]
      // Text fields are where loose rules let a value through to code that parses it (URLs, names, encodings).
      const keys = flatKeys(valid).filter(
        (k) => typeof k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown> | undefined)?.[p], valid) === 'string',
      )
      // Address fields get every URL that has broken a parser; other text fields one hostile value each (at most 40 per route).
      const urls = keys.filter((k) => URLISH.test(k))
      const others = keys.filter((k) => !URLISH.test(k))
      const step = Math.max(1, Math.ceil(others.length / MAX_FIELDS_PER_ROUTE))
      const changes: [string, unknown][] = [
        ...urls.flatMap((k) => URL_POISONS.map((p): [string, unknown] => [k, p])),
        ...others.filter((_, i) => i % step === 0).map((k): [string, unknown] => [k, TEXT_POISONS[n++ % TEXT_POISONS.length]]),
      ]
      for (const [key, poisoned] of changes) {
        const body = structuredClone(valid)
        setPath(body, key, poisoned)
        const c: Case = { route, params, query: '', body: { kind: 'json', value: body }, contentType: 'application/json' }
        const problem = await check(c).catch((err: unknown) => `threw ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
        if (problem) failures.push(`${describeCase(c)}\n    → ${problem}`)
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
  }, 240_000)

  it('answers a fixed sweep of every route with no 5xx, the envelope on refusal and no change when refused', async () => {
    const failures: string[] = []
    // Deletions last: they remove the rows the other routes' real identifiers point to.
    for (const route of [...routes.filter((r) => r.method !== 'DELETE'), ...routes.filter((r) => r.method === 'DELETE')]) {
      const real = route.params.map((name) => encodeURIComponent(paramValues(route, name)[0] ?? 'sample'))
      const base: Case = { route, params: real, query: '', body: route.body ? { kind: 'json', value: {} } : { kind: 'none' }, contentType: 'application/json' }
      // The empty object teaches the route's required fields (the envelope names them); it is a case of its own too.
      const problem = await check(base)
      if (problem) failures.push(`${describeCase(base)}\n    → ${problem}`)
      const learnt = lastErrors
      requiredFields.set(route, [...new Set(learnt.filter((e) => e.cause === 'required' && e.field).map((e) => e.field))])
      // Then hostile bodies (deep, not UTF-8, not JSON, wrong types, wrong content type), a hostile query string and
      // path parameters that are not what the route expects.
      const sweep: Case[] = [
        { ...base, body: { kind: 'none' }, contentType: null, query: 'limit=abc&offset=-1&order=%3Bdrop&like=%zz&x=%&limit=5' },
        ...(route.params.length
          ? [
              { ...base, params: route.params.map(() => '%E0%A4%A') },
              { ...base, params: route.params.map(() => 'x'.repeat(3000)) },
            ]
          : []),
        ...(route.body
          ? ([
              { ...base, body: { kind: 'raw', text: deepArray(50_000) } },
              { ...base, body: { kind: 'raw', text: deepObject(50_000) } },
              { ...base, body: { kind: 'raw', text: '{"a":' } },
              { ...base, body: { kind: 'raw', text: '[1,2]' } },
              { ...base, body: { kind: 'bytes', bytes: [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0xff, 0x22, 0x7d] } },
              { ...base, body: { kind: 'json', value: Object.fromEntries((requiredFields.get(route) ?? []).map((f) => [f, [[{ x: null }]]])) } },
              { ...base, contentType: 'multipart/form-data; boundary=zz' },
              { ...base, contentType: 'text/plain' },
            ] satisfies Case[])
          : []),
      ]
      for (const c of sweep) {
        const problem = await check(c).catch((err: unknown) => `threw ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
        if (problem) failures.push(`${describeCase(c)}\n    → ${problem}`)
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
  }, 240_000)

  it(
    `answers ${RUNS} random cases (seed ${SEED}) with no 5xx, the envelope on refusal and no change when refused`,
    async () => {
      // Routes with a valid body to mutate get three times the cases: that is where requests get past validation.
      const weighted = routes.flatMap((r) => (seeds.has(r) ? [r, r, r] : [r]))
      const arb = fc.integer({ min: 0, max: weighted.length - 1 }).chain((i) => caseArb(weighted[i]))
      try {
        await fc.assert(
          fc.asyncProperty(arb, async (c) => {
            const problem = await check(c).catch((err: unknown) => `threw ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
            if (problem) throw new Error(`${describeCase(c)}\n    → ${problem}`)
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        )
      } catch (err) {
        const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : ''
        throw new Error(`Fuzz case failed; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n${(err as Error).message}\n${cause}`)
      }
    },
    Math.max(240_000, RUNS * 1000),
  )
})
