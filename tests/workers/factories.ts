import { env } from 'cloudflare:test'
import { realmWallet, userWallet } from '../../worker/db/ledger'
import { bankQuestionRow, insert, roomGroupRow, roomMemberRow, roomRow, taskCategoryRow } from '../../worker/seed/tms'
import { issuanceRows, packageRow } from '../../worker/seed/ledger'
import type { QuestionType } from '#shared/schemas/tms/constants'
import { validQuestion } from '../support/tms-fixtures'

/**
 * Test factories: each builds the rows one test needs, with fresh ids, through the same row builders the demo seed
 * uses (worker/seed/), so a test states what it depends on instead of leaning on demo ids. A user with exact
 * permissions is helpers.ts's userWith.
 */
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`
const now = () => new Date().toISOString()

/** A new realm of its own (host `<code>.localhost`) with the given column values, for tests that change realm limits. */
export async function realmWith(values: Record<string, string | number> = {}) {
  const code = `r${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const host = `${code}.localhost`
  const cols = ['code', 'name', ...Object.keys(values)]
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO realm (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(code, `Realm ${code}`, ...Object.values(values)),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(host, code),
  ])
  return { code, host }
}

/** A room of `realm` (unique name unless given), with `members` (nicks) in it. */
export async function room(realm: string, options: { name?: string; topic?: string; members?: string[] } = {}) {
  const id = unique('r')
  const name = options.name ?? `Room ${id}`
  const at = now()
  await env.DB.batch([
    roomRow(env.DB, { id, realm, name, topic: options.topic ?? '' }, at),
    ...(options.members ?? []).map((nick) => roomMemberRow(env.DB, realm, id, nick, at)),
  ])
  return { id, name }
}

/** A room group of `realm` holding `rooms` (ids). */
export async function roomGroup(realm: string, rooms: string[]) {
  const id = unique('g')
  const name = `Group ${id}`
  await env.DB.batch([roomGroupRow(env.DB, { id, realm, name, rooms }, now())])
  return { id, name }
}

/**
 * A selectable task category of `realm`: under `parent`, else under the realm's required root when it has one (so a
 * task filed under it satisfies the realm's rule), else under a new root of its own.
 */
export async function taskCategory(realm: string, options: { name?: string; parent?: string } = {}) {
  const at = now()
  const statements = []
  let parent =
    options.parent ??
    (await env.DB.prepare('SELECT id FROM tms_category WHERE realm = ? AND parent_id IS NULL AND required = 1 ORDER BY id LIMIT 1')
      .bind(realm)
      .first<string>('id')) ??
    undefined
  if (!parent) {
    parent = unique('c-root')
    statements.push(taskCategoryRow(env.DB, { id: parent, realm, name: `Root ${parent}`, selectable: false }, at))
  }
  const id = unique('c')
  statements.push(taskCategoryRow(env.DB, { id, realm, name: options.name ?? `Category ${id}`, parent_id: parent }, at))
  await env.DB.batch(statements)
  return { id, parent }
}

/**
 * A root of task categories of `realm` (a group, not selectable itself) whose values are chosen one at a time, required
 * on every task when `required`.
 */
export async function taskCategoryGroup(realm: string, options: { required?: boolean } = {}) {
  const id = unique('c-group')
  const name = `Group ${id}`
  await env.DB.batch([taskCategoryRow(env.DB, { id, realm, name, selectable: false, required: options.required ?? false, multi_selection: false }, now())])
  return { id, name }
}

/** What an essay question of `realm` refers to: a textual genre, and a group of assessed skills with one skill. */
export async function essayRefs(realm: string) {
  const at = now()
  const stamp = { realm, description: '', created_at: at, updated_at: at, updated_by: 'factory' }
  const genre = unique('gn')
  const group = unique('sk-group')
  const skill = unique('sk')
  await env.DB.batch([
    insert(env.DB, 'tms_genre', { id: genre, name: `Genre ${genre}`, min_words: 150, max_words: 400, ...stamp }),
    insert(env.DB, 'tms_assessed_skill', { id: group, name: `Skills ${group}`, type: 'group', weight: 1, group_id: null, ...stamp }),
    insert(env.DB, 'tms_assessed_skill', { id: skill, name: `Skill ${skill}`, type: 'skill', weight: 2, group_id: group, ...stamp }),
  ])
  return { genre, group, skill }
}

