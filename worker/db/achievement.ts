import { CHOICES } from '#shared/schemas/realm-settings'
import {
  SHOWN_STATUS_SQL,
  periodOf,
  type Award,
  type AwardInput,
  type GoalInput,
  type GoalPeriod,
  type GoalRow,
  type GoalTarget,
  type PublishGoalInput,
} from '#shared/schemas/achievement'
import type { Question } from '#shared/schemas/tms/question'
import { INFORMATIVE_TYPES } from '#shared/schemas/tms/question-types'
import { isAnswered } from '../lib/answer'
import type { AnswerValue } from '../lib/answer-schemas'
import { newId, nowIso } from '../lib/tms'

/**
 * Goals, objectives, awards, tracks (issue 19): the SQL of the achievement tables (migration 0064). Progress and
 * grants: README "Goals, objectives, awards and tracks (issue 19)".
 */
const json = <T>(s: unknown, fallback: T): T => {
  try {
    return typeof s === 'string' ? (JSON.parse(s) as T) : fallback
  } catch {
    return fallback
  }
}

/** The ids of `ids` that the realm's `table` does not hold (one query, the ids as a JSON list). */
export async function missingIds(db: D1Database, realm: string, table: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return []
  const { results } = await db
    .prepare(`SELECT j.value AS id FROM json_each(?2) j WHERE NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.realm = ?1 AND x.id = j.value)`)
    .bind(realm, JSON.stringify(ids))
    .all<{ id: string }>()
  return results.map((r) => r.id)
}

/** The award kinds a realm allows (its `allowed_award`; none set: every kind of the catalogue). */
export async function allowedAwardKinds(db: D1Database, realm: string): Promise<readonly string[]> {
  const row = await db.prepare('SELECT allowed_award FROM realm WHERE code = ?').bind(realm).first<{ allowed_award: string }>()
  const kinds = json<string[]>(row?.allowed_award, [])
  return kinds.length ? kinds : CHOICES.allowed_award!
}

/** A goal's awards, in order. */
export async function awardsOf(db: D1Database, realm: string, goalId: string): Promise<Award[]> {
  const { results } = await db
    .prepare('SELECT * FROM achievement_award WHERE realm = ? AND goal_id = ? ORDER BY position')
    .bind(realm, goalId)
    .all<Record<string, unknown>>()
  return results.map((r) => ({ ...r, progress: json(r.progress, []) }) as unknown as Award)
}

/** How many goals were published from a model. */
export async function publishedCount(db: D1Database, realm: string, modelId: string): Promise<number> {
  const row = await db.prepare('SELECT COUNT(*) AS n FROM achievement_goal WHERE realm = ? AND model_id = ?').bind(realm, modelId).first<{ n: number }>()
  return Number(row?.n ?? 0)
}

/** How many published goals use an objective. */
export async function objectivePublishedUse(db: D1Database, realm: string, objectiveId: string): Promise<number> {
  const row = await db
    .prepare(
      "SELECT COUNT(*) AS n FROM achievement_goal_objective o JOIN achievement_goal g ON g.id = o.goal_id WHERE o.realm = ? AND o.objective_id = ? AND g.type = 'goal'",
    )
    .bind(realm, objectiveId)
    .first<{ n: number }>()
  return Number(row?.n ?? 0)
}

/**
 * The statements writing a goal's objective links and awards (replacing those it had): an award keeps its id when
 * the body names one of the goal's own, so grants stay with it.
 */
export function goalChildStatements(
  db: D1Database,
  realm: string,
  goalId: string,
  body: Pick<GoalInput, 'objective_ids' | 'awards'>,
  ownAwardIds: Set<string>,
) {
  const awards = body.awards.map((a, position) => ({ ...a, id: a.id && ownAwardIds.has(a.id) ? a.id : newId(), position }))
  return [
    db.prepare('DELETE FROM achievement_goal_objective WHERE realm = ? AND goal_id = ?').bind(realm, goalId),
    ...body.objective_ids.map((o) =>
      db.prepare('INSERT INTO achievement_goal_objective (goal_id, realm, objective_id) VALUES (?, ?, ?)').bind(goalId, realm, o),
    ),
    db
      .prepare('DELETE FROM achievement_award WHERE realm = ?1 AND goal_id = ?2 AND id NOT IN (SELECT value FROM json_each(?3))')
      .bind(realm, goalId, JSON.stringify(awards.map((a) => a.id))),
    ...awards.map((a) => awardStatement(db, realm, goalId, a)),
  ]
}

