import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { QUESTION_TYPES } from '#shared/schemas/tms/question-types'
import type { Model } from '#shared/schemas/tms/model'
import { validQuestion } from '../support/tms-fixtures'
import { essayRefs, questionOf, room, taskCategory, taskCategoryGroup } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'

/** What the models below refer to, made for this file: two selectable categories, a room, an essay's genre and skills. */
let math: string
let port: string
let room9a: string
let refs: Awaited<ReturnType<typeof essayRefs>>
beforeAll(async () => {
  math = (await taskCategory('demo')).id
  port = (await taskCategory('demo')).id
  room9a = (await room('demo')).id
  refs = await essayRefs('demo')
})
/** One valid question of every type. */
const everyType = () => QUESTION_TYPES.map((type) => questionOf(type, refs))

const AUTHOR = [
  'dashboard_dashboard_access',
  'tms_model_list',
  'tms_model_get',
  'tms_model_create',
  'tms_model_edit',
  'tms_model_delete',
  'tms_task_publish',
  'tms_task_get',
  'tms_task_edit',
  'tms_task_delete',
  'tms_task_list_others',
]
const author = async () => (await userWith('demo', AUTHOR)).token
const audit = async (entity: string, id: string) =>
  (
    await env.DB.prepare('SELECT action, changes FROM audit_log WHERE entity = ? AND entity_id = ? ORDER BY id')
      .bind(entity, id)
      .all<{ action: string; changes: string }>()
  ).results

const body = (extra: Record<string, unknown> = {}) => ({
  title: `Model ${crypto.randomUUID().slice(0, 6)}`,
  description: 'Fractions and decimals',
  tags: ['math', 'fractions'],
  categories: [math],
  questions: [validQuestion('single'), validQuestion('text')],
  ...extra,
})

async function create(token: string, extra: Record<string, unknown> = {}): Promise<Model> {
  const res = await api(DEMO, 'tms/model', { method: 'POST', token, json: body(extra) })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Model
}

