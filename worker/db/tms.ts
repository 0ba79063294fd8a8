import type { ErrorItem } from '#shared/schemas/error'
import { categoryChoiceProblems, categoryEntity, type Category } from '#shared/schemas/tms/category'
import { MODEL_CONTENT_FIELDS, modelEntity, type Model } from '#shared/schemas/tms/model'
import type { Question } from '#shared/schemas/tms/question'
import { decodeRow } from '../lib/entity'
import { ruleError } from '../lib/tms'

/** Every task category of a realm (a realm has tens of them, not thousands). */
export async function listCategories(db: D1Database, realm: string): Promise<Category[]> {
  const { results } = await db.prepare('SELECT * FROM tms_category WHERE realm = ? ORDER BY name LIMIT 2000').bind(realm).all<Record<string, unknown>>()
  return results.map((r) => decodeRow(categoryEntity, r))
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
export async function usage(db: D1Database, realm: string, kind: 'category' | 'genre' | 'skill', id: string): Promise<number> {
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
  }
  const results = await db.batch(queries[kind].map((sql) => db.prepare(sql).bind(realm, id)))
  return results.reduce((n, r) => n + Number((r.results[0] as { n: number }).n), 0)
}