function awardStatement(db: D1Database, realm: string, goalId: string, a: AwardInput & { id: string; position: number }) {
  return db
    .prepare(
      `INSERT INTO achievement_award (id, realm, goal_id, position, title, description, media_url, kind, progress) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, title = excluded.title, description = excluded.description,
         media_url = excluded.media_url, kind = excluded.kind, progress = excluded.progress`,
    )
    .bind(a.id, realm, goalId, a.position, a.title, a.description, a.media_url || null, a.kind, JSON.stringify(a.progress))
}

/** The statements publishing a model: the goal (a copy with the publication's targets, dates and recurrence), its links and awards. */
export function publishStatements(db: D1Database, model: GoalRow & { awards: Award[] }, body: PublishGoalInput, nick: string) {
  const id = newId()
  const at = nowIso()
  const status = body.start_date > at.slice(0, 10) ? 'planned' : 'active'
  return {
    id,
    statements: [
      db
        .prepare(
          `INSERT INTO achievement_goal (id, realm, type, model_id, title, status, start_date, end_date, recurrent, period, targets,
             activity_categories, question_categories, objective_ids, created_at, created_by, updated_at, updated_by)
           VALUES (?, ?, 'goal', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          id,
          model.realm,
          model.id,
          model.title,
          status,
          body.start_date,
          body.end_date,
          body.recurrent ? 1 : 0,
          body.period,
          JSON.stringify(body.targets),
          JSON.stringify(model.activity_categories),
          JSON.stringify(model.question_categories),
          JSON.stringify(model.objective_ids),
          at,
          nick,
          at,
          nick,
        ),
      ...goalChildStatements(db, model.realm, id, { objective_ids: model.objective_ids, awards: model.awards.map((a) => ({ ...a, id: null })) }, new Set()),
    ],
  }
}

interface PublishedGoal {
  id: string
  realm: string
  start_date: string | null
  end_date: string | null
  recurrent: number
  period: GoalPeriod
}

/**
 * Publishes the period holding `today` of every published, not canceled goal (all realms, or one): a recurrent goal
 * gets a new period each period, a one-off goal its one period. `INSERT OR IGNORE` on (goal, period): running twice
 * publishes once. Answers how many periods were new.
 */
export async function publishDuePeriods(db: D1Database, today: string, realm?: string): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT id, realm, start_date, end_date, recurrent, period FROM achievement_goal
       WHERE type = 'goal' AND status != 'canceled' AND start_date <= ?1 AND end_date >= ?1 AND (?2 IS NULL OR realm = ?2)`,
    )
    .bind(today, realm ?? null)
    .all<PublishedGoal>()
  const at = nowIso()
  const statements = results.flatMap((g) => {
    const p = periodOf({ ...g, recurrent: !!g.recurrent }, today)
    return p
      ? [
          db
            .prepare('INSERT OR IGNORE INTO achievement_goal_period (goal_id, realm, period_key, starts_on, ends_on, published_at) VALUES (?, ?, ?, ?, ?, ?)')
            .bind(g.id, g.realm, p.key, p.starts_on, p.ends_on, at),
        ]
      : []
  })
  let added = 0
  for (let i = 0; i < statements.length; i += 50) {
    for (const r of await db.batch(statements.slice(i, i + 50))) added += r.meta.changes ?? 0
  }
  return added
}

/** The answer states whose correction is final: finished, and finalized waiting for the student's opinion on the AI comment. */
const CORRECTED: readonly string[] = ['finished', 'pending_agreement']

/**
 * A goal period's activity — a task published in the period to the goal's rooms, in the goal's activity categories —
 * and one student's answer to it. `questions`, `answered`, `points` and `points_max` count the task's answerable
 * questions in the goal's question categories (every answerable question when the goal names none).
 */
export interface Activity {
  id: string
  kind: string
  status: string | null
  score: number | null
  max_score: number | null
  questions: number
  answered: number
  points: number
  points_max: number
}

interface Objective {
  id: string
  entity: 'essay' | 'exam' | 'tasks' | 'questions'
  criteria: 'all' | 'at_least_one'
  unit: 'score' | 'quantity'
  percent: number
}

/**
 * A student's progress on one objective (0..1): what they achieved over the period's activities of the objective's
 * entity, divided by the objective's percent, capped at 1. Achieved — score: the mean of score/max (`all`, the
 * activities not corrected count 0) or the best (`at_least_one`); for questions the points over the maximum of the
 * corrected answers' questions (`all`) or the best such share of one activity; quantity: the share of activities
 * corrected (`all`) or 1 once one is (`at_least_one`), for questions the questions answered over the activities'
 * questions (`all`) or 1 once one is answered in a corrected activity. Questions are those of the goal's question
 * categories (Activity).
 */
export function objectiveProgress(o: Objective, activities: Activity[]): number {
  const scope = activities.filter((a) => (o.entity === 'essay' ? a.kind === 'essay' : o.entity === 'exam' ? a.kind === 'exam' : true))
  if (!scope.length) return 0
  const done = scope.filter((a) => a.status !== null && CORRECTED.includes(a.status))
  const sum = (xs: Activity[], f: (a: Activity) => number) => xs.reduce((n, a) => n + f(a), 0)
  const ratio = (a: Activity) => (a.max_score ? Math.max(0, Number(a.score ?? 0)) / a.max_score : 0)
  const questionRatio = (a: Activity) => (a.points_max ? Math.max(0, a.points) / a.points_max : 0)
  let achieved: number
  if (o.unit === 'score') {
    if (o.entity === 'questions') {
      const max = sum(done, (a) => a.points_max)
      achieved = o.criteria === 'all' ? (max ? sum(done, (a) => a.points) / max : 0) : Math.max(0, ...done.map(questionRatio))
    } else achieved = o.criteria === 'all' ? sum(done, ratio) / scope.length : Math.max(0, ...done.map(ratio))
  } else if (o.entity === 'questions') {
    const total = sum(scope, (a) => a.questions)
    achieved = o.criteria === 'all' ? (total ? sum(done, (a) => a.answered) / total : 0) : done.some((a) => a.answered > 0) ? 1 : 0
  } else achieved = o.criteria === 'all' ? done.length / scope.length : done.length ? 1 : 0
  return Math.min(1, Math.round((achieved / o.percent) * 10000) / 10000)
}

/** Whether every band of an award holds the progress `valueOf` gives its objective. */
export const bandsHold = (bands: { objective_id: string; min: number; max: number }[], valueOf: (objectiveId: string) => number) =>
  bands.every((b) => {
    const value = valueOf(b.objective_id)
    return value >= b.min && value <= b.max
  })

/**
 * The activities of a goal's period for one student, in one statement: ?1 realm, ?2 student, ?3..?4 the period's
 * days, ?5 the rooms (JSON) and ?6 the groups (JSON) the goal reaches the student through, ?7 the goal's activity
 * categories, ?8 its question categories (JSON; a category counts with its subcategories; none: everything counts),
 * ?9 the informative question types. Per activity, `questions` lists the answerable questions of the version the
 * task was published with that are in the question categories: type, score, the student's answer (texts cut to their
 * first letter: only whether they are filled matters) and the points given (the teacher's, else the automatic ones).
 * The publication day is compared as a range on `publish_at`, so the realm's (realm, publish_at) index reads it.
 */
const ACTIVITIES_SQL = `WITH RECURSIVE
  acat(id) AS (SELECT value FROM json_each(?7) UNION SELECT c.id FROM acat CROSS JOIN tms_category c ON c.realm = ?1 AND c.parent_id = acat.id),
  qcat(id) AS (SELECT value FROM json_each(?8) UNION SELECT c.id FROM qcat CROSS JOIN tms_category c ON c.realm = ?1 AND c.parent_id = qcat.id)
SELECT t.id, t.kind, a.status, a.score, a.max_score,
  (SELECT json_group_array(json_object(
      'type', q.type,
      'score', q.score,
      'answer', json_set(json_extract(a.answers, q.path), '$.text', substr(trim(json_extract(a.answers, q.path || '.text')), 1, 1)),
      'points', COALESCE(json_extract(a.scores, q.path), json_extract(a.auto_scores, q.path))))
   FROM (SELECT json_extract(j.value, '$.type') AS type, json_extract(j.value, '$.score') AS score, json_extract(j.value, '$.categories') AS categories,
           '$."' || json_extract(j.value, '$.id') || '"' AS path
         FROM json_each(v.content, '$.questions') j WHERE json_extract(j.value, '$.id') IS NOT NULL) q
   WHERE q.type NOT IN (SELECT value FROM json_each(?9))
     AND (json_array_length(?8) = 0 OR EXISTS (SELECT 1 FROM json_each(q.categories) qc WHERE qc.value IN (SELECT id FROM qcat)))) AS questions
FROM tms_task t
JOIN tms_model_version v ON v.model_id = t.model_id AND v.version = t.model_version AND v.realm = t.realm
LEFT JOIN tms_answer a ON a.realm = t.realm AND a.task_id = t.id AND a.nick = ?2
WHERE t.realm = ?1 AND t.publish_at >= ?3 AND t.publish_at < date(?4, '+1 day')
  AND (json_array_length(?7) = 0 OR EXISTS (SELECT 1 FROM json_each(t.categories) tc WHERE tc.value IN (SELECT id FROM acat)))
  AND EXISTS (SELECT 1 FROM tms_task_target tt WHERE tt.task_id = t.id AND (
    (tt.room_id IN (SELECT value FROM json_each(?5)) AND (tt.nick IS NULL OR tt.nick = ?2))
    OR tt.group_id IN (SELECT value FROM json_each(?6))))`

type ActivityRow = Omit<Activity, 'questions' | 'answered' | 'points' | 'points_max'> & { questions: string }

/** An activity's row with its in-category questions counted: how many, answered (as deliveries count them), points and maximum. */
function activityOf(row: ActivityRow): Activity {
  const questions = json<{ type: Question['type']; score: number | null; answer: AnswerValue | null; points: number | null }[]>(row.questions, [])
  return {
    ...row,
    questions: questions.length,
    answered: questions.filter((q) => isAnswered({ type: q.type } as Question, q.answer ?? undefined)).length,
    points: questions.reduce((n, q) => n + Number(q.points ?? 0), 0),
    points_max: questions.reduce((n, q) => n + Number(q.score ?? 0), 0),
  }
}

/** A goal's period that holds a day, as the recomputation reads it. */
interface DuePeriod {
  id: string
  targets: string
  activity_categories: string
  question_categories: string
  objective_ids: string
  period_key: string
  starts_on: string
  ends_on: string
}

/**
 * Recomputes a student's progress and awards in every period of the realm's published goals that reaches them and
 * holds `day` (the corrected task's publication day): called after a correction (worker/api/tms/answer.ts), and
 * idempotent (progress is an upsert, a grant is kept once). The goal's activity and question categories filter what
 * counts in the one activities statement (ACTIVITIES_SQL). Progress follows the current figures; a grant, once made,
 * is kept when a later correction lowers the progress (README "Goals, objectives, awards and tracks").
 */
export async function recomputeStudent(db: D1Database, realm: string, nick: string, day: string): Promise<void> {
  const { results: periods } = await db
    .prepare(
      `SELECT g.id, g.targets, g.activity_categories, g.question_categories, g.objective_ids, p.period_key, p.starts_on, p.ends_on
       FROM achievement_goal_period p JOIN achievement_goal g ON g.id = p.goal_id
       WHERE p.realm = ?1 AND g.status != 'canceled' AND p.starts_on <= ?2 AND p.ends_on >= ?2`,
    )
    .bind(realm, day)
    .all<DuePeriod>()
  if (!periods.length) return
  const { results: memberRooms } = await db.prepare('SELECT room_id FROM room_member WHERE realm = ? AND nick = ?').bind(realm, nick).all<{ room_id: string }>()
  const mine = new Set(memberRooms.map((r) => r.room_id))
  const statements: D1PreparedStatement[] = []
  const at = nowIso()
  for (const p of periods) {
    const targets = json<GoalTarget[]>(p.targets, [])
    const groupIds = targets.filter((t) => t.kind === 'group').map((t) => t.id)
    const { results: groupRooms } = groupIds.length
      ? await db
          .prepare('SELECT j.value AS room_id FROM room_group g, json_each(g.rooms) j WHERE g.realm = ?1 AND g.id IN (SELECT value FROM json_each(?2))')
          .bind(realm, JSON.stringify(groupIds))
          .all<{ room_id: string }>()
      : { results: [] as { room_id: string }[] }
    const rooms = [...new Set([...targets.filter((t) => t.kind === 'room').map((t) => t.id), ...groupRooms.map((r) => r.room_id)])].filter((r) => mine.has(r))
    if (!rooms.length) continue
    const { results: rows } = await db
      .prepare(ACTIVITIES_SQL)
      .bind(
        realm,
        nick,
        p.starts_on,
        p.ends_on,
        JSON.stringify(rooms),
        JSON.stringify(groupIds),
        JSON.stringify(json<string[]>(p.activity_categories, [])),
        JSON.stringify(json<string[]>(p.question_categories, [])),
        JSON.stringify(INFORMATIVE_TYPES),
      )
      .all<ActivityRow>()
    const activities = rows.map(activityOf)
    const { results: objectives } = await db
      .prepare('SELECT id, entity, criteria, unit, percent FROM achievement_objective WHERE realm = ?1 AND id IN (SELECT value FROM json_each(?2))')
      .bind(realm, p.objective_ids)
      .all<Objective>()
    const progress = new Map(objectives.map((o) => [o.id, objectiveProgress(o, activities)]))
    const room = rooms[0]
    for (const [objective, value] of progress) {
      statements.push(
        db
          .prepare(
            `INSERT INTO achievement_progress (goal_id, period_key, objective_id, realm, nick, room_id, progress, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (goal_id, period_key, objective_id, nick) DO UPDATE SET progress = excluded.progress, room_id = excluded.room_id, updated_at = excluded.updated_at`,
          )
          .bind(p.id, p.period_key, objective, realm, nick, room, value, at),
      )
    }
    for (const award of await awardsOf(db, realm, p.id)) {
      // Granted once (INSERT OR IGNORE); never revoked here when the progress falls out of the band later.
      if (bandsHold(award.progress, (id) => progress.get(id) ?? 0))
        statements.push(
          db
            .prepare('INSERT OR IGNORE INTO achievement_grant (award_id, period_key, nick, realm, goal_id, room_id, granted_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .bind(award.id, p.period_key, nick, realm, p.id, room, at),
        )
    }
  }
  if (statements.length) await db.batch(statements)
}

/** After a correction of `answerId`: the student's goals recomputed (a failure is logged, never fails the correction). */
export async function recomputeAfterCorrection(db: D1Database, realm: string, answerId: string): Promise<void> {
  const row = await db
    .prepare('SELECT a.nick, substr(t.publish_at, 1, 10) AS day FROM tms_answer a JOIN tms_task t ON t.id = a.task_id WHERE a.realm = ? AND a.id = ?')
    .bind(realm, answerId)
    .first<{ nick: string; day: string }>()
  if (!row) return
  await recomputeStudent(db, realm, row.nick, row.day).catch((err: unknown) => console.error('[achievement] recompute failed:', err))
}

/** A grant's award objectives with the student's current progress on each (the band it was granted in). */
export interface GrantProgress {
  objective_id: string
  objective: string
  progress: number
  min: number
  max: number
}

/**
 * Per grant `gr` of award `a`: the award's bands with the student's current progress in the grant's period (0 when
 * none is stored), as a JSON list (GrantProgress).
 */
const GRANT_PROGRESS_SQL = `(SELECT json_group_array(json_object('objective_id', b.objective_id, 'objective', COALESCE(o.title, b.objective_id),
      'progress', COALESCE(p.progress, 0), 'min', b.min, 'max', b.max))
    FROM (SELECT json_extract(j.value, '$.objective_id') AS objective_id, json_extract(j.value, '$.min') AS min, json_extract(j.value, '$.max') AS max
          FROM json_each(a.progress) j) b
    LEFT JOIN achievement_objective o ON o.id = b.objective_id AND o.realm = gr.realm
    LEFT JOIN achievement_progress p ON p.goal_id = gr.goal_id AND p.period_key = gr.period_key AND p.objective_id = b.objective_id AND p.nick = gr.nick)`

/**
 * A grant with its current progress: `held` says whether the current progress still lies in every band of the
 * award. The award stays granted either way (students keep what they earned); the progress shown is the current one.
 */
function withProgress<T extends { progress: string }>(row: T): Omit<T, 'progress'> & { progress: GrantProgress[]; held: boolean } {
  const progress = json<GrantProgress[]>(row.progress, [])
  const byObjective = new Map(progress.map((p) => [p.objective_id, p.progress]))
  return { ...row, progress, held: bandsHold(progress, (id) => byObjective.get(id) ?? 0) }
}

/** A student's awards (the mobile surface), newest first, each with the student's current progress on its objectives. */
export async function studentAwards(db: D1Database, realm: string, nick: string) {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.title, a.description, a.media_url, a.kind, g.title AS goal_title, gr.period_key, gr.granted_at, ${GRANT_PROGRESS_SQL} AS progress
       FROM achievement_grant gr JOIN achievement_award a ON a.id = gr.award_id JOIN achievement_goal g ON g.id = gr.goal_id
       WHERE gr.realm = ? AND gr.nick = ? ORDER BY gr.granted_at DESC, a.position LIMIT 100`,
    )
    .bind(realm, nick)
    .all<{
      id: string
      title: string
      description: string
      media_url: string | null
      kind: string
      goal_title: string
      period_key: string
      granted_at: string
      progress: string
    }>()
  return results.map(withProgress)
}

/** A published goal's grants per room (the teachers' view): room, student, award, period, and the student's current progress. */
export async function goalGrantsByRoom(db: D1Database, realm: string, goalId: string) {
  const { results } = await db
    .prepare(
      `SELECT gr.room_id, COALESCE(r.name, '') AS room_name, gr.nick, COALESCE(u.name, gr.nick) AS student_name, a.title AS award_title,
         gr.period_key, gr.granted_at, ${GRANT_PROGRESS_SQL} AS progress
       FROM achievement_grant gr JOIN achievement_award a ON a.id = gr.award_id
       LEFT JOIN room r ON r.id = gr.room_id LEFT JOIN user u ON u.realm = gr.realm AND u.nick = gr.nick
       WHERE gr.realm = ? AND gr.goal_id = ? ORDER BY room_name, student_name, gr.granted_at LIMIT 1000`,
    )
    .bind(realm, goalId)
    .all<{
      room_id: string | null
      room_name: string
      nick: string
      student_name: string
      award_title: string
      period_key: string
      granted_at: string
      progress: string
    }>()
  return results.map(withProgress)
}

/** A goal's shown status (seed 001 §4: canceled, else by the clock). */
export async function shownStatus(db: D1Database, realm: string, goalId: string): Promise<string | null> {
  return (
    (await db.prepare(`SELECT ${SHOWN_STATUS_SQL} AS s FROM achievement_goal WHERE realm = ? AND id = ?`).bind(realm, goalId).first<{ s: string }>())?.s ?? null
  )
}

/** The statement setting a published goal's stored status. */
export function goalStatusStatement(db: D1Database, realm: string, goalId: string, status: string, at: string, nick: string) {
  return db.prepare('UPDATE achievement_goal SET status = ?, updated_at = ?, updated_by = ? WHERE realm = ? AND id = ?').bind(status, at, nick, realm, goalId)
}

/** The id and title of a realm's rows of `table` (objectives, task models, lesson models): choices of the forms. */
export async function titleChoices(db: D1Database, realm: string, table: 'achievement_objective' | 'tms_model' | 'lesson_model' | 'survey_model') {
  return (await db.prepare(`SELECT id, title FROM ${table} WHERE realm = ? ORDER BY title LIMIT 1000`).bind(realm).all<{ id: string; title: string }>()).results
}
