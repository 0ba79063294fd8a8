/** What the answer tests share (issue 17): a teacher, students with sessions, a room, a published task. */
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { createSession } from '../../worker/db/sessions'
import { essayRefs, room, taskCategory, user } from './factories'
import { DEMO, api, userWith } from './helpers'

export const TEACHER = [
  'dashboard_dashboard_access',
  'tms_model_create',
  'tms_model_get',
  'tms_task_publish',
  'tms_task_get',
  'tms_task_edit',
  'tms_task_list_others',
  'tms_token_generate',
  'tms_answer_list',
  'tms_task_correct',
]

/** A student of demo (no permission at all) with a session of the web client. */
export async function student() {
  const { nick } = await user('demo', { roles: ['student'] })
  const { token } = await createSession(env.DB, 'demo', nick, { platform: 'web' })
  return { nick, token }
}

/** Objective questions with known keys, a text question a teacher scores, and an info block. */
export function questions() {
  return [
    { type: 'info', statement: '<p>Read carefully.</p>', media_type: 'text' },
    {
      type: 'single',
      statement: '<p>Which is a prime number?</p>',
      score: 1,
      shuffle: true,
      options: [
        { statement: '<p>7</p>', answer: true },
        { statement: '<p>8</p>', answer: false },
        { statement: '<p>9</p>', answer: false },
      ],
    },
    {
      type: 'multi',
      statement: '<p>Which are even?</p>',
      score: 2,
      partial_score: true,
      options: [
        { statement: '<p>2</p>', answer: true },
        { statement: '<p>4</p>', answer: true },
        { statement: '<p>5</p>', answer: false },
      ],
    },
    {
      type: 'fill_words',
      statement: '<p>Complete.</p>',
      score: 1,
      options: { sentence: 'The [[sun]] rises in the [[east]].', incorrect: ['moon'], mode: 'select' },
    },
    { type: 'order_sentences', statement: '<p>Order.</p>', score: 1, options: { sentences: ['Wake up', 'Brush teeth', 'Go to school'], incorrect: [] } },
    { type: 'cloud', statement: '<p>Build.</p>', score: 1, options: { phrase: 'cats like milk', extra: ['dogs'] } },
    { type: 'fill_letters', statement: '<p>Spell.</p>', score: 1, options: { question: 'Capital of France', answer: 'Paris' } },
    { type: 'text', statement: '<p>Explain photosynthesis.</p>', score: 2, options: { min_text_count: 1, max_text_count: 500 } },
  ]
}

export interface StoredQuestion {
  id: string
  type: string
  score: number
  options: unknown
}

/** A model with `extra` fields, published to `rooms` now (deadline: the default 3 days unless given). */
export async function publishedTask(teacherToken: string, rooms: string[], extra: Record<string, unknown> = {}, publication: Record<string, unknown> = {}) {
  const category = await taskCategory('demo')
  const m = await api(DEMO, 'tms/model', {
    method: 'POST',
    token: teacherToken,
    json: { title: `Answer ${crypto.randomUUID().slice(0, 6)}`, questions: questions(), ...extra },
  })
  expect(m.status, await m.clone().text()).toBe(201)
  const model = (await m.json()) as { id: string; questions: StoredQuestion[] }
  const t = await api(DEMO, 'tms/task', { method: 'POST', token: teacherToken, json: { model_id: model.id, rooms, categories: [category.id], ...publication } })
  expect(t.status, await t.clone().text()).toBe(201)
  const task = (await t.json()) as { id: string; expire_at: string }
  return { task, model, byType: (type: string) => model.questions.find((q) => q.type === type)! }
}

/** In `realm`: a teacher, a student with a web session, a room of both, a task category and an essay's genre and skill. */
export async function essayClass(realm: string) {
  const teacher = await userWith(realm, TEACHER)
  const { nick } = await user(realm)
  const { token } = await createSession(env.DB, realm, nick, { platform: 'web' })
  const r = await room(realm, { members: [nick, teacher.nick] })
  const [category, refs] = [await taskCategory(realm), await essayRefs(realm)]
  return { teacher, student: { nick, token }, room: r, category, refs }
}

/** A model of `questions` (title "Redação") published by the teacher to a room under a category, in the realm of `host`. */
export async function publishedTo(host: string, teacherToken: string, questions: unknown[], roomId: string, categoryId: string) {
  const m = await api(host, 'tms/model', { method: 'POST', token: teacherToken, json: { title: 'Redação', questions } })
  expect(m.status, await m.clone().text()).toBe(201)
  const model = (await m.json()) as { id: string; questions: { id: string; type: string }[] }
  const t = await api(host, 'tms/task', { method: 'POST', token: teacherToken, json: { model_id: model.id, rooms: [roomId], categories: [categoryId] } })
  expect(t.status, await t.clone().text()).toBe(201)
  return { model, task: (await t.json()) as { id: string } }
}

/** A teacher (their own role), a room with two students, and another room with a third. */
export async function classroom() {
  const teacher = await userWith('demo', TEACHER)
  const [a, b, c] = [await student(), await student(), await student()]
  const roomA = await room('demo', { members: [a.nick, b.nick, teacher.nick] })
  const roomB = await room('demo', { members: [c.nick] })
  return { teacher, a, b, c, roomA, roomB }
}

export const open = (token: string, taskId: string, json: Record<string, unknown> = {}) =>
  api(DEMO, `tms/answer-student/${taskId}/open`, { method: 'POST', token, json })

export async function opened(token: string, taskId: string, json: Record<string, unknown> = {}) {
  const res = await open(token, taskId, json)
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as {
    receipt: string
    opened_at: string
    questions: { id: string; type: string; options: Record<string, unknown> | { id: string }[] }[]
    answer: { status: string } | null
  }
}

export const draft = (token: string, taskId: string, json: Record<string, unknown>) =>
  api(DEMO, `tms/answer-student/${taskId}/draft`, { method: 'PUT', token, json })
export const deliver = (token: string, taskId: string, json: Record<string, unknown>) =>
  api(DEMO, `tms/answer-student/${taskId}/deliver`, { method: 'POST', token, json })

export const answerId = () => crypto.randomUUID()

/** Moves the student's first open of a task back by `ms` (as if they opened it that long ago). */
export async function openedAgo(taskId: string, nick: string, ms: number) {
  await env.DB.prepare('UPDATE tms_answer_start SET opened_at = ? WHERE task_id = ? AND nick = ?')
    .bind(new Date(Date.now() - ms).toISOString(), taskId, nick)
    .run()
}

/** Sets a task's deadline (as if time passed: publication refuses dates in the past). */
export async function expireAt(taskId: string, at: number) {
  await env.DB.prepare('UPDATE tms_task SET expire_at = ? WHERE id = ?').bind(new Date(at).toISOString(), taskId).run()
}
