import {
  CONFIG_TYPES,
  GENESIS_SETTING_KINDS,
  type ConfigType,
  type ContentState,
  type GeneratedKind,
  type GenesisJob,
  type GenesisJobSummary,
  type GenesisSettings,
  type GenesisSettingsInput,
  type JobState,
} from '#shared/schemas/lesson/genesis'
import { defineEntity } from '#shared/schemas/entity'

/** SQL of content generation (issue 18): content configurations, the realm's settings and generation jobs. */

export const contentConfigEntity = defineEntity<Record<string, unknown>>({
  name: 'cgs_content_config',
  table: 'cgs_content_config',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    type: { type: 'text', list: true, filter: 'eq', sort: true },
    title: { type: 'text', list: true, search: true, sort: true, filter: 'like' },
    tags: { type: 'json', list: true },
    options: { type: 'json', list: true },
    guideline: { type: 'text' },
    is_public: { type: 'bool', list: true, filter: 'eq' },
    default_selected: { type: 'bool', list: true, filter: 'eq' },
    agent_id: { type: 'text', list: true, nullable: true, filter: 'eq' },
    created_by: { type: 'text', list: true },
    created_at: { type: 'text', sort: true },
    updated_at: { type: 'text', list: true, sort: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: 'title',
})

/** Configurations a user sees: the realm's public ones and their own. */
export const visibleConfigs = (realm: string, nick: string) => ({ where: 'realm = ? AND (is_public = 1 OR created_by = ?)', params: [realm, nick] })

/** The statement clearing the other default-selected configuration of a type (the save's batch runs it after its write). */
export function clearOtherDefaults(db: D1Database, realm: string, type: string, keep: string): D1PreparedStatement {
  return db
    .prepare('UPDATE cgs_content_config SET default_selected = 0 WHERE realm = ? AND type = ? AND id <> ? AND default_selected = 1')
    .bind(realm, type, keep)
}

export function agentExists(db: D1Database, realm: string, id: string): Promise<{ name: string; target_audience: string } | null> {
  return db.prepare('SELECT name, target_audience FROM cgs_agent WHERE realm = ? AND id = ?').bind(realm, id).first()
}

/** Lessons generated with a configuration (the jobs that used it), newest first. */
export async function linkedLessons(db: D1Database, realm: string, configId: string) {
  const { results } = await db
    .prepare(
      `SELECT j.id AS job_id, j.title, j.created_at FROM genesis_job_content c JOIN genesis_job j ON j.id = c.job_id
       WHERE c.realm = ? AND c.config_id = ? AND j.realm = ? ORDER BY j.created_at DESC LIMIT 50`,
    )
    .bind(realm, configId, realm)
    .all<{ job_id: string; title: string; created_at: string }>()
  return results
}

export interface ConfigRow {
  id: string
  type: ConfigType
  title: string
  options: string
  guideline: string
  is_public: number
  default_selected: number
  agent_id: string | null
  created_by: string
}

export function configById(db: D1Database, realm: string, id: string): Promise<ConfigRow | null> {
  return db.prepare('SELECT * FROM cgs_content_config WHERE realm = ? AND id = ?').bind(realm, id).first<ConfigRow>()
}

/** The configurations and agents a user may pick (public or their own), for the generation screens. */
export async function pickable(db: D1Database, realm: string, nick: string) {
  const [configs, agents] = await db.batch([
    db
      .prepare(
        'SELECT id, type, title, default_selected, agent_id FROM cgs_content_config WHERE realm = ? AND (is_public = 1 OR created_by = ?) ORDER BY type, title',
      )
      .bind(realm, nick),
    db.prepare('SELECT id, name, target_audience FROM cgs_agent WHERE realm = ? ORDER BY name').bind(realm),
  ])
  return {
    configs: (configs.results as { id: string; type: ConfigType; title: string; default_selected: number; agent_id: string | null }[]).map((c) => ({
      ...c,
      default_selected: c.default_selected === 1,
    })),
    agents: agents.results as { id: string; name: string; target_audience: string }[],
  }
}

// ---------- realm settings ----------

/** Settings of a realm that never saved any: everything that is generated here on, video and persona off (not generated). */
export const DEFAULT_SETTINGS: GenesisSettings = {
  activate: Object.fromEntries(GENESIS_SETTING_KINDS.map((k) => [k, k !== 'video' && k !== 'persona'])) as GenesisSettings['activate'],
  allow_custom: Object.fromEntries(GENESIS_SETTING_KINDS.map((k) => [k, true])) as GenesisSettings['allow_custom'],
  default_config: Object.fromEntries(CONFIG_TYPES.map((k) => [k, null])) as GenesisSettings['default_config'],
  max_intro_size: 50_000_000,
  max_intro_kbps: 2500,
  max_intro_duration: 120,
}

export async function genesisSettings(db: D1Database, realm: string): Promise<GenesisSettings> {
  const row = await db.prepare('SELECT settings FROM realm_genesis WHERE realm = ?').bind(realm).first<{ settings: string }>()
  return mergeSettings(DEFAULT_SETTINGS, row ? (JSON.parse(row.settings) as GenesisSettingsInput) : {})
}

export function mergeSettings(base: GenesisSettings, input: GenesisSettingsInput): GenesisSettings {
  const clean = <T extends Record<string, unknown>>(o: T | undefined) => Object.fromEntries(Object.entries(o ?? {}).filter(([, x]) => x !== undefined))
  return {
    activate: { ...base.activate, ...clean(input.activate) },
    allow_custom: { ...base.allow_custom, ...clean(input.allow_custom) },
    default_config: { ...base.default_config, ...clean(input.default_config) },
    max_intro_size: input.max_intro_size ?? base.max_intro_size,
    max_intro_kbps: input.max_intro_kbps ?? base.max_intro_kbps,
    max_intro_duration: input.max_intro_duration ?? base.max_intro_duration,
  }
}

export function saveSettingsStatement(db: D1Database, realm: string, settings: GenesisSettings, at: string, by: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO realm_genesis (realm, settings, updated_at, updated_by) VALUES (?, ?, ?, ?)
       ON CONFLICT (realm) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    )
    .bind(realm, JSON.stringify(settings), at, by)
}

