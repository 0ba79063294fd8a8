/** A room follows a track (issue 19): assigning it, the in-use refusal, the track's per-room progress and the student's view. */
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { lessonSlide, textObject } from '../support/lesson-fixtures'
import { answerId, classroom, deliver, opened, publishedTask, TEACHER } from './answer-helpers'
import { roomGroup } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

const TRACK = ['achievement_track_list', 'achievement_track_get', 'achievement_track_create', 'achievement_track_edit', 'achievement_track_delete']
const ROOM = ['room_room_list', 'room_room_get', 'room_room_edit']
const LESSON = ['lesson_model_create', 'lesson_model_get', 'lesson_lesson_create', 'lesson_lesson_get']
const SURVEY = ['survey_model_create', 'survey_model_get', 'survey_survey_publish', 'survey_survey_list']

type Item = { pos: number; kind: string; model_id: string; title: string | null; published: number; open_id: string | null; completed: number }
type Progress = { rooms: { id: string; name: string; member_count: number }[]; room: string | null; items: Item[] }
type Mine = { items: { room_id: string; track_id: string; track_title: string; items: Item[] }[] }

let k: Awaited<ReturnType<typeof classroom>>
let staff: { token: string; nick: string }
beforeAll(async () => {
  k = await classroom()
  staff = await userWith('demo', [...TEACHER, ...TRACK, ...ROOM, ...LESSON, ...SURVEY])
})

