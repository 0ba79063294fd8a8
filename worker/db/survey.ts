/**
 * Surveys (issue 19): SQL of survey models, published surveys, students' answers and their revisions, and the result
 * figures. Publication targets and the student reach are every publication's (`./publication`, `reachSql`).
 */
import {
  SCALE_POINTS,
  percentOf,
  surveyEntity,
  surveyModelEntity,
  type Survey,
  type SurveyModel,
  type SurveyQuestionResult,
  type SurveyValue,
} from '#shared/schemas/survey/survey'
import { newId, nowIso } from '../lib/tms'
import { decodeRow } from './entity-rows'
import { reachSql } from './answer'
import { rowsWhereIn } from './ids'
import { publishedCounts } from './tms'
import { SURVEY_TABLES, getPublished, publishedTargets, type TargetRow, type TaskTarget } from './publication'

/** The published surveys' base table (the entity reads its view). */
export const surveyTable = { ...surveyEntity, table: 'survey_survey' }

const REACH = reachSql(SURVEY_TABLES.targets, SURVEY_TABLES.key)

export async function getSurveyModel(db: D1Database, realm: string, id: string): Promise<SurveyModel | null> {
  const row = await db.prepare('SELECT * FROM survey_model WHERE id = ? AND realm = ?').bind(id, realm).first<Record<string, unknown>>()
  return row ? decodeRow(surveyModelEntity, row) : null
}

export const getSurvey = (db: D1Database, realm: string, id: string): Promise<Survey | null> => getPublished(db, SURVEY_TABLES, surveyEntity, realm, id)

/** How many surveys were published from each model. */
export const surveyCounts = (db: D1Database, realm: string, ids: string[]) => publishedCounts(db, realm, ids, 'survey_survey')

/** A survey's targets with room and group names (as a task's). */
export const surveyTargets = (db: D1Database, realm: string, id: string): Promise<TaskTarget[]> => publishedTargets(db, SURVEY_TABLES, realm, id)

const targetKey = (t: TargetRow) => `${t.room_id ?? ''}/${t.nick ?? ''}/${t.group_id ?? ''}`

/**
 * The current targets a change of targets would remove although they reached an answer (issue 19): each answer
 * (its student and the room it reached them through) must stay reached by a kept or new target — a room, the member
 * in that room, or a group holding that room. Empty when nothing answered is lost.
 */
export async function answeredTargetsRemoved<T extends TargetRow>(
  db: D1Database,
  realm: string,
  surveyId: string,
  before: T[],
  after: TargetRow[],
): Promise<T[]> {
  const kept = new Set(after.map(targetKey))
  const removed = before.filter((t) => !kept.has(targetKey(t)))
  if (!removed.length) return []
  const { results: answers } = await db
    .prepare('SELECT nick, room_id FROM survey_answer WHERE realm = ? AND survey_id = ?')
    .bind(realm, surveyId)
    .all<{ nick: string; room_id: string | null }>()
  if (!answers.length) return []
  const groupIds = [...new Set([...before, ...after].flatMap((t) => (t.group_id ? [t.group_id] : [])))]
  const groups = await rowsWhereIn<{ id: string; rooms: string }>(db, 'SELECT id, rooms FROM room_group', 'id', realm, groupIds)
  const groupRooms = new Map(groups.map((g) => [g.id, JSON.parse(g.rooms) as string[]]))
  const reaches = (t: TargetRow, a: { nick: string; room_id: string | null }) =>
    t.group_id ? (groupRooms.get(t.group_id) ?? []).includes(a.room_id ?? '') : t.room_id === a.room_id && (t.nick === null || t.nick === a.nick)
  const lost = answers.filter((a) => !after.some((t) => reaches(t, a)))
  return removed.filter((t) => lost.some((a) => reaches(t, a)))
}

