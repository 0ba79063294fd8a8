import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { ROUTES } from '#shared/manifest'
import { PERMISSIONS } from '#shared/schemas/permission'
import { ESSAY_ERROR_CATEGORIES } from '#shared/schemas/tms/constants'
import { validQuestion } from '../support/tms-fixtures'
import { bankQuestion, essayRefs, room, taskCategory } from './factories'
import { call, DEMO, api, userWith } from './helpers'

/** Console screens of task authoring and rooms, through the Worker as a browser reaches them (loaders and actions). */

const SCREENS = ROUTES.filter((r) => /^(tms\.|room\.(list|create|edit)$)/.test(r.id) && r.id !== 'tms.task.correct')
const DASH = 'dashboard_dashboard_access'
/** Every task-authoring and room permission (what a realm root holds of them). */
const STAFF = [DASH, ...PERMISSIONS.filter((p) => /^(tms_|room_room_)/.test(p))]
/** An author: every task-authoring permission but creating, editing or removing categories, skills and genres. */
const AUTHOR = STAFF.filter((p) => !/^tms_(category|assessed_skill|genre)_(create|edit|delete)$/.test(p))
const staff = () => userWith('demo', STAFF)
const author = () => userWith('demo', AUTHOR)

/**
 * What the screens below open, made for this file: a room, a category, a genre and skills, a bank question, and a
 * model ("Frações") with a task published from it to the room (so the model cannot be removed).
 */
const PARAMS: Record<string, string> = {}
let roomName = ''
beforeAll(async () => {
  const { token } = await author()
  const target = await room('demo')
  const category = await taskCategory('demo')
  const refs = await essayRefs('demo')
  const created = await api(DEMO, 'tms/model', {
    method: 'POST',
    token,
    json: { title: 'Frações', categories: [category.id], questions: [validQuestion('single'), validQuestion('text')] },
  })
  expect(created.status, await created.clone().text()).toBe(201)
  const model = (await created.json()) as { id: string }
  const published = await api(DEMO, 'tms/task', { method: 'POST', token, json: { model_id: model.id, rooms: [target.id], categories: [category.id] } })
  expect(published.status, await published.clone().text()).toBe(201)
  roomName = target.name
  Object.assign(PARAMS, {
    modelId: model.id,
    taskId: ((await published.json()) as { id: string }).id,
    questionId: (await bankQuestion('demo')).id,
    categoryId: category.id,
    skillId: refs.skill,
    genreId: refs.genre,
    roomName: encodeURIComponent(target.name),
    room: target.id,
  })
})
const pt = catalogues['pt-BR']
const pathOf = (pattern: string) => pattern.replace(/:(\w+)/g, (_, p: string) => PARAMS[p] ?? p)

function form(fields: Record<string, string>) {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) f.set(k, v)
  return f
}
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  call(DEMO, path, { method: 'POST', body: form(fields), headers: { cookie, origin: `http://${DEMO}` } })