async function track(items: { kind: string; id: string }[], host = DEMO, token = staff.token) {
  const res = await api(host, 'achievement/track', { method: 'POST', token, json: { title: `Trilha ${crypto.randomUUID().slice(0, 6)}`, items } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string; title: string }
}

async function taskModel(title: string) {
  const res = await api(DEMO, 'tms/model', { method: 'POST', token: staff.token, json: { title, questions: [] } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string }
}

/** The room's name with `json` (the other fields at their defaults), PUT as the room form sends it. */
const putRoom = (roomId: string, name: string, json: Record<string, unknown>, token = staff.token) =>
  api(DEMO, `room/room/${roomId}`, { method: 'PUT', token, json: { name, ...json } })

const storedTrack = async (roomId: string) => env.DB.prepare('SELECT track_id FROM room WHERE id = ?').bind(roomId).first<string | null>('track_id')

describe('a room follows a track', () => {
  it('is set, kept when the body leaves it out, and cleared with null; another realm’s or an unknown track is refused (422, nothing changes)', async () => {
    const t = await track([])
    const r = k.roomB
    const set = await putRoom(r.id, r.name, { track_id: t.id })
    expect(set.status, await set.clone().text()).toBe(200)
    expect(await set.json()).toMatchObject({ track_id: t.id })
    expect((await putRoom(r.id, r.name, { topic: 'Sem trilha no corpo' })).status).toBe(200)
    expect(await storedTrack(r.id)).toBe(t.id)

    const escolaAdmin = await userWith('escola', TRACK)
    const other = await track([], ESCOLA, escolaAdmin.token)
    const refused = await expectEnvelope(await putRoom(r.id, r.name, { track_id: other.id }), 422, 'not_found')
    expect(refused.errors[0]).toMatchObject({ field: 'track_id', value: other.id })
    await expectEnvelope(await putRoom(r.id, r.name, { track_id: 'no-such-track' }), 422, 'not_found')
    await expectEnvelope(await putRoom(r.id, r.name, { track_id: 42 }), 400)
    expect(await storedTrack(r.id)).toBe(t.id)

    // Setting the track needs the room's edit permission.
    const reader = await userWith('demo', ['room_room_get', ...TRACK])
    await expectEnvelope(await putRoom(r.id, r.name, { track_id: null }, reader.token), 403)
    expect(await storedTrack(r.id)).toBe(t.id)

    expect((await putRoom(r.id, r.name, { track_id: null })).status).toBe(200)
    expect(await storedTrack(r.id)).toBeNull()

    // A new room may follow a track from its creation.
    const created = await api(DEMO, 'room/room', {
      method: 'POST',
      token: (await userWith('demo', ['room_room_create'])).token,
      json: { name: `Turma ${crypto.randomUUID().slice(0, 6)}`, track_id: t.id },
    })
    expect(created.status, await created.clone().text()).toBe(201)
    expect(await created.json()).toMatchObject({ track_id: t.id })
  })

  it('refuses deleting a track a room follows (409 in_use), and deletes it once no room does', async () => {
    const t = await track([])
    expect((await putRoom(k.roomB.id, k.roomB.name, { track_id: t.id })).status).toBe(200)
    const refused = await expectEnvelope(await api(DEMO, `achievement/track/${t.id}`, { method: 'DELETE', token: staff.token }), 409, 'in_use')
    expect(refused.errors[0].message).toBe('achievement.track_in_use')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM achievement_track WHERE id = ?').bind(t.id).first<number>('n')).toBe(1)
    expect((await putRoom(k.roomB.id, k.roomB.name, { track_id: null })).status).toBe(200)
    const gone = await api(DEMO, `achievement/track/${t.id}`, { method: 'DELETE', token: staff.token })
    expect(gone.status, await gone.clone().text()).toBeLessThan(300)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM achievement_track WHERE id = ?').bind(t.id).first<number>('n')).toBe(0)
  })
})

describe('progress along a track', () => {
  it('counts, per item in order, what is published to the room and which members completed it; the student sees only their own rooms’ tracks', async () => {
    // Task: published to room A, delivered by a. Lesson: published to a group holding room A, opened by a and by c
    // (c is not a member of room A: not counted there). Survey: published to room A, answered by b. A task model
    // never published. A scheduled lesson does not count as published.
    const task = await publishedTask(staff.token, [k.roomA.id])
    const lm = await api(DEMO, 'lesson/model', {
      method: 'POST',
      token: staff.token,
      json: { title: `Aula ${crypto.randomUUID().slice(0, 6)}`, slides: [lessonSlide('s1', [textObject('t1', '<p>Frações</p>')], '', 'none')] },
    })
    expect(lm.status, await lm.clone().text()).toBe(201)
    const lessonModel = (await lm.json()) as { id: string }
    const group = await roomGroup('demo', [k.roomA.id, k.roomB.id])
    const lesson = await api(DEMO, 'lesson/lesson', {
      method: 'POST',
      token: staff.token,
      json: { model_id: lessonModel.id, publication_type: 'group', groups: [group.id] },
    })
    expect(lesson.status, await lesson.clone().text()).toBe(201)
    const lessonId = ((await lesson.json()) as { id: string }).id
    const sm = await api(DEMO, 'survey/model', {
      method: 'POST',
      token: staff.token,
      json: { title: `Pesquisa ${crypto.randomUUID().slice(0, 6)}`, questions: [{ id: 'q1', type: 'single', statement: 'Gostou?', options: ['Sim', 'Não'] }] },
    })
    expect(sm.status, await sm.clone().text()).toBe(201)
    const surveyModel = (await sm.json()) as { id: string }
    const survey = await api(DEMO, 'survey/survey', {
      method: 'POST',
      token: staff.token,
      json: { model_id: surveyModel.id, publication_type: 'all', rooms: [k.roomA.id] },
    })
    expect(survey.status, await survey.clone().text()).toBe(201)
    const surveyId = ((await survey.json()) as { id: string }).id
    const unpublished = await taskModel('Ainda não publicada')

    const t = await track([
      { kind: 'task_model', id: task.model.id },
      { kind: 'lesson', id: lessonModel.id },
      { kind: 'survey', id: surveyModel.id },
      { kind: 'task_model', id: unpublished.id },
    ])
    expect((await putRoom(k.roomA.id, k.roomA.name, { track_id: t.id })).status).toBe(200)

    // a delivers the task and opens the lesson; b answers the survey; c opens the lesson through room B.
    const o = await opened(k.a.token, task.task.id)
    const single = task.byType('single')
    const d = await deliver(k.a.token, task.task.id, {
      answer_id: answerId(),
      receipt: o.receipt,
      answers: { [single.id]: { option: (single.options as { id: string }[])[0].id } },
    })
    expect(d.status, await d.clone().text()).toBeLessThan(300)
    // b opened the task but only keeps a draft: not completed.
    await opened(k.b.token, task.task.id)
    expect((await api(DEMO, `lesson/student/${lessonId}`, { token: k.a.token })).status).toBe(200)
    expect((await api(DEMO, `lesson/student/${lessonId}`, { token: k.a.token })).status).toBe(200)
    const answered = await api(DEMO, `survey/student/${surveyId}/answer`, { method: 'POST', token: k.b.token, json: { answers: { q1: 0 } } })
    expect(answered.status, await answered.clone().text()).toBe(201)
    expect((await api(DEMO, `lesson/student/${lessonId}`, { token: k.c.token })).status).toBe(200)

    const res = await api(DEMO, `achievement/track/${t.id}/progress?room=${k.roomA.id}`, { token: staff.token })
    expect(res.status, await res.clone().text()).toBe(200)
    const p = (await res.json()) as Progress
    expect(p.rooms.map((r) => r.id)).toEqual([k.roomA.id])
    expect(p.items.map(({ pos, kind, published, open_id, completed }) => ({ pos, kind, published, open_id, completed }))).toEqual([
      { pos: 0, kind: 'task_model', published: 1, open_id: task.task.id, completed: 1 },
      { pos: 1, kind: 'lesson', published: 1, open_id: lessonId, completed: 1 },
      { pos: 2, kind: 'survey', published: 1, open_id: surveyId, completed: 1 },
      { pos: 3, kind: 'task_model', published: 0, open_id: null, completed: 0 },
    ])
    expect(p.items[3].title).toBe('Ainda não publicada')
    // Without a room: the rooms only. A room not following the track: refused.
    expect(((await (await api(DEMO, `achievement/track/${t.id}/progress`, { token: staff.token })).json()) as Progress).items).toEqual([])
    await expectEnvelope(await api(DEMO, `achievement/track/${t.id}/progress?room=${k.roomB.id}`, { token: staff.token }), 422, 'not_found')
    await expectEnvelope(await api(DEMO, `achievement/track/${t.id}/progress?room=bad%20id`, { token: staff.token }), 400)

    // The student: a's room A follows the track (task and lesson done, survey available, the last not yet);
    // b sees the survey done; c (room B, following no track) sees none, even though the lesson reached them.
    const mine = async (token: string) => ((await (await api(DEMO, 'achievement/track/mine', { token })).json()) as Mine).items
    const forA = await mine(k.a.token)
    expect(forA.map((x) => ({ room: x.room_id, track: x.track_id }))).toEqual([{ room: k.roomA.id, track: t.id }])
    expect(forA[0].items.map((i) => [i.completed, i.open_id])).toEqual([
      [1, task.task.id],
      [1, lessonId],
      [0, surveyId],
      [0, null],
    ])
    expect((await mine(k.b.token))[0].items.map((i) => i.completed)).toEqual([0, 0, 1, 0])
    expect(await mine(k.c.token)).toEqual([])
    // Room B follows another track: only c sees it.
    const other = await track([{ kind: 'survey', id: surveyModel.id }])
    expect((await putRoom(k.roomB.id, k.roomB.name, { track_id: other.id })).status).toBe(200)
    expect((await mine(k.c.token)).map((x) => [x.track_id, x.items.map((i) => i.open_id)])).toEqual([[other.id, [null]]])
    expect((await mine(k.a.token)).map((x) => x.track_id)).toEqual([t.id])
    expect((await putRoom(k.roomB.id, k.roomB.name, { track_id: null })).status).toBe(200)
  })

  it('needs the track read permission (403) and keeps other realms out (404)', async () => {
    const t = await track([])
    const nobody = await userWith('demo', ['achievement_track_list'])
    await expectEnvelope(await api(DEMO, `achievement/track/${t.id}/progress`, { token: nobody.token }), 403)
    const escolaAdmin = await userWith('escola', TRACK)
    await expectEnvelope(await api(ESCOLA, `achievement/track/${t.id}/progress`, { token: escolaAdmin.token }), 404, 'not_found')
    const reader = await userWith('demo', ['achievement_track_get'])
    expect((await api(DEMO, `achievement/track/${t.id}/progress`, { token: reader.token })).status).toBe(200)
  })
})