/** The rooms through which the survey reaches the student (empty: it does not reach them). */
export async function surveyReach(db: D1Database, realm: string, surveyId: string, nick: string): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT room_id FROM (${REACH.replaceAll('t.id', '?3')})`)
    .bind(realm, nick, surveyId)
    .all<{ room_id: string }>()
  return results.map((r) => r.room_id)
}

export interface StudentSurveyRow {
  id: string
  title: string
  description: string
  publish_at: string
  expire_at: string | null
  question_count: number
  is_required: number | boolean
  answered_at: string | null
}

/** The published surveys reaching a student, not yet answered first (required ones first among them), then the newest. */
export async function studentSurveys(db: D1Database, realm: string, nick: string, limit: number, offset: number) {
  const from = `FROM survey_survey_view t LEFT JOIN survey_answer a ON a.survey_id = t.id AND a.nick = ?2
    WHERE t.realm = ?1 AND t.status = 'published' AND EXISTS (${REACH})`
  const [page, count] = await db.batch([
    db
      .prepare(
        `SELECT t.id, t.title, t.description, t.publish_at, t.expire_at, t.question_count, t.is_required, a.created_at AS answered_at ${from}
         ORDER BY a.id IS NOT NULL, t.is_required DESC, t.publish_at DESC, t.id LIMIT ?3 OFFSET ?4`,
      )
      .bind(realm, nick, limit, offset),
    db.prepare(`SELECT COUNT(*) AS total ${from}`).bind(realm, nick),
  ])
  const rows = (page.results as StudentSurveyRow[]).map((r) => ({ ...r, is_required: Boolean(r.is_required) }))
  return { rows, total: Number((count.results[0] as { total: number }).total) }
}

export interface SurveyAnswerRow {
  id: string
  survey_id: string
  nick: string
  name: string
  room_id: string | null
  room_name: string | null
  answers: Record<string, SurveyValue>
  created_at: string
  updated_at: string
  updated_by: string
  revision_count: number
}

const ANSWER_SELECT = `SELECT a.id, a.survey_id, a.nick, coalesce(u.name, a.nick) AS name, a.room_id, r.name AS room_name, a.answers,
  a.created_at, a.updated_at, a.updated_by, a.revision_count
  FROM survey_answer a LEFT JOIN user u ON u.realm = a.realm AND u.nick = a.nick LEFT JOIN room r ON r.id = a.room_id`

const decodeAnswer = (r: Record<string, unknown>): SurveyAnswerRow => ({ ...(r as unknown as SurveyAnswerRow), answers: JSON.parse(String(r.answers)) })

/** The survey's answers (who answered), by room then name. */
export async function surveyAnswers(db: D1Database, realm: string, surveyId: string): Promise<SurveyAnswerRow[]> {
  const { results } = await db
    .prepare(`${ANSWER_SELECT} WHERE a.realm = ? AND a.survey_id = ? ORDER BY room_name, name LIMIT 5000`)
    .bind(realm, surveyId)
    .all<Record<string, unknown>>()
  return results.map(decodeAnswer)
}

export async function surveyAnswer(db: D1Database, realm: string, surveyId: string, where: { id: string } | { nick: string }): Promise<SurveyAnswerRow | null> {
  const [col, value] = 'id' in where ? ['a.id', where.id] : ['a.nick', where.nick]
  const row = await db
    .prepare(`${ANSWER_SELECT} WHERE a.realm = ? AND a.survey_id = ? AND ${col} = ?`)
    .bind(realm, surveyId, value)
    .first<Record<string, unknown>>()
  return row ? decodeAnswer(row) : null
}

export interface SurveyRevisionRow {
  id: string
  revised_by: string
  revised_at: string
  before: Record<string, SurveyValue>
  after: Record<string, SurveyValue>
}

/** An answer's revisions by staff, the newest first. */
export async function answerRevisions(db: D1Database, realm: string, answerId: string): Promise<SurveyRevisionRow[]> {
  const { results } = await db
    .prepare(
      'SELECT id, revised_by, revised_at, before, after FROM survey_answer_revision WHERE realm = ? AND answer_id = ? ORDER BY revised_at DESC, id LIMIT 200',
    )
    .bind(realm, answerId)
    .all<Record<string, unknown>>()
  return results.map((r) => ({ ...(r as unknown as SurveyRevisionRow), before: JSON.parse(String(r.before)), after: JSON.parse(String(r.after)) }))
}

/** Rooms with answers to the survey (the result's room filter). */
export async function answerRooms(db: D1Database, realm: string, surveyId: string): Promise<{ id: string; name: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT r.id, r.name FROM survey_answer a JOIN room r ON r.id = a.room_id WHERE a.realm = ? AND a.survey_id = ? ORDER BY r.name LIMIT 500`,
    )
    .bind(realm, surveyId)
    .all<{ id: string; name: string }>()
  return results
}

/**
 * The result of a survey (optionally of one room): per question, counts per choice or scale point with percentages
 * of those who answered it, the scale's mean, the latest texts. Counted in SQL over the answers' JSON.
 */
