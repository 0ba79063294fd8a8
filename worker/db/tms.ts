import type { ErrorItem } from '#shared/schemas/error'
import type { UsageKind } from '#shared/entities/define'
import categoryEntity from '#shared/entities/tms-category'
import { categoryChoiceProblems, type Category } from '#shared/schemas/tms/category'
import { MODEL_CONTENT_FIELDS, modelEntity, type Model } from '#shared/schemas/tms/model'
import type { Question } from '#shared/schemas/tms/question'
import { decodeRow } from '../lib/entity'
import { ruleError } from '../lib/tms'

/** Every task category of a realm (a realm has tens of them, not thousands). */
export async function listCategories(db: D1Database, realm: string): Promise<Category[]> {
  const { results } = await db.prepare('SELECT * FROM tms_category WHERE realm = ? ORDER BY name LIMIT 2000').bind(realm).all<Record<string, unknown>>()
  return results.map((r) => decodeRow<Category>(categoryEntity, r))
}

export async function getModel(db: D1Database, realm: string, id: string): Promise<Model | null> {
  const row = await db.prepare('SELECT * FROM tms_model WHERE id = ? AND realm = ?').bind(id, realm).first<Record<string, unknown>>()
  return row ? decodeRow(modelEntity, row) : null
}

/** How many tasks were published from a model (all versions). */
export async function publishedCount(db: D1Database, realm: string, modelId: string): Promise<number> {
  const row = await db.prepare('SELECT COUNT(*) AS n FROM tms_task WHERE realm = ? AND model_id = ?').bind(realm, modelId).first<{ n: number }>()
  return row?.n ?? 0
}

/** The content of a model, as versions and exports keep it. */
export function modelContent(m: Pick<Model, (typeof MODEL_CONTENT_FIELDS)[number]>): Record<string, unknown> {
  return Object.fromEntries(MODEL_CONTENT_FIELDS.map((f) => [f, m[f]]))
}

