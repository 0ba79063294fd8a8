import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Survey, SurveyModel, SurveyQuestionResult } from '#shared/schemas/survey/survey'
import { createSession } from '../../worker/db/sessions'
import { room, roomGroup, user } from './factories'
import { DEMO, ESCOLA, api, call, expectEnvelope, userWith } from './helpers'

const AUTHOR = ['survey_model_list', 'survey_model_get', 'survey_model_create', 'survey_model_edit', 'survey_model_delete']
const STAFF = [...AUTHOR, 'survey_survey_list', 'survey_survey_publish', 'survey_survey_edit', 'survey_survey_delete', 'survey_survey_result']

const QUESTIONS = [
  { id: 'q1', type: 'single', statement: 'How was the class?', required: true, options: ['Good', 'Bad'] },
  { id: 'q2', type: 'multi', statement: 'What did you like?', options: ['Games', 'Videos', 'Slides'] },
  { id: 'q3', type: 'scale', statement: 'Rate the pace', options: ['ignored'] },
  { id: 'q4', type: 'text', statement: 'Anything else?' },
]

const made = {} as {
  staff: { token: string; nick: string }
  a: { token: string; nick: string }
  b: { token: string; nick: string }
  c: { token: string; nick: string }
  outsider: { token: string; nick: string }
  roomA: { id: string }
  roomB: { id: string }
  group: { id: string; name: string }
}

/** A student of the web client (no permission), member of the rooms made for them. */
async function student() {
  const u = await user('demo')
  const { token } = await createSession(env.DB, 'demo', u.nick, { platform: 'web' })
  return { token, nick: u.nick }
}

beforeAll(async () => {
  made.staff = await userWith('demo', STAFF)
  made.a = await student()
  made.b = await student()
  made.c = await student()
  made.outsider = await student()
  made.roomA = await room('demo', { members: [made.a.nick, made.c.nick] })
  made.roomB = await room('demo', { members: [made.b.nick] })
  made.group = await roomGroup('demo', [made.roomB.id])
})

