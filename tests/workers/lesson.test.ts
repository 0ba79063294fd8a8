import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Lesson, LessonModel } from '#shared/schemas/lesson/lesson'
import type { Slide } from '#shared/schemas/lesson/slide'
import { createLessonModel } from '../../worker/db/lesson'
import { lessonSlide, textObject } from '../support/lesson-fixtures'
import { validQuestion } from '../support/tms-fixtures'
import { room, roomGroup, taskCategory } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

const AUTHOR = ['lesson_model_list', 'lesson_model_get', 'lesson_model_create', 'lesson_model_edit', 'lesson_model_delete']
const PUBLISHER = [...AUTHOR, 'lesson_lesson_list', 'lesson_lesson_get', 'lesson_lesson_create', 'lesson_lesson_edit', 'lesson_lesson_delete']

const text = textObject
const slide = (id: string, objects: Slide['objects'], overlay: Slide['overlay'] = 'none'): Slide => lessonSlide(id, objects, '', overlay)
const full = slide('s1', [text('t1', '<p>Fractions</p>')])
const empty = slide('s2', [text('t2', '<p>  </p>')])

const made = {} as {
  student: { token: string; nick: string }
  roomA: { id: string }
  roomB: { id: string }
  group: { id: string }
  persona: string
  video: string
}