async function publish(token: string, modelId: string, extra: Record<string, unknown> = {}) {
  const res = await api(DEMO, 'tms/task', { method: 'POST', token, json: { model_id: modelId, rooms: [room9a], categories: [math], ...extra } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string; model_version: number; status: string }
}

describe('task models (/tms/model)', () => {
  it('creates a model with one question of every type, in the seed’s field names, and reads it back', async () => {
    const token = await author()
    const m = await create(token, {
      questions: everyType(),
      min_execution_time: 5,
      max_execution_time: 60,
      token: true,
      verify_answers: true,
      style: { background_color: '#ffeecc' },
    })
    expect(m).toMatchObject({
      type: 'model',
      kind: 'activity',
      version: 1,
      token: true,
      verify_answers: true,
      auto_draft: false,
      min_execution_time: 5,
      style: { background_color: '#ffeecc' },
      parent_id: null,
    })
    expect(m.questions.map((q) => q.type)).toEqual([...QUESTION_TYPES])
    expect(m.question_count).toBe(QUESTION_TYPES.length - 2)
    const single = m.questions.find((q) => q.type === 'single')!
    expect(Object.keys(single).sort()).toEqual([
      'categories',
      'comment',
      'extra_fields',
      'id',
      'media_type',
      'media_url',
      'options',
      'partial_score',
      'required',
      'score',
      'shuffle',
      'statement',
      'type',
    ])
    expect(Object.keys((single.options as unknown[])[0] as object).sort()).toEqual(['answer', 'id', 'media_type', 'media_url', 'statement'])
    const fill = m.questions.find((q) => q.type === 'fill_words')!
    expect(fill.options).toMatchObject({
      phrase: [
        { type: 'text', value: 'The ' },
        { type: 'select', value: 'sun' },
        { type: 'text', value: ' rises in the ' },
        { type: 'select', value: 'east' },
        { type: 'text', value: '.' },
      ],
    })
    const got = await api(DEMO, `tms/model/${m.id}`, { token })
    expect(await got.json()).toMatchObject({ id: m.id, questions: m.questions, published_count: 0 })
  })

  it('lists with paging, search, kind, tag and category filters', async () => {
    const token = await author()
    const tag = `t${crypto.randomUUID().slice(0, 6)}`
    const a = await create(token, { tags: [tag], kind: 'exam' })
    await create(token, { tags: [tag], categories: [port] })
    const list = async (q: string) => (await (await api(DEMO, `tms/model?${q}`, { token })).json()) as { items: Model[]; total: number }
    expect((await list(`tag=${tag}`)).total).toBe(2)
    expect((await list(`tag=${tag.toUpperCase()}&kind=exam`)).items.map((m) => m.id)).toEqual([a.id])
    expect((await list(`tag=${tag}&category=${port}`)).items).toHaveLength(1)
    expect((await list(`like=${encodeURIComponent(a.title)}`)).items.map((m) => m.id)).toEqual([a.id])
    const page = await list(`tag=${tag}&limit=1&order=title`)
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 0 })
    expect(page.items[0]).toHaveProperty('published_count', 0)
    expect(page.items[0]).not.toHaveProperty('questions')
  })

  it('refuses invalid content with each rule at its field, and stores nothing', async () => {
    const token = await author()
    const title = `Bad ${crypto.randomUUID().slice(0, 6)}`
    const bad = {
      ...validQuestion('single'),
      statement: '<p>x</p>',
      options: [
        { statement: 'A', answer: true },
        { statement: 'B', answer: true },
      ],
    }
    const res = await expectEnvelope(
      await api(DEMO, 'tms/model', {
        method: 'POST',
        token,
        json: body({ title, questions: [validQuestion('text'), bad], categories: [math, math] }),
      }),
      400,
    )
    expect(res.errors.map((e) => [e.field, e.message]).sort()).toEqual([
      ['categories', 'validation.tms.category_duplicate'],
      ['questions.1.options', 'validation.question.single_correct'],
      ['questions.1.statement', 'validation.question.statement_min'],
    ])
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_model WHERE title = ?').bind(title).first<{ n: number }>()
    expect(n?.n).toBe(0)
  })

  it('refuses unknown and non-selectable categories, unknown genres and skills (422)', async () => {
    const token = await author()
    const valid = questionOf('essay', refs)
    // A skill group where a skill is expected, and a genre that does not exist.
    const essay = { ...valid, options: { ...(valid.options as object), genre: 'nope', assessed_skill_ids: [refs.group] } }
    const group = await taskCategoryGroup('demo')
    const res = await expectEnvelope(
      await api(DEMO, 'tms/model', { method: 'POST', token, json: body({ categories: [group.id, 'zzz'], questions: [essay] }) }),
      422,
    )
    expect(res.errors.map((e) => [e.field, e.cause]).sort()).toEqual([
      ['categories', 'category_not_selectable'],
      ['categories', 'unknown_category'],
      ['questions.0.options.assessed_skill_ids', 'unknown_skill'],
      ['questions.0.options.genre', 'unknown_genre'],
    ])
  })

  it('refuses two values of a single-selection category group', async () => {
    const token = await author()
    const group = await taskCategoryGroup('demo')
    const [first, second] = [await taskCategory('demo', { parent: group.id }), await taskCategory('demo', { parent: group.id })]
    const res = await expectEnvelope(
      await api(DEMO, 'tms/model', { method: 'POST', token, json: body({ categories: [first.id, second.id] }) }),
      422,
      'category_single',
    )
    expect(res.errors[0].value).toBe(group.name)
  })

  it('updates in place while nothing is published, and records create, update and delete in the audit trail', async () => {
    const token = await author()
    const m = await create(token)
    const res = await api(DEMO, `tms/model/${m.id}`, { method: 'PUT', token, json: body({ title: 'Renamed model', questions: m.questions }) })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ title: 'Renamed model', version: 1 })
    expect((await api(DEMO, `tms/model/${m.id}`, { method: 'DELETE', token })).status).toBe(204)
    await expectEnvelope(await api(DEMO, `tms/model/${m.id}`, { token }), 404, 'not_found')
    const rows = await audit('tms_model', m.id)
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete'])
    expect(JSON.parse(rows[1].changes).title).toEqual([m.title, 'Renamed model'])
  })

  it('duplicates a model: a new model whose parent is the original, with new question ids', async () => {
    const token = await author()
    const m = await create(token)
    const res = await api(DEMO, `tms/model/${m.id}/duplicate`, { method: 'POST', token, json: { title: 'Copy of the model' } })
    expect(res.status).toBe(201)
    const copy = (await res.json()) as Model
    expect(copy).toMatchObject({ title: 'Copy of the model', parent_id: m.id, version: 1, tags: m.tags, categories: m.categories })
    expect(copy.id).not.toBe(m.id)
    expect(copy.questions.map((q) => q.statement)).toEqual(m.questions.map((q) => q.statement))
    expect(copy.questions.map((q) => q.id).some((id) => m.questions.some((q) => q.id === id))).toBe(false)
    expect((await audit('tms_model', copy.id)).map((r) => r.action)).toEqual(['duplicate'])
  })

  it('exports JSON that imports back identically', async () => {
    const token = await author()
    const m = await create(token, { questions: everyType(), kind: 'exam', token: true })
    const exported = await (await api(DEMO, `tms/model/${m.id}/export`, { token })).json()
    const imported = await api(DEMO, 'tms/model/import', { method: 'POST', token, json: exported })
    expect(imported.status, await imported.clone().text()).toBe(201)
    const copy = (await imported.json()) as Model & { dropped_categories: string[] }
    expect(copy.id).not.toBe(m.id)
    expect(copy.dropped_categories).toEqual([])
    expect(await (await api(DEMO, `tms/model/${copy.id}/export`, { token })).json()).toEqual(exported)
    expect((await audit('tms_model', copy.id)).map((r) => r.action)).toEqual(['import'])
  })

  it('imports into another realm, dropping category links that do not exist there', async () => {
    const token = await author()
    const m = await create(token)
    const exported = (await (await api(DEMO, `tms/model/${m.id}/export`, { token })).json()) as { model: { categories: string[] } }
    const other = await userWith('escola', ['dashboard_dashboard_access', 'tms_model_create'])
    const res = await api('escola.localhost', 'tms/model/import', { method: 'POST', token: other.token, json: exported })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ categories: [], dropped_categories: [math], realm: 'escola' })
    await expectEnvelope(
      await api('escola.localhost', 'tms/model/import', { method: 'POST', token: other.token, json: { format: 'other', format_version: 1, model: {} } }),
      400,
    )
  })

  it('links a category once: a duplicate link is refused, and unlinking works', async () => {
    const token = await author()
    const m = await create(token, { categories: [] })
    const add = await api(DEMO, `tms/model/${m.id}/category`, { method: 'POST', token, json: { category_id: math } })
    expect(await add.json()).toMatchObject({ categories: [math] })
    await expectEnvelope(await api(DEMO, `tms/model/${m.id}/category`, { method: 'POST', token, json: { category_id: math } }), 409, 'category_duplicate')
    const removed = await api(DEMO, `tms/model/${m.id}/category/${math}`, { method: 'DELETE', token })
    expect(await removed.json()).toMatchObject({ categories: [] })
  })

  it('versions on edit after publication: the task keeps its version and is offered the newer one', async () => {
    const token = await author()
    const m = await create(token)
    const t = await publish(token, m.id)
    expect(t.model_version).toBe(1)
    const edited = (await (
      await api(DEMO, `tms/model/${m.id}`, { method: 'PUT', token, json: body({ title: 'Second version', questions: [validQuestion('multi')] }) })
    ).json()) as Model
    expect(edited.version).toBe(2)
    // A second edit of the unpublished version 2 stays version 2.
    expect(
      (
        (await (
          await api(DEMO, `tms/model/${m.id}`, { method: 'PUT', token, json: body({ title: 'Second version, fixed', questions: [validQuestion('multi')] }) })
        ).json()) as Model
      ).version,
    ).toBe(2)

    const task = (await (await api(DEMO, `tms/task/${t.id}`, { token })).json()) as {
      model_version: number
      latest_version: number
      newer_version: boolean
      content: { title: string; questions: { type: string }[] }
    }
    expect(task).toMatchObject({ model_version: 1, latest_version: 2, newer_version: true })
    expect(task.content.title).toBe(m.title)
    expect(task.content.questions.map((q) => q.type)).toEqual(['single', 'text'])
    const listed = (await (await api(DEMO, `tms/task?model_id=${m.id}`, { token })).json()) as { items: { id: string; newer_version: boolean }[] }
    expect(listed.items).toEqual([expect.objectContaining({ id: t.id, newer_version: true })])

    const updated = await api(DEMO, `tms/task/${t.id}`, { method: 'PUT', token, json: { update_version: true } })
    expect(await updated.json()).toMatchObject({ model_version: 2, newer_version: false, title: 'Second version, fixed' })
    const after = (await (await api(DEMO, `tms/task/${t.id}`, { token })).json()) as { content: { questions: { type: string }[] } }
    expect(after.content.questions.map((q) => q.type)).toEqual(['multi'])
    expect((await audit('tms_task', t.id)).map((r) => r.action)).toEqual(['publish', 'update_version'])
  })

  it('refuses to remove a model with published activities, saying why, and removes it once they are gone', async () => {
    const token = await author()
    const m = await create(token)
    const t = await publish(token, m.id)
    const res = await expectEnvelope(await api(DEMO, `tms/model/${m.id}`, { method: 'DELETE', token }), 409, 'blocked')
    expect(res.errors[0]).toMatchObject({ message: 'tms.model.delete_blocked', value: 1 })
    expect((await api(DEMO, `tms/model/${m.id}`, { token })).status).toBe(200)
    expect((await api(DEMO, `tms/task/${t.id}`, { method: 'DELETE', token })).status).toBe(204)
    expect((await api(DEMO, `tms/model/${m.id}`, { method: 'DELETE', token })).status).toBe(204)
  })

  it('keeps models inside the caller’s realm', async () => {
    const token = await author()
    const m = await create(token)
    const other = await userWith('escola', AUTHOR)
    await expectEnvelope(await api('escola.localhost', `tms/model/${m.id}`, { token: other.token }), 404)
    await expectEnvelope(await api('escola.localhost', `tms/model/${m.id}`, { method: 'DELETE', token: other.token }), 404)
    const list = (await (await api('escola.localhost', 'tms/model?limit=1000', { token: other.token })).json()) as { items: Model[] }
    expect(list.items.every((x) => x.realm === undefined || x.realm === 'escola')).toBe(true)
    expect(list.items.some((x) => x.id === m.id)).toBe(false)
  })
})
