/** SQL of the answer API (issue 17): students' tasks, start receipts, answers, corrections and their history. */
import { DELIVERED_STATES, EDITABLE_STATES, type AnswerState } from '../lib/answer-state'

/**
 * Rooms through which a publication (`t.id`) reaches a student (?2): a room target, a member target naming them, a
 * group holding a room of theirs. `targets` is the target table and `key` its publication column (tasks, lessons).
 */
export const reachSql = (targets: string, key: string) => `SELECT x.room_id AS room_id FROM ${targets} x
    WHERE x.realm = ?1 AND x.${key} = t.id AND x.room_id IN (SELECT rm.room_id FROM room_member rm WHERE rm.realm = ?1 AND rm.nick = ?2)
      AND (x.nick IS NULL OR x.nick = ?2)
  UNION SELECT j.value FROM ${targets} x JOIN room_group g ON g.id = x.group_id, json_each(g.rooms) j
    WHERE x.realm = ?1 AND x.${key} = t.id AND j.value IN (SELECT rm.room_id FROM room_member rm WHERE rm.realm = ?1 AND rm.nick = ?2)`
const REACH = reachSql('tms_task_target', 'task_id')

const inList = (xs: readonly string[]) => xs.map((s) => `'${s}'`).join(', ')

/** The student filters of seed 001 §2 (menu of the student task list). */
const FILTERS: Record<string, string> = {
  all: '1',
  class: "t.publication_type IN ('all', 'members')",
  group: "t.publication_type = 'group'",
  tasks: `t.status = 'published' AND (a.status IS NULL OR a.status IN (${inList(EDITABLE_STATES)}))`,
  delivered: `a.status IN (${inList(DELIVERED_STATES)})`,
  expired: "t.status = 'expired'",
  pending: "a.status = 'pending'",
}

export interface StudentTaskRow {
  id: string
  title: string
  kind: string
  publication_type: string
  publish_at: string
  expire_at: string
  display_answer_at: string | null
  status: string
  show_timer: number
  token: number
  answer_id: string | null
  answer_status: AnswerState | null
  delivery: string | null
  delivered_at: string | null
  score: number | null
  max_score: number | null
}

/**
 * The tasks reaching a student (published or expired; scheduled and paused ones are not shown), with the student's
 * answer, under a filter: the nearest deadline first for open tasks, the latest first once expired.
 */
export async function studentTasks(db: D1Database, realm: string, nick: string, filter: string, limit: number, offset: number) {
  const from = `FROM tms_task_view t LEFT JOIN tms_answer a ON a.realm = t.realm AND a.task_id = t.id AND a.nick = ?2
    WHERE t.realm = ?1 AND t.status IN ('published', 'expired') AND EXISTS (${REACH}) AND (${FILTERS[filter] ?? '0'})`
  const [page, count] = await db.batch([
    db
      .prepare(
        `SELECT t.id, t.title, t.kind, t.publication_type, t.publish_at, t.expire_at, t.display_answer_at, t.status, t.show_timer, t.token,
           a.id AS answer_id, a.status AS answer_status, a.delivery, a.delivered_at, a.score, a.max_score
         ${from} ORDER BY t.status = 'expired', CASE WHEN t.status = 'expired' THEN '' ELSE t.expire_at END, t.expire_at DESC, t.id LIMIT ?3 OFFSET ?4`,
      )
      .bind(realm, nick, limit, offset),
    db.prepare(`SELECT COUNT(*) AS total ${from}`).bind(realm, nick),
  ])
  return { rows: page.results as StudentTaskRow[], total: Number((count.results[0] as { total: number }).total) }
}

