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

/** A goal period's activities and one student's answers to them. */
interface Activity {
  id: string
  kind: string
  categories: string
  question_count: number
  status: string | null
  score: number | null
  max_score: number | null
  answered_count: number | null
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
 * activities not corrected count 0) or the best (`at_least_one`), for questions the points over the corrected
 * answers' maximum; quantity: the share of activities corrected (`all`) or 1 once one is (`at_least_one`), for
 * questions the questions answered over the activities' questions.
 */
export function objectiveProgress(o: Objective, activities: Activity[]): number {
  const scope = activities.filter((a) => (o.entity === 'essay' ? a.kind === 'essay' : o.entity === 'exam' ? a.kind === 'exam' : true))
  if (!scope.length) return 0
  const done = scope.filter((a) => a.status === 'finished')
  const ratio = (a: Activity) => (a.max_score ? Math.max(0, Number(a.score ?? 0)) / a.max_score : 0)
  let achieved: number
  if (o.unit === 'score') {
    if (o.entity === 'questions' && o.criteria === 'all') {
      const max = done.reduce((n, a) => n + Number(a.max_score ?? 0), 0)
      achieved = max ? done.reduce((n, a) => n + Number(a.score ?? 0), 0) / max : 0
    } else if (o.criteria === 'all') achieved = done.reduce((n, a) => n + ratio(a), 0) / scope.length
    else achieved = Math.max(0, ...done.map(ratio))
  } else if (o.entity === 'questions') {
    const total = scope.reduce((n, a) => n + Number(a.question_count), 0)
    achieved = total ? done.reduce((n, a) => n + Number(a.answered_count ?? 0), 0) / total : 0
    if (o.criteria === 'at_least_one') achieved = done.some((a) => Number(a.answered_count) > 0) ? 1 : 0
  } else achieved = o.criteria === 'all' ? done.length / scope.length : done.length ? 1 : 0
  return Math.min(1, Math.round((achieved / o.percent) * 10000) / 10000)
}

/**
 * Recomputes a student's progress and awards in every period of the realm's published goals that reaches them and
 * holds `day` (the corrected task's publication day): called after a correction (worker/api/tms/answer.ts), and
 * idempotent (progress is an upsert, a grant is kept once).
 */
export async function recomputeStudent(db: D1Database, realm: string, nick: string, day: string): Promise<void> {
  const { results: periods } = await db
    .prepare(
      `SELECT g.id, g.targets, g.activity_categories, g.objective_ids, p.period_key, p.starts_on, p.ends_on
       FROM achievement_goal_period p JOIN achievement_goal g ON g.id = p.goal_id
       WHERE p.realm = ?1 AND g.status != 'canceled' AND p.starts_on <= ?2 AND p.ends_on >= ?2`,
    )
    .bind(realm, day)
    .all<{ id: string; targets: string; activity_categories: string; objective_ids: string; period_key: string; starts_on: string; ends_on: string }>()
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
    const { results: activities } = await db
      .prepare(
        `SELECT t.id, t.kind, t.categories, m.question_count, a.status, a.score, a.max_score, a.answered_count
         FROM tms_task t JOIN tms_model m ON m.id = t.model_id
         LEFT JOIN tms_answer a ON a.realm = t.realm AND a.task_id = t.id AND a.nick = ?2
         WHERE t.realm = ?1 AND substr(t.publish_at, 1, 10) BETWEEN ?3 AND ?4
           AND EXISTS (SELECT 1 FROM tms_task_target tt WHERE tt.task_id = t.id AND (
             (tt.room_id IN (SELECT value FROM json_each(?5)) AND (tt.nick IS NULL OR tt.nick = ?2))
             OR tt.group_id IN (SELECT value FROM json_each(?6))))`,
      )
      .bind(realm, nick, p.starts_on, p.ends_on, JSON.stringify(rooms), JSON.stringify(groupIds))
      .all<Activity>()
    const categories = json<string[]>(p.activity_categories, [])
    const inScope = categories.length ? activities.filter((a) => json<string[]>(a.categories, []).some((c) => categories.includes(c))) : activities
    const { results: objectives } = await db
      .prepare('SELECT id, entity, criteria, unit, percent FROM achievement_objective WHERE realm = ?1 AND id IN (SELECT value FROM json_each(?2))')
      .bind(realm, p.objective_ids)
      .all<Objective>()
    const progress = new Map(objectives.map((o) => [o.id, objectiveProgress(o, inScope)]))
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
      const reached = award.progress.every((band) => {
        const value = progress.get(band.objective_id) ?? 0
        return value >= band.min && value <= band.max
      })
      if (reached)
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

/** A student's awards (the mobile surface): newest first. */
export async function studentAwards(db: D1Database, realm: string, nick: string) {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.title, a.description, a.media_url, a.kind, g.title AS goal_title, gr.period_key, gr.granted_at
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
    }>()
  return results
}

/** A published goal's grants per room (the teachers' view): room, student, award, period. */
export async function goalGrantsByRoom(db: D1Database, realm: string, goalId: string) {
  const { results } = await db
    .prepare(
      `SELECT gr.room_id, COALESCE(r.name, '') AS room_name, gr.nick, COALESCE(u.name, gr.nick) AS student_name, a.title AS award_title,
         gr.period_key, gr.granted_at
       FROM achievement_grant gr JOIN achievement_award a ON a.id = gr.award_id
       LEFT JOIN room r ON r.id = gr.room_id LEFT JOIN user u ON u.realm = gr.realm AND u.nick = gr.nick
       WHERE gr.realm = ? AND gr.goal_id = ? ORDER BY room_name, student_name, gr.granted_at LIMIT 1000`,
    )
    .bind(realm, goalId)
    .all<{ room_id: string | null; room_name: string; nick: string; student_name: string; award_title: string; period_key: string; granted_at: string }>()
  return results
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