// ---------- jobs ----------

export interface JobRow {
  id: string
  realm: string
  title: string
  language: string
  agent_id: string | null
  status: JobState
  engine: string
  idempotency_key: string
  request_hash: string
  sources: string
  result: string
  /** The lesson model the result was opened as (migration 0062). */
  lesson_id: string | null
  created_by: string
  created_at: string
  updated_at: string
}
export interface JobContentRow {
  job_id: string
  position: number
  kind: GeneratedKind
  config_id: string | null
  options: string
  guideline: string
  status: ContentState
  points: number
  operation: string | null
  error: string | null
  refunded: number
  engine: string | null
  output: string
  started_at: string | null
  finished_at: string | null
}

export function jobByKey(db: D1Database, realm: string, key: string): Promise<JobRow | null> {
  return db.prepare('SELECT * FROM genesis_job WHERE realm = ? AND idempotency_key = ?').bind(realm, key).first<JobRow>()
}

/** Records the lesson model a job was opened as, unless one was recorded already (answers whether this one was). */
export async function setJobLesson(db: D1Database, realm: string, id: string, lessonId: string): Promise<boolean> {
  const r = await db.prepare('UPDATE genesis_job SET lesson_id = ? WHERE realm = ? AND id = ? AND lesson_id IS NULL').bind(lessonId, realm, id).run()
  return r.meta.changes > 0
}

/** A job of the realm started by `nick` (another user's job is as absent). */
export function jobOf(db: D1Database, realm: string, nick: string, id: string): Promise<JobRow | null> {
  return db.prepare('SELECT * FROM genesis_job WHERE realm = ? AND id = ? AND created_by = ?').bind(realm, id, nick).first<JobRow>()
}

/** How many jobs the generation screen lists as the user's recent ones. */
export const RECENT_JOBS = 10

/** The user's latest jobs in the realm, newest first, with how many of their contents have ended. */
export async function recentJobs(db: D1Database, realm: string, nick: string, limit = RECENT_JOBS): Promise<GenesisJobSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT j.id, j.title, j.language, j.status, j.lesson_id, j.created_at, j.updated_at,
              (SELECT COUNT(*) FROM genesis_job_content c WHERE c.realm = j.realm AND c.job_id = j.id) AS contents,
              (SELECT COUNT(*) FROM genesis_job_content c WHERE c.realm = j.realm AND c.job_id = j.id AND c.status NOT IN ('pending', 'running')) AS ended
         FROM genesis_job j WHERE j.realm = ? AND j.created_by = ? ORDER BY j.created_at DESC, j.id DESC LIMIT ?`,
    )
    .bind(realm, nick, limit)
    .all<GenesisJobSummary>()
  return results
}

export async function jobContents(db: D1Database, realm: string, jobId: string): Promise<JobContentRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM genesis_job_content WHERE realm = ? AND job_id = ? ORDER BY position')
    .bind(realm, jobId)
    .all<JobContentRow>()
  return results
}

export function insertJobStatements(
  db: D1Database,
  job: Omit<JobRow, 'status' | 'result' | 'updated_at' | 'lesson_id'>,
  contents: Omit<JobContentRow, 'job_id' | 'status' | 'operation' | 'error' | 'refunded' | 'engine' | 'output' | 'started_at' | 'finished_at'>[],
) {
  return [
    db
      .prepare(
        `INSERT INTO genesis_job (id, realm, title, language, agent_id, engine, idempotency_key, request_hash, sources, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        job.id,
        job.realm,
        job.title,
        job.language,
        job.agent_id,
        job.engine,
        job.idempotency_key,
        job.request_hash,
        job.sources,
        job.created_by,
        job.created_at,
        job.created_at,
      ),
    ...contents.map((c) =>
      db
        .prepare('INSERT INTO genesis_job_content (job_id, realm, position, kind, config_id, options, guideline, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .bind(job.id, job.realm, c.position, c.kind, c.config_id, c.options, c.guideline, c.points),
    ),
  ]
}