/** The rooms through which the task reaches the student (none: the task is not theirs). */
export async function reachingRooms(db: D1Database, realm: string, taskId: string, nick: string): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT room_id FROM (${REACH.replaceAll('t.id', '?3')}) ORDER BY room_id`)
    .bind(realm, nick, taskId)
    .all<{ room_id: string }>()
  return results.map((r) => r.room_id)
}

/** The room of a live (not revoked) token code of the task among the given rooms, or null. */
export async function tokenRoom(db: D1Database, realm: string, taskId: string, code: string, rooms: string[]): Promise<string | null> {
  if (!rooms.length) return null
  const row = await db
    .prepare(
      `SELECT room_id FROM tms_token WHERE realm = ? AND task_id = ? AND code = ? COLLATE NOCASE AND revoked_at IS NULL
       AND room_id IN (${rooms.map(() => '?').join(', ')}) LIMIT 1`,
    )
    .bind(realm, taskId, code, ...rooms)
    .first<{ room_id: string }>()
  return row?.room_id ?? null
}

export interface StartRow {
  room_id: string | null
  opened_at: string
}

/** The student's first open of the task, recorded now when there is none (one round trip). */
export async function startTask(db: D1Database, realm: string, taskId: string, nick: string, roomId: string | null, at: string): Promise<StartRow> {
  const [, read] = await db.batch([
    db
      .prepare('INSERT INTO tms_answer_start (realm, task_id, nick, room_id, opened_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .bind(realm, taskId, nick, roomId, at),
    db.prepare('SELECT room_id, opened_at FROM tms_answer_start WHERE realm = ? AND task_id = ? AND nick = ?').bind(realm, taskId, nick),
  ])
  return read.results[0] as StartRow
}

export async function getStart(db: D1Database, realm: string, taskId: string, nick: string): Promise<StartRow | null> {
  return db.prepare('SELECT room_id, opened_at FROM tms_answer_start WHERE realm = ? AND task_id = ? AND nick = ?').bind(realm, taskId, nick).first<StartRow>()
}

/** A stored answer as the database holds it (JSON columns as text). */
export interface AnswerRecord {
  id: string
  realm: string
  task_id: string
  nick: string
  room_id: string | null
  client_id: string
  status: AnswerState
  answers: string
  answered_count: number
  opened_at: string
  finished_at: string | null
  delivered_at: string | null
  duration_seconds: number | null
  delivery: string | null
  offline: number
  auto_scores: string
  scores: string
  comments: string
  final_considerations: string
  score: number | null
  max_score: number
  ai_revision: string | null
  ai_comment: string
  /** The AI revision's result (migration 0054): JSON of worker/ai/answer-revision.ts `RevisionResult`, `{}` without one. */
  ai_result: string
  ai_operation: string | null
  /** The teacher's grades of the essays' assessed skills and their marks (migration 0059): JSON per question id. */
  skill_grades: string
  marks: string
  opinion: string | null
  opinion_comment: string
  opinion_at: string | null
  corrected_by: string | null
  corrected_at: string | null
  created_at: string
  updated_at: string
}

export async function studentAnswer(db: D1Database, realm: string, taskId: string, nick: string): Promise<AnswerRecord | null> {
  return db.prepare('SELECT * FROM tms_answer WHERE realm = ? AND task_id = ? AND nick = ?').bind(realm, taskId, nick).first<AnswerRecord>()
}

export async function answerById(db: D1Database, realm: string, id: string): Promise<AnswerRecord | null> {
  return db.prepare('SELECT * FROM tms_answer WHERE realm = ? AND id = ?').bind(realm, id).first<AnswerRecord>()
}

/** The columns a student's save or delivery writes. */
export interface StudentWrite {
  id: string
  realm: string
  task_id: string
  nick: string
  room_id: string | null
  client_id: string
  status: AnswerState
  answers: string
  answered_count: number
  opened_at: string
  finished_at: string | null
  delivered_at: string | null
  duration_seconds: number | null
  delivery: string | null
  offline: number
  auto_scores: string
  score: number | null
  max_score: number
  created_at: string
  updated_at: string
}

/**
 * Writes a student's answer only while it is still theirs to change (no answer yet, or one in `from`): one
 * statement, so two deliveries racing each other write once (the loser changes nothing; `meta.changes` is 0).
 */
export function studentWriteStatement(db: D1Database, w: StudentWrite, from: readonly AnswerState[]): D1PreparedStatement {
  const cols = Object.keys(w) as (keyof StudentWrite)[]
  const updated = cols.filter((c) => !['id', 'realm', 'task_id', 'nick', 'created_at'].includes(c))
  return db
    .prepare(
      `INSERT INTO tms_answer (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
       ON CONFLICT (realm, task_id, nick) DO UPDATE SET ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}
       WHERE tms_answer.status IN (${inList(from)})`,
    )
    .bind(...cols.map((c) => w[c]))
}

/** Records the student's opinion on the AI comment once (a second one changes nothing). */
export function opinionStatement(
  db: D1Database,
  realm: string,
  id: string,
  o: { opinion: string; comment: string; at: string; status: AnswerState },
): D1PreparedStatement {
  return db
    .prepare(
      'UPDATE tms_answer SET opinion = ?, opinion_comment = ?, opinion_at = ?, status = ?, updated_at = ? WHERE realm = ? AND id = ? AND opinion IS NULL',
    )
    .bind(o.opinion, o.comment, o.at, o.status, o.at, realm, id)
}

export interface CorrectionWrite {
  status: AnswerState
  scores: string
  comments: string
  final_considerations: string
  ai_comment: string
  skill_grades: string
  marks: string
  score: number | null
  corrected_by: string
  corrected_at: string
}

/** A correction step: the answer's new state (only if it is still in `from`) and its history row. */
export function correctionStatements(
  db: D1Database,
  realm: string,
  answerId: string,
  from: AnswerState,
  w: CorrectionWrite,
  history: { id: string; action: string; comment: string },
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE tms_answer SET status = ?, scores = ?, comments = ?, final_considerations = ?, ai_comment = ?, skill_grades = ?, marks = ?, score = ?,
           corrected_by = ?, corrected_at = ?, updated_at = ? WHERE realm = ? AND id = ? AND status = ?`,
      )
      .bind(
        w.status,
        w.scores,
        w.comments,
        w.final_considerations,
        w.ai_comment,
        w.skill_grades,
        w.marks,
        w.score,
        w.corrected_by,
        w.corrected_at,
        w.corrected_at,
        realm,
        answerId,
        from,
      ),
    // Written only when the update above was (same batch, same transaction): changes() is that update's count.
    db
      .prepare(
        `INSERT INTO tms_answer_correction (id, realm, answer_id, action, status_before, status_after, scores, comments, final_considerations,
           comment, score, skill_grades, marks, created_by, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1`,
      )
      .bind(
        history.id,
        realm,
        answerId,
        history.action,
        from,
        w.status,
        w.scores,
        w.comments,
        w.final_considerations,
        history.comment,
        w.score,
        w.skill_grades,
        w.marks,
        w.corrected_by,
        w.corrected_at,
      ),
  ]
}