/** Keeps the content of the model's current version (idempotent): published tasks read it. */
export function snapshotStatement(db: D1Database, m: Model, actor: string): D1PreparedStatement {
  return db
    .prepare('INSERT INTO tms_model_version (model_id, version, realm, content, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
    .bind(m.id, m.version, m.realm, JSON.stringify(modelContent(m)), new Date().toISOString(), actor)
}

export async function modelVersionContent(db: D1Database, realm: string, modelId: string, version: number): Promise<Record<string, unknown> | null> {
  const row = await db
    .prepare('SELECT content FROM tms_model_version WHERE realm = ? AND model_id = ? AND version = ?')
    .bind(realm, modelId, version)
    .first<{ content: string }>()
  return row ? (JSON.parse(row.content) as Record<string, unknown>) : null
}

type Ref = { id: string; type: string }

/**
 * Problems of references to other rows of the realm: categories (known, selectable, one per single-selection
 * group), and for essays the genre and assessed skills. `at` prefixes the field paths (e.g. `questions.2.`).
 */
export async function referenceProblems(
  db: D1Database,
  realm: string,
  categories: string[] | null,
  questions: { q: Question; at: string }[],
): Promise<ErrorItem[]> {
  const all = await listCategories(db, realm)
  const out: ErrorItem[] = []
  const choice = (chosen: string[], field: string) => {
    for (const p of categoryChoiceProblems(chosen, all)) out.push(ruleError(field, p.message, p.value))
  }
  if (categories) choice(categories, 'categories')
  const essays = questions.filter(({ q }) => q.type === 'essay')
  const [genres, skills] = essays.length
    ? await Promise.all([
        db.prepare('SELECT id FROM tms_genre WHERE realm = ?').bind(realm).all<{ id: string }>(),
        db.prepare('SELECT id, type FROM tms_assessed_skill WHERE realm = ?').bind(realm).all<Ref>(),
      ])
    : [{ results: [] }, { results: [] as Ref[] }]
  const genreIds = new Set(genres.results.map((g) => g.id))
  const skillType = new Map(skills.results.map((s) => [s.id, s.type]))
  for (const { q, at } of questions) {
    choice(q.categories, `${at}categories`)
    if (q.type !== 'essay') continue
    const o = q.options
    if (o.genre && !genreIds.has(o.genre)) out.push(ruleError(`${at}options.genre`, 'validation.tms.unknown_genre', o.genre))
    for (const id of o.assessed_skill_ids)
      if (skillType.get(id) !== 'skill') out.push(ruleError(`${at}options.assessed_skill_ids`, 'validation.tms.unknown_skill', id))
    if (o.assessed_skill_group_id && skillType.get(o.assessed_skill_group_id) !== 'group') {
      out.push(ruleError(`${at}options.assessed_skill_group_id`, 'validation.tms.unknown_skill', o.assessed_skill_group_id))
    }
  }
  return out
}

/** Where a category, genre or skill is used, to refuse removing it (counts of models and bank items). */
export async function usage(db: D1Database, realm: string, kind: UsageKind, id: string): Promise<number> {
  const queries: Record<typeof kind, string[]> = {
    category: [
      'SELECT COUNT(*) AS n FROM tms_model m, json_each(m.categories) c WHERE m.realm = ?1 AND c.value = ?2',
      "SELECT COUNT(*) AS n FROM tms_model m, json_each(m.questions) q, json_each(q.value, '$.categories') c WHERE m.realm = ?1 AND c.value = ?2",
      'SELECT COUNT(*) AS n FROM tms_task t, json_each(t.categories) c WHERE t.realm = ?1 AND c.value = ?2',
      'SELECT COUNT(*) AS n FROM tms_question_bank b, json_each(b.categories) c WHERE b.realm = ?1 AND c.value = ?2',
      'SELECT COUNT(*) AS n FROM tms_category WHERE realm = ?1 AND parent_id = ?2',
    ],
    genre: [
      "SELECT COUNT(*) AS n FROM tms_model m, json_each(m.questions) q WHERE m.realm = ?1 AND json_extract(q.value, '$.options.genre') = ?2",
      "SELECT COUNT(*) AS n FROM tms_question_bank b WHERE b.realm = ?1 AND json_extract(b.options, '$.genre') = ?2",
    ],
    skill: [
      "SELECT COUNT(*) AS n FROM tms_model m, json_each(m.questions) q, json_each(q.value, '$.options.assessed_skill_ids') s WHERE m.realm = ?1 AND s.value = ?2",
      "SELECT COUNT(*) AS n FROM tms_model m, json_each(m.questions) q WHERE m.realm = ?1 AND json_extract(q.value, '$.options.assessed_skill_group_id') = ?2",
      'SELECT COUNT(*) AS n FROM tms_assessed_skill WHERE realm = ?1 AND group_id = ?2',
    ],
    channel_category: ['SELECT COUNT(*) AS n FROM channel WHERE realm = ?1 AND category_id = ?2'],
    room_card: ['SELECT COUNT(*) AS n FROM room r, json_each(r.cards) j WHERE r.realm = ?1 AND j.value = ?2'],
    objective: ['SELECT COUNT(*) AS n FROM achievement_goal_objective WHERE realm = ?1 AND objective_id = ?2'],
    track: ['SELECT COUNT(*) AS n FROM room WHERE realm = ?1 AND track_id = ?2'],
  }
  const results = await db.batch(queries[kind].map((sql) => db.prepare(sql).bind(realm, id)))
  return results.reduce((n, r) => n + Number((r.results[0] as { n: number }).n), 0)
}

/** A task category's id and parent, or null when the realm has no such category. */
export function findCategoryParent(db: D1Database, realm: string, id: string): Promise<{ id: string; parent_id: string | null } | null> {
  return db.prepare('SELECT id, parent_id FROM tms_category WHERE realm = ? AND id = ?').bind(realm, id).first<{ id: string; parent_id: string | null }>()
}

/** True when the category has sub-categories. */
export async function categoryHasChildren(db: D1Database, realm: string, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM tms_category WHERE realm = ? AND parent_id = ? LIMIT 1').bind(realm, id).first()) !== null
}

/** True when another category under the same parent has this name (case-insensitive); `self` is the one edited. */
export async function categoryNameTaken(db: D1Database, realm: string, name: string, parentId: string | null, self: string | null): Promise<boolean> {
  const twin = await db
    .prepare('SELECT id FROM tms_category WHERE realm = ? AND lower(name) = lower(?) AND parent_id IS ? AND id IS NOT ?')
    .bind(realm, name, parentId, self)
    .first()
  return twin !== null
}

/** True when a task was published from this version of the model (the version is then frozen). */
export async function versionPublished(db: D1Database, realm: string, modelId: string, version: number): Promise<boolean> {
  return (
    (await db.prepare('SELECT 1 FROM tms_task WHERE realm = ? AND model_id = ? AND model_version = ? LIMIT 1').bind(realm, modelId, version).first()) !== null
  )
}

/** How many tasks were published from each of these models (all versions); models without tasks are absent. */
export async function publishedCounts(
  db: D1Database,
  realm: string,
  modelIds: string[],
  table: 'tms_task' | 'lesson_lesson' | 'survey_survey' = 'tms_task',
): Promise<Map<string, number>> {
  if (!modelIds.length) return new Map()
  const { results } = await db
    .prepare(`SELECT model_id, COUNT(*) AS n FROM ${table} WHERE realm = ? AND model_id IN (${modelIds.map(() => '?').join(', ')}) GROUP BY model_id`)
    .bind(realm, ...modelIds)
    .all<{ model_id: string; n: number }>()
  return new Map(results.map((r) => [r.model_id, r.n]))
}

/** The type of an assessed skill of the realm ('group' for a group), or null when there is none with that id. */
export async function skillType(db: D1Database, realm: string, id: string): Promise<string | null> {
  const row = await db.prepare('SELECT type FROM tms_assessed_skill WHERE realm = ? AND id = ?').bind(realm, id).first<{ type: string }>()
  return row?.type ?? null
}

/** True when a skill group holds skills. */
export async function skillGroupHasSkills(db: D1Database, realm: string, groupId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM tms_assessed_skill WHERE realm = ? AND group_id = ? LIMIT 1').bind(realm, groupId).first()) !== null
}

/** Bank questions of these types (and batch, and ids, when given) to classify in one go: at most 500. */
export async function bankItemsToClassify<T>(db: D1Database, realm: string, pick: { types: string[]; batchId?: string; ids: string[] }): Promise<T[]> {
  const where = ['realm = ?', `type IN (${pick.types.map(() => '?').join(', ')})`]
  const params: unknown[] = [realm, ...pick.types]
  if (pick.batchId) {
    where.push('batch_id = ?')
    params.push(pick.batchId)
  }
  if (pick.ids.length) {
    where.push(`id IN (${pick.ids.map(() => '?').join(', ')})`)
    params.push(...pick.ids)
  }
  const { results } = await db
    .prepare(`SELECT * FROM tms_question_bank WHERE ${where.join(' AND ')} LIMIT 500`)
    .bind(...params)
    .all<T>()
  return results
}

/** A bank question's new topic columns (grade, subject, standard, descriptor, curriculum) and stamps. */
export function classifyBankItemStatement(
  db: D1Database,
  realm: string,
  id: string,
  topic: Record<string, unknown>,
  by: string,
  at: string,
): D1PreparedStatement {
  const cols = Object.keys(topic)
  return db
    .prepare(`UPDATE tms_question_bank SET ${cols.map((k) => `${k} = ?`).join(', ')}, updated_at = ?, updated_by = ? WHERE id = ? AND realm = ?`)
    .bind(...Object.values(topic), at, by, id, realm)
}