/**
 * A content still `running` this long after it was claimed was left by a request that died (the page was closed or
 * reloaded while it ran): it may be claimed again, so a resumed job can end. Longer than any provider call takes.
 */
export const STALE_CONTENT_MS = 10 * 60_000

/**
 * Claims the job's next pending content — or one left running for STALE_CONTENT_MS — (one caller wins); null when
 * none is left or the job no longer runs.
 */
export async function claimNextContent(db: D1Database, realm: string, jobId: string, at: string): Promise<JobContentRow | null> {
  const stale = new Date(Date.parse(at) - STALE_CONTENT_MS).toISOString()
  const claimable = `(status = 'pending' OR (status = 'running' AND started_at < ?))`
  return db
    .prepare(
      `UPDATE genesis_job_content SET status = 'running', started_at = ?
       WHERE realm = ? AND job_id = ? AND ${claimable}
         AND position = (SELECT MIN(position) FROM genesis_job_content WHERE realm = ? AND job_id = ? AND ${claimable})
         AND EXISTS (SELECT 1 FROM genesis_job WHERE id = ? AND realm = ? AND status = 'running')
       RETURNING *`,
    )
    .bind(at, realm, jobId, stale, realm, jobId, stale, jobId, realm)
    .first<JobContentRow>()
}

export function finishContentStatement(
  db: D1Database,
  realm: string,
  jobId: string,
  kind: string,
  end: { status: 'done' | 'failed'; output?: unknown; engine?: string | null; operation?: string | null; error?: string | null; refunded?: boolean },
  at: string,
) {
  return db
    .prepare(
      `UPDATE genesis_job_content SET status = ?, output = ?, engine = ?, operation = ?, error = ?, refunded = ?, finished_at = ?
       WHERE realm = ? AND job_id = ? AND kind = ?`,
    )
    .bind(
      end.status,
      JSON.stringify(end.output ?? null),
      end.engine ?? null,
      end.operation ?? null,
      end.error ?? null,
      end.refunded ? 1 : 0,
      at,
      realm,
      jobId,
      kind,
    )
}

/** Ends a running job whose contents have all run: done when one content succeeded, failed otherwise; its lesson stored. */
export function finishJobStatement(db: D1Database, realm: string, jobId: string, status: 'done' | 'failed', result: unknown, at: string) {
  return db
    .prepare(
      `UPDATE genesis_job SET status = ?, result = ?, updated_at = ? WHERE realm = ? AND id = ? AND status = 'running'
       AND NOT EXISTS (SELECT 1 FROM genesis_job_content WHERE realm = ? AND job_id = ? AND status IN ('pending', 'running'))`,
    )
    .bind(status, JSON.stringify(result), at, realm, jobId, realm, jobId)
}

/** Cancels a running job: its pending contents are never run (nor charged); a content already running finishes. */
export function cancelJobStatements(db: D1Database, realm: string, jobId: string, at: string) {
  return [
    db.prepare(`UPDATE genesis_job SET status = 'canceled', updated_at = ? WHERE realm = ? AND id = ? AND status = 'running'`).bind(at, realm, jobId),
    db
      .prepare(`UPDATE genesis_job_content SET status = 'canceled', finished_at = ? WHERE realm = ? AND job_id = ? AND status = 'pending'`)
      .bind(at, realm, jobId),
  ]
}

/** The job as the API answers it. */
export function jobView(job: JobRow, contents: JobContentRow[]): GenesisJob {
  const result = JSON.parse(job.result) as GenesisJob['result']
  return {
    id: job.id,
    title: job.title,
    language: job.language,
    status: job.status,
    engine: job.engine,
    created_by: job.created_by,
    created_at: job.created_at,
    updated_at: job.updated_at,
    total_points: contents.reduce((n, c) => n + c.points, 0),
    contents: contents.map((c) => ({
      kind: c.kind,
      config_id: c.config_id,
      status: c.status,
      points: c.points,
      operation: c.operation,
      error: c.error,
      refunded: c.refunded === 1,
      engine: c.engine,
      started_at: c.started_at,
      finished_at: c.finished_at,
    })),
    result: result && Object.keys(result).length ? result : null,
  }
}