describe('task-authoring screens', () => {
  it('serves every tms and room screen of the manifest with its own screen, none "not available yet"', async () => {
    const { cookie } = await staff()
    expect(SCREENS.length).toBeGreaterThanOrEqual(25)
    for (const route of SCREENS) {
      const res = await call(DEMO, pathOf(route.path), { headers: { cookie } })
      expect(res.status, `${route.id} ${pathOf(route.path)}`).toBe(200)
      const html = await res.text()
      expect(html, route.id).not.toContain('not-available-title')
    }
  })

  it('keeps the guard of each screen: an author cannot open category creation', async () => {
    const { cookie } = await author()
    const res = await call(DEMO, '/tms/category/create', { headers: { cookie } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/notfound?path=%2Ftms%2Fcategory%2Fcreate')
    const refused = await post('/tms/category/create', cookie, { name: 'Nova' })
    expect(refused.status).toBe(302)
    expect(refused.headers.get('location')).toBe('/notfound?path=%2Ftms%2Fcategory%2Fcreate')
  })

  it('saves a model from the editor, sanitizing its rich text, and answers rule errors next to their fields', async () => {
    const { cookie } = await author()
    const model = {
      title: 'Modelo da tela',
      kind: 'activity',
      description: '',
      tags: ['tela'],
      categories: [PARAMS.categoryId],
      style: { background_color: '' },
      min_execution_time: 0,
      max_execution_time: 0,
      token: false,
      audio_question: false,
      essay_transcription: false,
      verify_answers: false,
      disable_answer_review: false,
      auto_draft: false,
      questions: [
        {
          id: 'q1',
          type: 'text',
          statement: '<p>Explique<script>alert(1)</script> <img src="x" onerror="alert(2)"></p>',
          score: 1,
          required: true,
          shuffle: false,
          partial_score: false,
          categories: [],
          media_type: '',
          media_url: '',
          comment: '',
          extra_fields: {},
          options: { min_text_count: 1, max_text_count: 100 },
        },
      ],
    }
    const res = await post('/tms/model/create', cookie, { intent: 'save', model: JSON.stringify(model) })
    expect(res.status).toBe(302)
    const id = /^\/tms\/model\/edit\/(.+)$/.exec(res.headers.get('location') ?? '')![1]
    const stored = await env.DB.prepare('SELECT questions FROM tms_model WHERE id = ? AND realm = ?').bind(id, 'demo').first<{ questions: string }>()
    expect(stored!.questions).not.toMatch(/<script|onerror|alert\(/)
    const page = await (await call(DEMO, `/tms/model/edit/${id}`, { headers: { cookie } })).text()
    expect(page).toContain('Modelo da tela')
    expect(page).not.toContain('<script>alert(1)')

    const bad = await post(`/tms/model/edit/${id}`, cookie, {
      intent: 'save',
      model: JSON.stringify({ ...model, questions: [{ ...model.questions[0], statement: '<p>a</p>', score: -1 }] }),
    })
    expect(bad.status).toBe(400)
    // The editor's page comes back with the rule messages, translated, and the stored model is unchanged.
    const refused = await bad.text()
    expect(refused).toContain('questions.0.statement')
    expect(refused).toContain('questions.0.score')
    const unchanged = await env.DB.prepare('SELECT version, questions FROM tms_model WHERE id = ?').bind(id).first<{ version: number; questions: string }>()
    expect(unchanged!.questions).toContain('Explique')
  })

  it('creates and edits a bank question through its screens and refuses an incomplete topic', async () => {
    const { cookie } = await author()
    // Another medium question of MAT in the same batch but another statement, which the filter below must leave out.
    const other = await bankQuestion('demo', { ...validQuestion('single'), statement: '<p>Quanto é 3/4 de 20?</p>' }, 'easy', {
      subject_id: 'MAT',
      batch_id: 'tela',
    })
    const item = {
      type: 'single',
      statement: '<p>Quanto é 2 + 2?</p>',
      comment: '',
      score: 1,
      required: true,
      shuffle: false,
      partial_score: false,
      categories: [],
      media_type: '',
      media_url: '',
      extra_fields: {},
      options: [
        { statement: '<p>4</p>', answer: true, media_type: '', media_url: '' },
        { statement: '<p>5</p>', answer: false, media_type: '', media_url: '' },
      ],
      difficulty: 'medium',
      tags: ['soma'],
      grade_id: 3,
      subject_id: 'MAT',
      standard_id: 'EF03',
      descriptor_id: 'D9',
      batch_id: 'tela',
      curriculum: 'BNCC',
    }
    const created = await post('/tms/question_bank/create', cookie, { item: JSON.stringify(item) })
    expect(created.status).toBe(302)
    expect(created.headers.get('location')).toBe('/tms/question_bank')
    const row = await env.DB.prepare("SELECT id, difficulty FROM tms_question_bank WHERE realm = 'demo' AND batch_id = 'tela' AND id <> ?")
      .bind(other.id)
      .first<{
        id: string
        difficulty: string
      }>()
    expect(row!.difficulty).toBe('medium')

    const list = await (await call(DEMO, '/tms/question_bank?difficulty=medium&subject_id=MAT&batch_id=tela', { headers: { cookie } })).text()
    expect(list).toContain('Quanto é 2 + 2?')
    expect(list).not.toContain('Quanto é 3/4 de 20?')

    const incomplete = await post(`/tms/question_bank/edit/${row!.id}`, cookie, { item: JSON.stringify({ ...item, descriptor_id: '' }) })
    expect(incomplete.status).toBe(400)
    expect(await incomplete.text()).toContain('descriptor_id')
    const saved = await post(`/tms/question_bank/edit/${row!.id}`, cookie, { item: JSON.stringify({ ...item, difficulty: 'hard' }) })
    expect(saved.status).toBe(302)
    const after = await env.DB.prepare('SELECT difficulty FROM tms_question_bank WHERE id = ?').bind(row!.id).first<{ difficulty: string }>()
    expect(after!.difficulty).toBe('hard')
  })

  it('adds chosen bank questions to a model as copies linked to their source', async () => {
    const { cookie, token } = await author()
    const single = await bankQuestion('demo', validQuestion('single'))
    const order = await bankQuestion('demo', validQuestion('order_sentences'), 'hard')
    const created = await api(DEMO, 'tms/model', {
      method: 'POST',
      token,
      json: {
        title: 'Destino do banco',
        categories: [PARAMS.categoryId],
        questions: [{ type: 'text', statement: '<p>Primeira questão</p>', score: 1, options: { min_text_count: 1, max_text_count: 50 } }],
      },
    })
    expect(created.status, await created.clone().text()).toBeLessThan(300)
    const model = (await created.json()) as { id: string }
    const res = await post('/tms/question_bank', cookie, { intent: 'add_to_model', model: model.id, ids: JSON.stringify([single.id, order.id]) })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/tms/model/edit/${model.id}`)
    const got = (await (await api(DEMO, `tms/model/${model.id}`, { token })).json()) as { questions: { type: string; bank_id?: string }[] }
    expect(got.questions.map((q) => [q.type, q.bank_id ?? null])).toEqual([
      ['text', null],
      ['single', single.id],
      ['order_sentences', order.id],
    ])

    const unknown = await post('/tms/question_bank', cookie, { intent: 'add_to_model', model: model.id, ids: JSON.stringify(['no-such-question']) })
    expect(unknown.status).toBe(404)
    const malformed = await post('/tms/question_bank', cookie, { intent: 'add_to_model', model: model.id, ids: 'not json' })
    expect(malformed.status).toBe(400)
  })

  it('classifies chosen bank questions from the list: at least one type, a complete topic', async () => {
    const { cookie } = await author()
    const single = await bankQuestion('demo', validQuestion('single'))
    const text = await bankQuestion('demo', validQuestion('text'), 'medium', { grade_id: 9, subject_id: 'POR', standard_id: 'EF09LP', descriptor_id: 'D1' })
    const classify = (fields: Record<string, string>, types: string[]) => {
      const f = form({ intent: 'classify', ids: JSON.stringify([single.id, text.id]), ...fields })
      for (const type of types) f.append('types', type)
      return call(DEMO, '/tms/question_bank', { method: 'POST', body: f, headers: { cookie, origin: `http://${DEMO}` } })
    }
    const topic = { grade_id: '7', subject_id: 'MAT', standard_id: 'EF07MA', descriptor_id: 'D22', curriculum: 'BNCC' }
    const noType = await classify(topic, [])
    expect(noType.status).toBe(400)
    expect(await noType.text()).toContain('validation.tms.classify_types')
    const incomplete = await classify({ ...topic, standard_id: '' }, ['single'])
    expect(incomplete.status).toBe(400)
    expect(await incomplete.text()).toContain('validation.tms.topic_incomplete')

    // Only the chosen questions of the chosen types change.
    expect((await classify(topic, ['single'])).status).toBe(200)
    const rows = await env.DB.prepare('SELECT id, grade_id, descriptor_id FROM tms_question_bank WHERE id IN (?, ?)')
      .bind(single.id, text.id)
      .all<{ id: string; grade_id: number; descriptor_id: string }>()
    expect(rows.results).toEqual(
      expect.arrayContaining([
        { id: single.id, grade_id: 7, descriptor_id: 'D22' },
        { id: text.id, grade_id: 9, descriptor_id: 'D1' },
      ]),
    )
    expect(rows.results).toHaveLength(2)
  })

  it('refuses removing a model with published tasks from the list, with the blocked message, and keeps it', async () => {
    const { cookie } = await author()
    const res = await post('/tms/model', cookie, { intent: 'delete', id: PARAMS.modelId })
    expect(res.status).toBe(409)
    expect(await res.text()).toContain('tms.model.delete_blocked')
    const still = await env.DB.prepare("SELECT id FROM tms_model WHERE id = ? AND realm = 'demo'").bind(PARAMS.modelId).first()
    expect(still).not.toBeNull()
  })

  it('shows when a bank question is new and when it was updated, as separate columns', async () => {
    const { cookie, token } = await author()
    const batch = `nu-${crypto.randomUUID().slice(0, 8)}`
    const body = { statement: '<p>Quanto é metade de dez?</p>', options: { min_text_count: 1, max_text_count: 50 }, batch_id: batch }
    const created = (await (await api(DEMO, 'tms/question_bank', { method: 'POST', token, json: body })).json()) as {
      id: string
      created_at: string
      updated_at: string
    }
    expect(created.updated_at).toBe(created.created_at)
    const csv = async () => {
      const res = await call(DEMO, `/export/tms_question_bank?batch_id=${batch}`, { headers: { cookie } })
      expect(res.status).toBe(200)
      const [header, row] = (await res.text())
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .map((l) => l.split(','))
      return { added: row[header.indexOf('Nova em')], updated: row[header.indexOf('Atualizada em')] }
    }
    const fresh = await csv()
    expect(fresh.added).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    expect(fresh.updated).toBe('')

    await new Promise((r) => setTimeout(r, 5))
    expect((await api(DEMO, `tms/question_bank/${created.id}`, { method: 'PUT', token, json: { ...body, difficulty: 'medium' } })).status).toBe(200)
    const edited = await csv()
    expect(edited.added).toBe(fresh.added)
    expect(edited.updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    const today = new Date().toISOString().slice(0, 10)
    const listed = (await (await api(DEMO, `tms/question_bank?batch_id=${batch}&created_at_from=${today}&created_at_to=${today}`, { token })).json()) as {
      items: { id: string; created_at: string }[]
    }
    expect(listed.items.map((i) => i.id)).toEqual([created.id])
    expect(listed.items[0].created_at).toBe(created.created_at)
  })

  it('shows when a model is new and when it was updated, as separate columns', async () => {
    const { cookie, token } = await author()
    const title = `Modelo ${crypto.randomUUID().slice(0, 8)}`
    const body = { title, questions: [validQuestion('single')] }
    const created = (await (await api(DEMO, 'tms/model', { method: 'POST', token, json: body })).json()) as { id: string }
    const csv = async () => {
      const res = await call(DEMO, `/export/tms_model?like=${encodeURIComponent(title)}`, { headers: { cookie } })
      expect(res.status).toBe(200)
      const [header, ...rows] = (await res.text())
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .map((l) => l.split(','))
      expect(rows).toHaveLength(1)
      return { added: rows[0][header.indexOf('Novo em')], updated: rows[0][header.indexOf('Atualizado em')] }
    }
    const fresh = await csv()
    expect(fresh.added).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    expect(fresh.updated).toBe('')
    await new Promise((r) => setTimeout(r, 5))
    expect((await api(DEMO, `tms/model/${created.id}`, { method: 'PUT', token, json: { ...body, description: 'revisto' } })).status).toBe(200)
    const edited = await csv()
    expect(edited).toEqual({ added: fresh.added, updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/) })
  })

  it('exports a model from its list as a JSON download that imports back identically, and duplicates it', async () => {
    const { cookie } = await author()
    const download = await call(DEMO, `/tms/model/export/${PARAMS.modelId}`, { headers: { cookie } })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/)
    const document = await download.text()

    const imported = await post('/tms/model', cookie, { intent: 'import', document })
    expect(imported.status).toBe(302)
    const copyId = /^\/tms\/model\/edit\/(.+)$/.exec(imported.headers.get('location') ?? '')![1]
    expect(copyId).not.toBe(PARAMS.modelId)
    const again = await (await call(DEMO, `/tms/model/export/${copyId}`, { headers: { cookie } })).json()
    expect(again).toEqual(JSON.parse(document))

    const broken = await post('/tms/model', cookie, { intent: 'import', document: '{not json' })
    expect(broken.status).toBe(400)
    expect(await broken.text()).toContain('validation.tms.export_format')

    const duplicated = await post('/tms/model', cookie, { intent: 'duplicate', id: PARAMS.modelId, title: 'Frações (cópia da tela)' })
    expect(duplicated.status).toBe(302)
    const dupId = /^\/tms\/model\/edit\/(.+)$/.exec(duplicated.headers.get('location') ?? '')![1]
    const dup = await env.DB.prepare('SELECT title, parent_id FROM tms_model WHERE id = ? AND realm = ?')
      .bind(dupId, 'demo')
      .first<{ title: string; parent_id: string }>()
    expect(dup).toEqual({ title: 'Frações (cópia da tela)', parent_id: PARAMS.modelId })
  })

  it('lists the essay error categories with their colours on the category screen', async () => {
    const { cookie } = await staff()
    const html = await (await call(DEMO, '/tms/category', { headers: { cookie } })).text()
    for (const [name, colour] of Object.entries(ESSAY_ERROR_CATEGORIES)) {
      expect(html).toMatch(new RegExp(`background:\\s*${colour}[^>]*></span> ?(<!-- -->)?${pt[`tms.essay_error.${name}`]}`))
    }
  })

  it('generates a task token from its screen and shows the code with who created it and when', async () => {
    const { cookie, token, nick } = await staff()
    const m = (await (
      await api(DEMO, 'tms/model', { method: 'POST', token, json: { title: 'Tarefa com código', token: true, questions: [validQuestion('single')] } })
    ).json()) as { id: string }
    const t = (await (
      await api(DEMO, 'tms/task', { method: 'POST', token, json: { model_id: m.id, categories: [PARAMS.categoryId], rooms: [PARAMS.room] } })
    ).json()) as { id: string }
    const screenPath = `/tms/token/edit/room/${encodeURIComponent(roomName)}/task/${t.id}`
    expect((await post(screenPath, cookie, {})).status).toBe(200)
    const row = await env.DB.prepare('SELECT code, created_by FROM tms_token WHERE task_id = ? AND revoked_at IS NULL')
      .bind(t.id)
      .first<{ code: string; created_by: string }>()
    expect(row?.created_by).toBe(nick)
    const html = await (await call(DEMO, screenPath, { headers: { cookie } })).text()
    expect(html).toContain(`<strong>${row!.code}</strong>`)
    expect(html).toContain(nick)
  })

  it('exports the bank and the task list as CSV with translated headers', async () => {
    const { cookie } = await author()
    await bankQuestion('demo', validQuestion('single'), 'hard')
    const bank = await call(DEMO, '/export/tms_question_bank?difficulty=hard', { headers: { cookie } })
    expect(bank.status).toBe(200)
    const [header, ...rows] = (await bank.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(header.startsWith('Enunciado,Tipo,Dificuldade,Série')).toBe(true)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((r) => r.includes('Difícil'))).toBe(true)
    const tasks = await call(DEMO, '/export/tms_task', { headers: { cookie } })
    expect(tasks.status).toBe(200)
    expect((await tasks.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toContain('Situação')
  })
})

describe('extra fields of rooms', () => {
  it('shows the realm’s room fields on the room form, requires the required ones, and stores their values', async () => {
    const { token: root, cookie } = await userWith('demo', [...STAFF, 'mas_extra_field_create', 'mas_extra_field_delete'])
    const key = `inep_${crypto.randomUUID().slice(0, 6)}`
    const field = await api(DEMO, 'mas/extra_field', {
      method: 'POST',
      token: root,
      json: { entity: 'room', key, label: 'Código INEP: escola', required: true },
    })
    expect(field.status, await field.clone().text()).toBe(201)
    const fieldId = ((await field.json()) as { id: string }).id
    try {
      // The API refuses a room without the required value, naming the field, and stores nothing.
      const name = `Sala extra ${crypto.randomUUID().slice(0, 6)}`
      const refused = await api(DEMO, 'room/room', { method: 'POST', token: root, json: { name } })
      expect(refused.status).toBe(422)
      expect(((await refused.json()) as { errors: { field: string; cause: string }[] }).errors).toEqual([
        expect.objectContaining({ field: `extra.${key}`, cause: 'required' }),
      ])
      expect(await env.DB.prepare('SELECT 1 FROM room WHERE realm = ? AND name = ?').bind('demo', name).first()).toBeNull()

      // The console form carries the field under the realm's own label, and its action sends the value.
      const page = await (await call(DEMO, '/room/create', { headers: { cookie } })).text()
      expect(page).toContain('Código INEP: escola')
      expect(page).toContain(`name="extra.${key}"`)
      // The form's own parse (the kit) refuses it before the API is called, on the field.
      const missing = await post('/room/create', cookie, { name, type: 'lecture' })
      expect(missing.status).toBe(400)
      const answered = await missing.text()
      expect(answered).toMatch(new RegExp(`name="extra\\.${key}"[^>]*aria-invalid="true"`))
      expect(answered).toContain('Código INEP: escola')
      const saved = await post('/room/create', cookie, { name, type: 'lecture', [`extra.${key}`]: '35012345' })
      expect(saved.status).toBe(302)
      const row = await env.DB.prepare('SELECT extra FROM room WHERE realm = ? AND name = ?').bind('demo', name).first<{ extra: string }>()
      expect(JSON.parse(row!.extra)).toEqual({ [key]: '35012345' })
    } finally {
      await api(DEMO, `mas/extra_field/${fieldId}`, { method: 'DELETE', token: root })
    }
  })
})