beforeAll(async () => {
  made.student = await userWith('demo', [])
  made.roomA = await room('demo', { members: [made.student.nick] })
  made.roomB = await room('demo')
  made.group = await roomGroup('demo', [made.roomA.id])
  const now = new Date().toISOString()
  made.persona = `p${crypto.randomUUID().slice(0, 8)}`
  made.video = `a${crypto.randomUUID().slice(0, 8)}`
  await env.DB.batch([
    env.DB.prepare('INSERT INTO persona (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(made.persona, 'demo', 'Ada', now, now),
    env.DB.prepare('INSERT INTO asset (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(made.video, 'demo', 'Intro', now, now),
  ])
})

async function createModel(token: string, json: Record<string, unknown>, host = DEMO) {
  return api(host, 'lesson/model', { method: 'POST', token, json: { title: `Lesson ${crypto.randomUUID().slice(0, 6)}`, ...json } })
}
async function model(token: string, json: Record<string, unknown> = {}): Promise<LessonModel> {
  const res = await createModel(token, json)
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as LessonModel
}

describe('lesson models (/lesson/model)', () => {
  it('creates with the defaults (pt-BR, class plan of 50 minutes), drops empty slides and keeps the deck exactly', async () => {
    const { token } = await userWith('demo', AUTHOR)
    const m = await model(token, { summary: '<p>A summary</p>', slides: [empty, full, empty] })
    expect(m).toMatchObject({ type: 'lesson_model', language: 'pt-BR', class_plan: { html: '', duration: 50 }, slide_count: 1, summary: '<p>A summary</p>' })
    expect(m.slides).toEqual([full])
    const read = (await (await api(DEMO, `lesson/model/${m.id}`, { token })).json()) as LessonModel
    expect(read.slides).toEqual([full])
  })

  it('refuses a short title, a class plan outside 15–180 minutes, short question pairs, an unknown language, with the envelope', async () => {
    const { token } = await userWith('demo', AUTHOR)
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: 'ab' }, 'title', 'validation.tms.title_min'],
      [{ class_plan: { html: '', duration: 14 } }, 'class_plan.duration', 'validation.lesson.class_plan_duration'],
      [{ class_plan: { html: '', duration: 181 } }, 'class_plan.duration', 'validation.lesson.class_plan_duration'],
      [{ question_pairs: [{ question: 'ok?', answer: 'no' }] }, 'question_pairs.0.answer', 'validation.lesson.pair_min'],
      [{ language: 'xx-XX' }, 'language', 'validation.picklist'],
    ]
    for (const [json, field, message] of cases) {
      const body = await expectEnvelope(await createModel(token, json), 400)
      expect(body.errors.map((e) => [e.field, e.message])).toContainEqual([field, message])
    }
    const ok = await model(token, { class_plan: { html: '<p>Plan</p>', duration: 180 }, question_pairs: [{ question: 'Why?', answer: 'Because.' }] })
    expect(ok.class_plan.duration).toBe(180)
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM lesson_model WHERE realm = ?').bind('demo').first<number>('n')
    await expectEnvelope(await createModel(token, { title: 'x' }), 400)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM lesson_model WHERE realm = ?').bind('demo').first<number>('n')).toBe(before)
  })

  it('needs at least one slide with content when there is a presentation, and a persona for slides with an overlay', async () => {
    const { token } = await userWith('demo', AUTHOR)
    let body = await expectEnvelope(await createModel(token, { slides: [empty] }), 422, 'slides_missing_content')
    expect(body.errors[0]).toMatchObject({ field: 'slides', message: 'validation.lesson.slides_missing_content' })
    body = await expectEnvelope(await createModel(token, { slides: [slide('s3', full.objects, 'voice_image')] }), 422, 'persona_required')
    expect(body.errors[0].field).toBe('persona_id')
    const withPersona = await model(token, { slides: [slide('s3', full.objects, 'voice')], persona_id: made.persona })
    expect(withPersona.persona_id).toBe(made.persona)
    await expectEnvelope(await createModel(token, { persona_id: 'nope' }), 422, 'unknown_persona')
    await expectEnvelope(await createModel(token, { video: 'nope' }), 422, 'unknown_asset')
    await expectEnvelope(await createModel(token, { tasks: ['nope'] }), 422, 'unknown_model')
    await expectEnvelope(
      await createModel(token, { slides: [slide('s4', [{ ...full.objects[0], kind: 'formula', latex: '\\frac{1}{2', color: '#000000' } as never])] }),
      422,
    )
  })

  it('fixes the persona once the lesson has a video (seed 001 §4)', async () => {
    const { token } = await userWith('demo', AUTHOR)
    const m = await model(token, { persona_id: made.persona, video: made.video })
    const input = { title: m.title, persona_id: null, video: made.video }
    await expectEnvelope(await api(DEMO, `lesson/model/${m.id}`, { method: 'PUT', token, json: input }), 409, 'persona_fixed')
    // Without the video the persona may change.
    const res = await api(DEMO, `lesson/model/${m.id}`, { method: 'PUT', token, json: { ...input, video: null } })
    expect(res.status).toBe(200)
    expect(((await res.json()) as LessonModel).persona_id).toBeNull()
  })

  it('sanitizes rich text and lists, searches and pages within the realm; other realms see 404', async () => {
    const { token } = await userWith('demo', AUTHOR)
    const tag = `t${crypto.randomUUID().slice(0, 6)}`
    const m = await model(token, { handout: '<p onclick="x()">Hand<script>alert(1)</script>out</p>', tags: [tag] })
    expect(m.handout).toBe('<p>Handout</p>')
    const page = (await (await api(DEMO, `lesson/model?tag=${tag}&limit=5`, { token })).json()) as { items: LessonModel[]; total: number }
    expect(page.total).toBe(1)
    expect(page.items[0]).toMatchObject({ id: m.id, published_count: 0 })
    const other = await userWith('escola', AUTHOR)
    await expectEnvelope(await api(ESCOLA, `lesson/model/${m.id}`, { token: other.token }), 404)
    await expectEnvelope(await api(ESCOLA, `lesson/model/${m.id}`, { method: 'DELETE', token: other.token }), 404)
  })

  it('answers 403 without the permission and writes nothing', async () => {
    const { token } = await userWith('demo', ['lesson_model_list'])
    await expectEnvelope(await createModel(token, {}), 403)
    const reader = await userWith('demo', AUTHOR)
    const m = await model(reader.token)
    await expectEnvelope(await api(DEMO, `lesson/model/${m.id}`, { method: 'DELETE', token }), 403)
    await expectEnvelope(await api(DEMO, 'lesson/lesson', { method: 'POST', token: reader.token, json: { model_id: m.id, rooms: [made.roomA.id] } }), 403)
  })

  it('createLessonModel (the generator entry) applies the same rules', async () => {
    const w = { db: env.DB, realm: 'demo', nick: 'genesis' }
    const m = await createLessonModel(w, { title: 'Generated lesson', slides: [full, empty], language: 'en-US' })
    expect(m).toMatchObject({ title: 'Generated lesson', language: 'en-US', slide_count: 1, created_by: 'genesis' })
    await expect(createLessonModel(w, { title: 'Generated', slides: [empty] })).rejects.toMatchObject({ status: 422 })
    await expect(createLessonModel(w, { title: 'G' })).rejects.toMatchObject({ status: 422 })
  })
})