export interface CorrectionHistoryRow {
  id: string
  action: string
  status_before: string
  status_after: string
  scores: string
  comments: string
  final_considerations: string
  comment: string
  score: number | null
  skill_grades: string
  marks: string
  created_by: string
  created_at: string
}

export async function correctionHistory(db: D1Database, realm: string, answerId: string): Promise<CorrectionHistoryRow[]> {
  const { results } = await db
    .prepare(
      'SELECT id, action, status_before, status_after, scores, comments, final_considerations, comment, score, skill_grades, marks, created_by, created_at FROM tms_answer_correction WHERE realm = ? AND answer_id = ? ORDER BY created_at, rowid',
    )
    .bind(realm, answerId)
    .all<CorrectionHistoryRow>()
  return results
}

/** Every row of the answer list under its scope and filters, for the CSV export (at most `cap`). */
export async function answerRowsForExport(db: D1Database, where: string, params: unknown[], cap: number) {
  const { results } = await db
    .prepare(
      `SELECT task_title, student_name, nick, room_name, status, delivery, offline, opened_at, delivered_at, duration_seconds, score, max_score
       FROM tms_answer_view WHERE ${where} ORDER BY delivered_at DESC, id LIMIT ?`,
    )
    .bind(...params, cap)
    .all<Record<string, unknown>>()
  return results
}