/** validQuestion of `type`; an essay refers to the genre and skill of `refs` (essayRefs). */
export function questionOf(type: QuestionType, refs: { genre: string; skill: string }): Record<string, unknown> & { type: QuestionType } {
  const q = validQuestion(type)
  if (type !== 'essay') return q
  return { ...q, options: { ...(q.options as object), genre: refs.genre, assessed_skill_ids: [refs.skill] } }
}

/** A question-bank item of `realm`: a valid single-choice question unless `question` says otherwise. */
export async function bankQuestion(
  realm: string,
  question: Record<string, unknown> = validQuestion('single'),
  difficulty = 'easy',
  /** Classification columns (grade_id, subject_id, standard_id, descriptor_id, batch_id…). */
  columns: Record<string, unknown> = {},
) {
  const id = unique('b')
  await env.DB.batch([bankQuestionRow(env.DB, realm, { ...question, id, difficulty }, 'factory', now(), columns)])
  return { id }
}

/** A credit package of `realm` on sale. */
export async function creditPackage(realm: string, options: { cost?: number; currency?: string; points?: number; name?: string } = {}) {
  const id = unique('pkg')
  const p = {
    id,
    name: options.name ?? `Package ${id}`,
    description: '',
    cost: options.cost ?? 10,
    currency: options.currency ?? 'BRL',
    points: options.points ?? 100,
    recommended: 0,
  }
  await env.DB.batch([packageRow(env.DB, realm, p, now())])
  return p
}

/** Issues `points` to a user's wallet (or the realm's, without `nick`) through an issuance transaction of the ledger. */
export async function fund(realm: string, points: number, nick?: string) {
  const id = unique('fund')
  await env.DB.batch(issuanceRows(env.DB, realm, id, nick ? userWallet(realm, nick) : realmWallet(realm), points, now()))
  return { transaction: id }
}

/**
 * A user of `realm` holding `roles` (none unless given; a student of the demo data holds no permission either), with
 * the realm's nick suffix: `nick` is the stored nick, `login` the part typed without the suffix.
 */
export async function user(realm: string, options: { name?: string; roles?: string[] } = {}) {
  const suffix = (await env.DB.prepare('SELECT nick_suffix FROM realm WHERE code = ?').bind(realm).first<string>('nick_suffix')) ?? ''
  const login = unique('user')
  const nick = `${login}${suffix}`
  const name = options.name ?? `User ${login}`
  await env.DB.batch([
    env.DB.prepare('INSERT INTO user (realm, nick, name, origin_realm) VALUES (?, ?, ?, ?)').bind(realm, nick, name, realm),
    ...(options.roles ?? []).map((role, i) =>
      env.DB.prepare('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, ?)').bind(realm, nick, role, i),
    ),
  ])
  return { nick, login, name }
}

/**
 * A realm of its own for AI tests (provider settings and the monthly cap are per realm, so tests never share them):
 * the ledger on, the text provider pointing at the local AI providers (`openai`) or the local engine, the given cap
 * and prices of the paid operations (`persona.animation`, `persona.voice_clone`).
 */