async function model(json: Record<string, unknown> = {}): Promise<SurveyModel> {
  const res = await api(DEMO, 'survey/model', {
    method: 'POST',
    token: made.staff.token,
    json: { title: `Survey ${crypto.randomUUID().slice(0, 6)}`, questions: QUESTIONS, ...json },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as SurveyModel
}
async function publish(modelId: string, json: Record<string, unknown> = {}): Promise<Survey> {
  const res = await api(DEMO, 'survey/survey', {
    method: 'POST',
    token: made.staff.token,
    json: { model_id: modelId, publication_type: 'all', rooms: [made.roomA.id, made.roomB.id], ...json },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Survey
}
const answer = (token: string, id: string, answers: Record<string, unknown>) =>
  api(DEMO, `survey/student/${id}/answer`, { method: 'POST', token, json: { answers } })

describe('survey models (/survey/model)', () => {
  it('creates with the defaults, keeps the questions (scale and text without options) and counts them', async () => {
    const m = await model()
    expect(m).toMatchObject({ type: 'model', is_required: false, confirmation_message: '', question_count: 4 })
    expect(m.questions.find((q) => q.id === 'q3')?.options).toEqual([])
    expect(m.questions.find((q) => q.id === 'q4')).toMatchObject({ required: false, options: [] })
    const draft = await model({ questions: [] })
    expect(draft.question_count).toBe(0)
  })

  it('refuses bad input with the envelope and stores nothing', async () => {
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM survey_model WHERE realm = 'demo'").first<number>('n')
    const bad = [
      { title: 'ab' },
      { title: 'Fine title', questions: [{ id: 'x', type: 'single', statement: 'Pick one', options: ['only'] }] },
      { title: 'Fine title', questions: [{ id: 'x', type: 'rating', statement: 'Pick one' }] },
      { title: 'Fine title', questions: [{ id: 'x', type: 'multi', statement: 'Pick', options: ['a', 'A'] }] },
      { title: 'Fine title', questions: [QUESTIONS[0], QUESTIONS[0]] },
      { title: 'Fine title', is_required: 'yes' },
    ]
    for (const json of bad) await expectEnvelope(await api(DEMO, 'survey/model', { method: 'POST', token: made.staff.token, json }), 400)
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM survey_model WHERE realm = 'demo'").first<number>('n')).toBe(before)
  })

  it('needs the permissions: list, create, edit and delete each answer 403 without theirs', async () => {
    const m = await model()
    const { token } = await userWith('demo', ['survey_model_list'])
    expect((await api(DEMO, 'survey/model', { token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, 'survey/model', { method: 'POST', token, json: { title: 'No way' } }), 403)
    await expectEnvelope(await api(DEMO, `survey/model/${m.id}`, { method: 'PUT', token, json: { title: 'No way' } }), 403)
    await expectEnvelope(await api(DEMO, `survey/model/${m.id}`, { method: 'DELETE', token }), 403)
    await expectEnvelope(await api(DEMO, 'survey/survey', { token }), 403)
    await expectEnvelope(await api(DEMO, 'survey/model', { token: made.a.token }), 403)
  })

  it('is scoped by realm: another realm neither lists nor reads the model', async () => {
    const m = await model()
    const other = await userWith('escola', [...STAFF, 'dashboard_dashboard_access'])
    const list = (await (await api(ESCOLA, 'survey/model', { token: other.token })).json()) as { items: { id: string }[] }
    expect(list.items.map((x) => x.id)).not.toContain(m.id)
    await expectEnvelope(await api(ESCOLA, `survey/model/${m.id}`, { token: other.token }), 404)
    await expectEnvelope(
      await api(ESCOLA, 'survey/survey', { method: 'POST', token: other.token, json: { model_id: m.id, publication_type: 'all', rooms: [made.roomA.id] } }),
      404,
    )
  })
})

describe('publication (/survey/survey)', () => {
  it('cannot publish without a question (§5)', async () => {
    const draft = await model({ questions: [] })
    await expectEnvelope(
      await api(DEMO, 'survey/survey', {
        method: 'POST',
        token: made.staff.token,
        json: { model_id: draft.id, publication_type: 'all', rooms: [made.roomA.id] },
      }),
      422,
      'survey_no_questions',
    )
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM survey_survey WHERE model_id = ?').bind(draft.id).first<number>('n')).toBe(0)
  })

  it('needs a target and known rooms; the end after the start', async () => {
    const m = await model()
    const post = (json: Record<string, unknown>) => api(DEMO, 'survey/survey', { method: 'POST', token: made.staff.token, json: { model_id: m.id, ...json } })
    await expectEnvelope(await post({ publication_type: 'all', rooms: [] }), 400)
    await expectEnvelope(await post({ publication_type: 'all', rooms: ['nope'] }), 422)
    await expectEnvelope(
      await post({ publication_type: 'all', rooms: [made.roomA.id], publish_at: '2030-01-02T00:00:00Z', expire_at: '2030-01-01T00:00:00Z' }),
      422,
    )
  })

  it('a model with published surveys cannot be updated or deleted (§4, §8); once its surveys are deleted it can', async () => {
    const m = await model()
    const s = await publish(m.id)
    await expectEnvelope(
      await api(DEMO, `survey/model/${m.id}`, { method: 'PUT', token: made.staff.token, json: { title: 'Changed title' } }),
      409,
      'survey_model_update_blocked',
    )
    await expectEnvelope(await api(DEMO, `survey/model/${m.id}`, { method: 'DELETE', token: made.staff.token }), 409, 'survey_model_delete_blocked')
    const read = (await (await api(DEMO, `survey/model/${m.id}`, { token: made.staff.token })).json()) as SurveyModel
    expect(read).toMatchObject({ title: m.title, published_count: 1 })
    expect((await api(DEMO, `survey/survey/${s.id}`, { method: 'DELETE', token: made.staff.token })).status).toBe(204)
    expect((await api(DEMO, `survey/model/${m.id}`, { method: 'PUT', token: made.staff.token, json: { title: 'Changed title' } })).status).toBe(200)
    expect((await api(DEMO, `survey/model/${m.id}`, { method: 'DELETE', token: made.staff.token })).status).toBe(204)
  })
})

describe('answers (/survey/student) and results', () => {
  it('a student sees the surveys reaching them, answers once with required questions enforced, and gets the confirmation', async () => {
    const m = await model({ confirmation_message: 'Thanks, class!' })
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    const list = (await (await api(DEMO, 'survey/student', { token: made.a.token })).json()) as { items: { id: string; answered_at: string | null }[] }
    expect(list.items.find((x) => x.id === s.id)).toMatchObject({ answered_at: null })
    // Not reaching b, nor the outsider: not revealed.
    await expectEnvelope(await api(DEMO, `survey/student/${s.id}`, { token: made.b.token }), 404, 'survey_not_found')
    await expectEnvelope(await answer(made.outsider.token, s.id, { q1: 0 }), 404, 'survey_not_found')
    // Required q1 missing; a value out of range; an unknown question.
    const missing = await expectEnvelope(await answer(made.a.token, s.id, { q2: [0] }), 422, 'required_answer')
    expect(missing.errors.map((e) => e.field)).toContain('answers.q1')
    await expectEnvelope(await answer(made.a.token, s.id, { q1: 5 }), 422, 'invalid_answer')
    await expectEnvelope(await answer(made.a.token, s.id, { q1: 0, q3: 6 }), 422, 'invalid_answer')
    await expectEnvelope(await answer(made.a.token, s.id, { q1: 0, zz: 1 }), 422, 'unknown_question')
    await expectEnvelope(await answer(made.a.token, s.id, 'nope' as never), 400)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM survey_answer WHERE survey_id = ?').bind(s.id).first<number>('n')).toBe(0)
    const ok = await answer(made.a.token, s.id, { q1: 0, q2: [2, 0], q3: 4, q4: '  More games  ' })
    expect(ok.status, await ok.clone().text()).toBe(201)
    expect(await ok.json()).toMatchObject({ confirmation_message: 'Thanks, class!', answers: { q1: 0, q2: [0, 2], q3: 4, q4: 'More games' } })
    await expectEnvelope(await answer(made.a.token, s.id, { q1: 1 }), 409, 'survey_already_answered')
    const mine = (await (await api(DEMO, `survey/student/${s.id}`, { token: made.a.token })).json()) as { answer: { answers: Record<string, unknown> } }
    expect(mine.answer.answers.q1).toBe(0)
  })

  it('a required survey requires every question', async () => {
    const m = await model({ is_required: true })
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    const res = await expectEnvelope(await answer(made.a.token, s.id, { q1: 0 }), 422, 'required_answer')
    expect(res.errors.map((e) => e.field).sort()).toEqual(['answers.q2', 'answers.q3', 'answers.q4'])
  })

  it('scheduled surveys are hidden and ended ones take no answers', async () => {
    const m = await model()
    const later = await publish(m.id, { rooms: [made.roomA.id], publish_at: '2099-01-01T00:00:00Z' })
    await expectEnvelope(await answer(made.a.token, later.id, { q1: 0 }), 404, 'survey_not_found')
    const ended = await publish(m.id, { rooms: [made.roomA.id], publish_at: '2020-01-01T00:00:00Z', expire_at: '2020-02-01T00:00:00Z' })
    await expectEnvelope(await answer(made.a.token, ended.id, { q1: 0 }), 409, 'survey_expired')
  })

  it('results count per option with percentages, per room; CSV; a group target reaches its rooms', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    const g = await publish(m.id, { publication_type: 'group', rooms: [], groups: [made.group.id] })
    expect((await answer(made.a.token, s.id, { q1: 0, q2: [0, 1], q3: 5 })).status).toBe(201)
    expect((await answer(made.b.token, g.id, { q1: 1 })).status).toBe(201)
    // Another student of room A.
    expect((await answer(made.c.token, s.id, { q1: 1, q2: [1], q3: 2, q4: 'ok' })).status).toBe(201)
    const res = await api(DEMO, `survey/survey/${s.id}/result`, { token: made.staff.token })
    expect(res.status).toBe(200)
    const r = (await res.json()) as { respondents: number; questions: SurveyQuestionResult[]; rooms: { id: string }[] }
    expect(r.respondents).toBe(2)
    expect(r.rooms.map((x) => x.id)).toEqual([made.roomA.id])
    const [q1, q2, q3, q4] = r.questions
    expect(q1.options).toEqual([
      { label: 'Good', count: 1, percent: 50 },
      { label: 'Bad', count: 1, percent: 50 },
    ])
    expect(q2).toMatchObject({
      answered: 2,
      options: [
        { count: 1, percent: 50 },
        { count: 2, percent: 100 },
        { count: 0, percent: 0 },
      ],
    })
    expect(q3).toMatchObject({ answered: 2, mean: 3.5 })
    expect(q3.options.map((o) => o.count)).toEqual([0, 1, 0, 0, 1])
    expect(q4.texts).toEqual(['ok'])
    const roomB = (await (await api(DEMO, `survey/survey/${s.id}/result?room=${made.roomB.id}`, { token: made.staff.token })).json()) as { respondents: number }
    expect(roomB.respondents).toBe(0)
    await expectEnvelope(await api(DEMO, `survey/survey/${s.id}/result?room=${encodeURIComponent('bad id!')}`, { token: made.staff.token }), 400)
    const csv = await call(DEMO, `/export/survey/${s.id}`, { headers: { cookie: (await userWith('demo', [...STAFF, 'dashboard_dashboard_access'])).cookie } })
    expect(csv.status).toBe(200)
    const text = await csv.text()
    expect(text).toContain('How was the class?')
    expect(text).toMatch(/Good.*1.*50/)
    // Result permission.
    const { token } = await userWith('demo', ['survey_survey_list'])
    await expectEnvelope(await api(DEMO, `survey/survey/${s.id}/result`, { token }), 403)
  })

  it('staff revise an answer: the rules apply again and the revision keeps who made it', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    const first = (await (await answer(made.a.token, s.id, { q1: 0 })).json()) as { id: string }
    const who = (await (await api(DEMO, `survey/survey/${s.id}/answers`, { token: made.staff.token })).json()) as { items: { id: string; nick: string }[] }
    expect(who.items.map((x) => x.nick)).toEqual([made.a.nick])
    const path = `survey/survey/${s.id}/answers/${first.id}`
    await expectEnvelope(await api(DEMO, path, { method: 'PUT', token: made.staff.token, json: { answers: { q2: [0] } } }), 422, 'required_answer')
    const { token } = await userWith('demo', ['survey_survey_list'])
    await expectEnvelope(await api(DEMO, path, { method: 'PUT', token, json: { answers: { q1: 1 } } }), 403)
    const res = await api(DEMO, path, { method: 'PUT', token: made.staff.token, json: { answers: { q1: 1 } } })
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as {
      answer: { answers: Record<string, unknown>; revision_count: number; updated_by: string }
      revisions: { revised_by: string; before: unknown; after: unknown }[]
    }
    expect(body.answer).toMatchObject({ answers: { q1: 1 }, revision_count: 1, updated_by: made.staff.nick })
    expect(body.revisions).toEqual([expect.objectContaining({ revised_by: made.staff.nick, before: { q1: 0 }, after: { q1: 1 } })])
    await expectEnvelope(await api(DEMO, `survey/survey/${s.id}/answers/nope`, { token: made.staff.token }), 404)
  })
})

describe('changing and withdrawing a published survey (PUT, DELETE /survey/survey/{id})', () => {
  const put = (id: string, json: unknown, token = made.staff.token) => api(DEMO, `survey/survey/${id}`, { method: 'PUT', token, json })
  const audits = async (id: string, action: string) =>
    (
      await env.DB.prepare("SELECT actor, changes FROM audit_log WHERE entity = 'survey_survey' AND entity_id = ? AND action = ? ORDER BY id")
        .bind(id, action)
        .all<{ actor: string; changes: string }>()
    ).results
  const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()

  it('dates: a changed date is not in the past, the end after the start; an open survey keeps its past start', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id], publish_at: new Date(Date.now() - 3_600_000).toISOString() })
    // Only the end moves: the past start stays valid.
    const end = future(10)
    const ok = await put(s.id, { expire_at: end })
    expect(ok.status, await ok.clone().text()).toBe(200)
    expect(Date.parse(((await ok.json()) as Survey).expire_at!)).toBe(Date.parse(end))
    await expectEnvelope(await put(s.id, { expire_at: new Date(Date.now() - 60_000).toISOString() }), 422, 'expire_in_past')
    await expectEnvelope(await put(s.id, { publish_at: '2020-01-01T00:00:00Z' }), 422, 'publish_in_past')
    await expectEnvelope(await put(s.id, { publish_at: future(20) }), 422, 'expire_before_publish')
    // The start moves into the future while nobody answered; the end may be cleared (open again without end).
    expect((await put(s.id, { publish_at: future(1), expire_at: null })).status).toBe(200)
    const read = (await (await api(DEMO, `survey/survey/${s.id}`, { token: made.staff.token })).json()) as Survey
    expect(read).toMatchObject({ status: 'scheduled', expire_at: null })
    const log = await audits(s.id, 'update')
    expect(log.length).toBe(2)
    expect(log[0].actor).toBe(made.staff.nick)
    expect(JSON.parse(log[0].changes)).toMatchObject({ expire_at: [null, expect.any(String)] })
  })

  it('an answered survey keeps its start; its end can close it, and the student list drops it once ended', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    expect((await answer(made.a.token, s.id, { q1: 0 })).status).toBe(201)
    await expectEnvelope(await put(s.id, { publish_at: future(1) }), 422, 'start_answered')
    const close = future(2)
    expect((await put(s.id, { expire_at: close })).status).toBe(200)
    const listed = async () =>
      ((await (await api(DEMO, 'survey/student?limit=100', { token: made.c.token })).json()) as { items: { id: string }[] }).items.map((x) => x.id)
    expect(await listed()).toContain(s.id)
    // The clock passes the end (moved back in the table: the API refuses an end in the past).
    await env.DB.prepare('UPDATE survey_survey SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), s.id)
      .run()
    expect(await listed()).not.toContain(s.id)
  })

  it('targets: rooms, members and groups can be added; a target that brought answers cannot be removed', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    // Nobody answered yet: room A may be swapped for a group.
    const swapped = await put(s.id, { publication_type: 'group', groups: [made.group.id] })
    expect(swapped.status, await swapped.clone().text()).toBe(200)
    expect(((await swapped.json()) as { targets: { group_id: string | null }[] }).targets.map((x) => x.group_id)).toEqual([made.group.id])
    expect((await answer(made.b.token, s.id, { q1: 1 })).status).toBe(201)
    // Adding room A beside the group is a change of type: the group's answer (b, through room B) must stay reached.
    const lost = await expectEnvelope(await put(s.id, { publication_type: 'all', rooms: [made.roomA.id] }), 422, 'target_answered')
    expect(lost.errors[0]).toMatchObject({ field: 'rooms', value: made.group.name })
    expect((await put(s.id, { publication_type: 'all', rooms: [made.roomA.id, made.roomB.id] })).status).toBe(200)
    // Member targets: b in room B answered; adding a in room A is fine, removing b is not.
    const members = await put(s.id, {
      publication_type: 'members',
      members: [
        { room: made.roomB.id, nick: made.b.nick },
        { room: made.roomA.id, nick: made.a.nick },
      ],
    })
    expect(members.status, await members.clone().text()).toBe(200)
    const refused = await expectEnvelope(
      await put(s.id, { publication_type: 'members', members: [{ room: made.roomA.id, nick: made.a.nick }] }),
      422,
      'target_answered',
    )
    expect(refused.errors[0]).toMatchObject({ field: 'members', value: expect.stringContaining(made.b.nick) })
    const stored = await env.DB.prepare('SELECT COUNT(*) AS n FROM survey_survey_target WHERE survey_id = ?').bind(s.id).first<number>('n')
    expect(stored).toBe(2)
    // Unknown rooms and an empty selection are refused too; nothing changed.
    await expectEnvelope(await put(s.id, { publication_type: 'all', rooms: [made.roomB.id, 'nope'] }), 422, 'unknown_room')
    // Audited with the targets before and after (field → [before, after]).
    const audit = (await audits(s.id, 'update')).map((a) => JSON.parse(a.changes) as { targets: [unknown[], unknown[]] })
    expect(audit.length).toBe(3)
    expect(audit[2].targets.map((x) => x.length)).toEqual([2, 2])
  })

  it('withdraw: without answers it leaves the student list and is audited; with answers it is refused', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    const ids = async () =>
      ((await (await api(DEMO, 'survey/student?limit=100', { token: made.a.token })).json()) as { items: { id: string }[] }).items.map((x) => x.id)
    expect(await ids()).toContain(s.id)
    expect((await api(DEMO, `survey/survey/${s.id}`, { method: 'DELETE', token: made.staff.token })).status).toBe(204)
    expect(await ids()).not.toContain(s.id)
    await expectEnvelope(await api(DEMO, `survey/student/${s.id}`, { token: made.a.token }), 404, 'survey_not_found')
    expect((await audits(s.id, 'delete')).map((a) => a.actor)).toEqual([made.staff.nick])
    const answered = await publish(m.id, { rooms: [made.roomA.id] })
    expect((await answer(made.c.token, answered.id, { q1: 0 })).status).toBe(201)
    const res = await expectEnvelope(await api(DEMO, `survey/survey/${answered.id}`, { method: 'DELETE', token: made.staff.token }), 409, 'survey_has_answers')
    expect(res.errors[0].message).toBe('validation.survey.withdraw_answered')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM survey_survey WHERE id = ?').bind(answered.id).first<number>('n')).toBe(1)
  })

  it('bad input answers the envelope and changes nothing; permissions 403; another realm 404', async () => {
    const m = await model()
    const s = await publish(m.id, { rooms: [made.roomA.id] })
    const bad = [
      { expire_at: 'tomorrow' },
      { publish_at: 12 },
      { publication_type: 'everyone', rooms: [made.roomA.id] },
      { publication_type: 'all', rooms: [] },
      { publication_type: 'group' },
      { publication_type: 'all', rooms: 'r1' },
      'nope',
    ]
    for (const json of bad) await expectEnvelope(await put(s.id, json), 400)
    const after = (await (await api(DEMO, `survey/survey/${s.id}`, { token: made.staff.token })).json()) as Survey & { targets: unknown[] }
    expect(after).toMatchObject({ updated_at: s.updated_at, expire_at: null })
    expect(after.targets).toHaveLength(1)
    const lister = await userWith('demo', ['survey_survey_list', 'survey_survey_publish'])
    await expectEnvelope(await put(s.id, { expire_at: future(3) }, lister.token), 403)
    await expectEnvelope(await api(DEMO, `survey/survey/${s.id}`, { method: 'DELETE', token: lister.token }), 403)
    const other = await userWith('escola', [...STAFF, 'dashboard_dashboard_access'])
    await expectEnvelope(
      await api(ESCOLA, `survey/survey/${s.id}`, { method: 'PUT', token: other.token, json: { expire_at: future(3) } }),
      404,
      'survey_not_found',
    )
    await expectEnvelope(await api(ESCOLA, `survey/survey/${s.id}`, { method: 'DELETE', token: other.token }), 404, 'survey_not_found')
    await expectEnvelope(await put('bad id!', { expire_at: future(3) }), 400)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM survey_survey WHERE id = ?').bind(s.id).first<number>('n')).toBe(1)
  })
})