/** Records a delivered answer id, only when the statement before it in the batch changed a row. */
export function deliveryStatement(db: D1Database, w: { realm: string; nick: string; task_id: string; client_id: string; at: string }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO tms_answer_delivery (realm, nick, client_id, answer_id, delivered_at)
       SELECT ?1, ?2, ?3, (SELECT id FROM tms_answer WHERE realm = ?1 AND task_id = ?4 AND nick = ?2), ?5 WHERE changes() = 1`,
    )
    .bind(w.realm, w.nick, w.client_id, w.task_id, w.at)
}

/**
 * Keeps the answer's files for good (persisted uploads never expire), only when the student's answer row holds the
 * write stamped `at` of the same batch: a refused write (already submitted) persists nothing.
 */
export function persistAnswerFilesStatement(db: D1Database, w: { realm: string; task_id: string; nick: string; at: string; files: string[] }) {
  return db
    .prepare(
      `UPDATE file SET persist = 1, expires_at = NULL WHERE realm = ?1 AND id IN (SELECT value FROM json_each(?2))
       AND EXISTS (SELECT 1 FROM tms_answer WHERE realm = ?1 AND task_id = ?3 AND nick = ?4 AND updated_at = ?5)`,
    )
    .bind(w.realm, JSON.stringify(w.files), w.task_id, w.nick, w.at)
}

/** Whether the student's device already delivered an answer with this id. */
export async function deliveredBefore(db: D1Database, realm: string, nick: string, clientId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM tms_answer_delivery WHERE realm = ? AND nick = ? AND client_id = ?').bind(realm, nick, clientId).first()) !== null
}

/** Forgets the student's first open of a task (a teacher restores their timer): the next open starts the time anew. */
export function deleteStartStatement(db: D1Database, realm: string, taskId: string, nick: string): D1PreparedStatement {
  return db.prepare('DELETE FROM tms_answer_start WHERE realm = ? AND task_id = ? AND nick = ?').bind(realm, taskId, nick)
}

/** The assessed skills of an essay: those it names, and the skills of the group it names (name and weight). */
export async function essaySkills(db: D1Database, realm: string, ids: string[], groupId: string) {
  const { results } = await db
    .prepare(
      `SELECT id, name, weight FROM tms_assessed_skill WHERE realm = ?1 AND type = 'skill'
         AND (id IN (SELECT value FROM json_each(?2)) OR (?3 <> '' AND group_id = ?3)) ORDER BY name, id`,
    )
    .bind(realm, JSON.stringify(ids), groupId)
    .all<{ id: string; name: string; weight: number }>()
  return results
}

/**
 * Marks an answer's AI revision in progress (seed 001 §4 "AI revision": in progress, success, fail), only while a
 * teacher may correct it (submitted or review); the caller checks the change count.
 */
export function revisionStartStatement(db: D1Database, realm: string, answerId: string, at: string) {
  return db
    .prepare(`UPDATE tms_answer SET ai_revision = 'in_progress', updated_at = ? WHERE realm = ? AND id = ? AND status IN ('submitted', 'review')`)
    .bind(at, realm, answerId)
}

/**
 * The revision's end: success with its result, operation and comment (the AI comment the teacher then edits), fail,
 * or its state before (a refusal before any provider call).
 */
export function revisionEndStatement(
  db: D1Database,
  realm: string,
  answerId: string,
  end: { ok: true; result: string; comment: string; operation: string } | { ok: false; operation: string | null } | { ok: false; restore: string | null },
  at: string,
) {
  if ('restore' in end)
    return db
      .prepare(`UPDATE tms_answer SET ai_revision = ?, updated_at = ? WHERE realm = ? AND id = ? AND ai_revision = 'in_progress'`)
      .bind(end.restore, at, realm, answerId)
  return end.ok
    ? db
        .prepare(
          `UPDATE tms_answer SET ai_revision = 'success', ai_result = ?, ai_comment = ?, ai_operation = ?, updated_at = ?
             WHERE realm = ? AND id = ? AND status IN ('submitted', 'review')`,
        )
        .bind(end.result, end.comment, end.operation, at, realm, answerId)
    : db
        .prepare(`UPDATE tms_answer SET ai_revision = 'fail', ai_operation = COALESCE(?, ai_operation), updated_at = ? WHERE realm = ? AND id = ?`)
        .bind(end.operation, at, realm, answerId)
}