describe('published lessons (/lesson/lesson) and the student (/lesson/student)', () => {
  it('publishes a copy to a room; the student reaches it, the model can change without changing it', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token, { summary: '<p>Copy me</p>', slides: [full] })
    const res = await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, rooms: [made.roomA.id] } })
    expect(res.status, await res.clone().text()).toBe(201)
    const l = (await res.json()) as Lesson & { targets: { room_id: string }[] }
    expect(l).toMatchObject({ model_id: m.id, status: 'published', summary: '<p>Copy me</p>', slides: [full], expire_at: null })
    expect(l.targets.map((t) => t.room_id)).toEqual([made.roomA.id])
    await api(DEMO, `lesson/model/${m.id}`, { method: 'PUT', token, json: { title: m.title, summary: '<p>Changed</p>' } })
    const list = (await (await api(DEMO, 'lesson/student', { token: made.student.token })).json()) as { items: { id: string }[] }
    expect(list.items.map((x) => x.id)).toContain(l.id)
    const seen = (await (await api(DEMO, `lesson/student/${l.id}`, { token: made.student.token })).json()) as { summary: string; slides: Slide[] }
    expect(seen.summary).toBe('<p>Copy me</p>')
    expect(seen.slides).toEqual([full])
    const counts = (await (await api(DEMO, `lesson/model/${m.id}`, { token })).json()) as LessonModel
    expect(counts.published_count).toBe(1)
  })

  it('reaches students through groups, not others; scheduled lessons are hidden; bad targets and dates are refused', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token)
    const viaGroup = await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, publication_type: 'group', groups: [made.group.id] } })
    expect(viaGroup.status).toBe(201)
    const g = (await viaGroup.json()) as Lesson
    expect((await api(DEMO, `lesson/student/${g.id}`, { token: made.student.token })).status).toBe(200)
    const elsewhere = (await (await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, rooms: [made.roomB.id] } })).json()) as Lesson
    await expectEnvelope(await api(DEMO, `lesson/student/${elsewhere.id}`, { token: made.student.token }), 404, 'lesson_not_found')
    const later = new Date(Date.now() + 86_400_000).toISOString()
    const scheduled = (await (
      await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, rooms: [made.roomA.id], publish_at: later } })
    ).json()) as Lesson
    expect(scheduled.status).toBe('scheduled')
    await expectEnvelope(await api(DEMO, `lesson/student/${scheduled.id}`, { token: made.student.token }), 404, 'lesson_not_found')
    const none = await expectEnvelope(await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, rooms: [] } }), 400)
    expect(none.errors[0]).toMatchObject({ field: 'rooms', message: 'validation.tms.target_required' })
    await expectEnvelope(await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, rooms: ['nope'] } }), 422, 'unknown_room')
    await expectEnvelope(
      await api(DEMO, 'lesson/lesson', {
        method: 'POST',
        token,
        json: { model_id: m.id, rooms: [made.roomA.id], publish_at: later, expire_at: new Date().toISOString() },
      }),
      422,
      'expire_before_publish',
    )
    const other = await userWith('escola', PUBLISHER)
    await expectEnvelope(await api(ESCOLA, 'lesson/lesson', { method: 'POST', token: other.token, json: { model_id: m.id, rooms: [made.roomA.id] } }), 404)
  })

  it('edits and deletes a published lesson; its list filters by model and status', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token)
    const l = (await (await api(DEMO, 'lesson/lesson', { method: 'POST', token, json: { model_id: m.id, rooms: [made.roomA.id] } })).json()) as Lesson
    const put = await api(DEMO, `lesson/lesson/${l.id}`, { method: 'PUT', token, json: { title: 'Renamed lesson', handout: '<p>New</p>' } })
    expect(put.status, await put.clone().text()).toBe(200)
    expect(await put.json()).toMatchObject({ title: 'Renamed lesson', handout: '<p>New</p>', publish_at: l.publish_at })
    const page = (await (await api(DEMO, `lesson/lesson?model_id=${m.id}&status=published`, { token })).json()) as { items: Lesson[] }
    expect(page.items.map((x) => x.id)).toEqual([l.id])
    expect((await api(DEMO, `lesson/lesson/${l.id}`, { method: 'DELETE', token })).status).toBe(204)
    await expectEnvelope(await api(DEMO, `lesson/lesson/${l.id}`, { token }), 404)
  })

  it('lists the tasks of the lesson’s task models that reach the student', async () => {
    const teacher = await userWith('demo', [...PUBLISHER, 'tms_model_create', 'tms_task_publish'])
    const tm = await api(DEMO, 'tms/model', { method: 'POST', token: teacher.token, json: { title: 'Lesson task', questions: [validQuestion('single')] } })
    expect(tm.status, await tm.clone().text()).toBe(201)
    const taskModel = (await tm.json()) as { id: string }
    const category = await taskCategory('demo')
    const task = await api(DEMO, 'tms/task', {
      method: 'POST',
      token: teacher.token,
      json: { model_id: taskModel.id, rooms: [made.roomA.id], categories: [category.id] },
    })
    expect(task.status, await task.clone().text()).toBe(201)
    const taskId = ((await task.json()) as { id: string }).id
    const m = await model(teacher.token, { tasks: [taskModel.id] })
    const l = (await (
      await api(DEMO, 'lesson/lesson', { method: 'POST', token: teacher.token, json: { model_id: m.id, rooms: [made.roomA.id] } })
    ).json()) as Lesson
    const seen = (await (await api(DEMO, `lesson/student/${l.id}`, { token: made.student.token })).json()) as { task_list: { id: string; status: string }[] }
    expect(seen.task_list).toEqual([expect.objectContaining({ id: taskId, status: 'published' })])
  })
})