export async function surveyResult(
  db: D1Database,
  realm: string,
  survey: Survey,
  room: string | null,
): Promise<{ respondents: number; questions: SurveyQuestionResult[] }> {
  const scope = `a.realm = ?1 AND a.survey_id = ?2${room ? ' AND a.room_id = ?3' : ''}`
  const params = room ? [realm, survey.id, room] : [realm, survey.id]
  const [total, counts, texts] = await db.batch([
    db.prepare(`SELECT COUNT(*) AS n FROM survey_answer a WHERE ${scope}`).bind(...params),
    // One row per (question, value): single and scale values, and each element of a multi answer.
    db
      .prepare(
        `SELECT q.key AS qid, CASE WHEN q.type = 'array' THEN e.value ELSE q.value END AS value, COUNT(*) AS n
         FROM survey_answer a, json_each(a.answers) q LEFT JOIN json_each(CASE WHEN q.type = 'array' THEN q.value ELSE '[]' END) e
         WHERE ${scope} AND q.type IN ('integer', 'array') AND (q.type = 'integer' OR e.value IS NOT NULL)
         GROUP BY qid, 2`,
      )
      .bind(...params),
    db
      .prepare(
        `SELECT q.key AS qid, q.value AS text FROM survey_answer a, json_each(a.answers) q WHERE ${scope} AND q.type = 'text' ORDER BY a.updated_at DESC LIMIT 2000`,
      )
      .bind(...params),
  ])
  const respondents = Number((total.results[0] as { n: number }).n)
  const count = new Map<string, Map<number, number>>()
  for (const r of counts.results as { qid: string; value: number; n: number }[]) {
    const m = count.get(r.qid) ?? new Map<number, number>()
    m.set(Number(r.value), Number(r.n))
    count.set(r.qid, m)
  }
  const textsOf = new Map<string, string[]>()
  for (const r of texts.results as { qid: string; text: string }[]) textsOf.set(r.qid, [...(textsOf.get(r.qid) ?? []), r.text])
  // Respondents per question: the answers holding it (a multi answer counts once).
  const answeredOf = new Map<string, number>()
  const per = await db
    .prepare(`SELECT q.key AS qid, COUNT(*) AS n FROM survey_answer a, json_each(a.answers) q WHERE ${scope} GROUP BY qid`)
    .bind(...params)
    .all<{ qid: string; n: number }>()
  for (const r of per.results) answeredOf.set(r.qid, Number(r.n))
  const questions = survey.questions.map((q): SurveyQuestionResult => {
    const answered = answeredOf.get(q.id) ?? 0
    const c = count.get(q.id) ?? new Map<number, number>()
    const points = q.type === 'scale' ? SCALE_POINTS.map((p) => ({ label: String(p), key: p })) : q.options.map((label, key) => ({ label, key }))
    const options = q.type === 'text' ? [] : points.map((p) => ({ label: p.label, count: c.get(p.key) ?? 0, percent: percentOf(c.get(p.key) ?? 0, answered) }))
    const sum = q.type === 'scale' ? SCALE_POINTS.reduce((s, p) => s + p * (c.get(p) ?? 0), 0) : 0
    return {
      id: q.id,
      type: q.type,
      statement: q.statement,
      answered,
      options,
      mean: q.type === 'scale' && answered ? Math.round((sum / answered) * 100) / 100 : null,
      texts: q.type === 'text' ? (textsOf.get(q.id) ?? []).slice(0, 50) : [],
    }
  })
  return { respondents, questions }
}

/**
 * A student's answer. OR IGNORE: of two sends at once the first is kept (one answer per student per survey); the
 * caller reads the stored answer back to tell the second it was already answered.
 */
export function insertAnswerStatement(
  db: D1Database,
  a: { id: string; realm: string; survey_id: string; nick: string; room_id: string | null; answers: Record<string, SurveyValue>; at: string },
): D1PreparedStatement {
  return db
    .prepare(
      'INSERT OR IGNORE INTO survey_answer (id, realm, survey_id, nick, room_id, answers, created_at, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(a.id, a.realm, a.survey_id, a.nick, a.room_id, JSON.stringify(a.answers), a.at, a.at, a.nick)
}

/** A staff revision of an answer: the new answers, and the revision row with what it was before and who changed it. */
export function reviseStatements(
  db: D1Database,
  realm: string,
  actor: string,
  answer: SurveyAnswerRow,
  after: Record<string, SurveyValue>,
): D1PreparedStatement[] {
  const now = nowIso()
  return [
    db
      .prepare('UPDATE survey_answer SET answers = ?, updated_at = ?, updated_by = ?, revision_count = revision_count + 1 WHERE id = ? AND realm = ?')
      .bind(JSON.stringify(after), now, actor, answer.id, realm),
    db
      .prepare('INSERT INTO survey_answer_revision (id, realm, answer_id, revised_by, revised_at, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(newId(), realm, answer.id, actor, now, JSON.stringify(answer.answers), JSON.stringify(after)),
  ]
}