export async function aiRealm(
  options: {
    provider?: 'local' | 'openai' | 'workers_ai'
    model?: string
    key?: string
    cap?: number
    did?: string
    elevenlabs?: string
    google?: string
    minimax?: string
    minimaxGroup?: string
    /** The vision provider of the persona image's check (default none) and its model (default: the agent model). */
    vision?: 'none' | 'openai' | 'workers_ai'
    visionModel?: string
    prices?: Record<string, number>
  } = {},
) {
  const code = `ai${crypto.randomUUID().slice(0, 7)}`
  const at = now()
  const prices = options.prices ?? { 'persona.animation': 60, 'persona.voice_clone': 100 }
  await env.DB.batch([
    env.DB.prepare(
      'INSERT INTO realm (code, name, ledger_enabled, persona_enabled, agent_endpoint_url, agent_model, agent_api_key) VALUES (?, ?, 1, 1, ?, ?, ?)',
    ).bind(
      code,
      `AI ${code}`,
      options.provider === 'local' ? '' : `${env.TEST_AI_PROVIDERS}/v1`,
      options.model ?? `model-${code}`,
      options.key ?? 'test-ai-key',
    ),
    env.DB.prepare(
      'INSERT INTO realm_ai (realm, text_provider, monthly_credit_cap, did_api_key, elevenlabs_api_key, google_api_key, minimax_api_key, minimax_group_id, vision_provider, vision_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).bind(
      code,
      options.provider ?? 'openai',
      options.cap ?? -1,
      options.did ?? 'test-ai-key',
      options.elevenlabs ?? 'test-ai-key',
      options.google ?? 'test-ai-key',
      options.minimax ?? 'test-ai-key',
      options.minimaxGroup ?? 'group-1',
      options.vision ?? 'none',
      options.visionModel ?? '',
    ),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(`${code}.localhost`, code),
    ...Object.entries(prices).map(([key, points]) =>
      env.DB.prepare(
        'INSERT INTO ledger_content (realm, key, name, description, points, is_system, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
      ).bind(code, key, key, '', points, at, 'test'),
    ),
  ])
  return { code, host: `${code}.localhost`, model: options.model ?? `model-${code}` }
}

/**
 * A session (`csm_session`) of `realm` as the live tier or the recording path leaves it: in a channel (`channel`)
 * or a room (`room`: also named by `csm_session_room`), with the given status, video status, owner, categories and
 * reference date (today by default).
 */
export async function csmSession(
  realm: string,
  options: {
    title?: string
    owner?: string
    channel?: string
    room?: string
    categories?: string[]
    reference_date?: string
    status?: string
    video_status?: string
    live_seconds?: number
    live_durations?: Record<string, number>
    chat_count?: number
    hand_raise_count?: number
    /** Its recording (csm_recording), as the recording path leaves a completed one. */
    video?: { duration_seconds: number; size: number; video_codec: string; audio_codec: string }
  } = {},
) {
  const id = unique('s')
  const at = now()
  const title = options.title ?? `Session ${id}`
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO csm_session (id, realm, title, owner, channel_id, category_ids, reference_date, recorded_in, status, video_status, started_at,
         ended_at, live_seconds, live_durations, chat_count, hand_raise_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      realm,
      title,
      options.owner ?? '',
      options.channel ?? '',
      JSON.stringify(options.categories ?? []),
      options.reference_date ?? at.slice(0, 10),
      options.room ? 'room' : 'live',
      options.status ?? 'finished',
      options.video_status ?? 'no_video',
      at,
      at,
      options.live_seconds ?? 60,
      JSON.stringify(options.live_durations ?? {}),
      options.chat_count ?? 0,
      options.hand_raise_count ?? 0,
      at,
    ),
    ...(options.video
      ? [
          env.DB.prepare(
            `INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, status, size,
               duration_seconds, video_codec, audio_codec, started_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'complete', ?, ?, ?, ?, ?, ?)`,
          ).bind(
            unique('rec'),
            realm,
            options.room ? 'room' : 'channel',
            options.room ?? options.channel ?? '',
            id,
            options.owner ?? '',
            `recordings/${realm}/${id}.webm`,
            'upload',
            5_242_880,
            'video/webm',
            options.video.size,
            options.video.duration_seconds,
            options.video.video_codec,
            options.video.audio_codec,
            at,
            at,
          ),
        ]
      : []),
    ...(options.room
      ? [env.DB.prepare('INSERT INTO csm_session_room (session_id, realm, room_id, started_at) VALUES (?, ?, ?, ?)').bind(id, realm, options.room, at)]
      : []),
  ])
  return { id, title }
}
