import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Model } from '#shared/schemas/tms/model'
import type { Task } from '#shared/schemas/tms/task'
import { validQuestion } from '../support/tms-fixtures'
import { room, roomGroup, taskCategory, taskCategoryGroup, user } from './factories'
import { DEMO, ESCOLA, api, call, expectEnvelope, userWith } from './helpers'

const PUBLISHER = [
  'dashboard_dashboard_access',
  'tms_model_create',
  'tms_model_get',
  'tms_task_publish',
  'tms_task_get',
  'tms_task_edit',
  'tms_task_delete',
  'tms_task_list_others',
]
/**
 * What the publications below target, made for this file: a category under demo's required root, two values of a
 * group the realm does not require (terms), two rooms (A with a student and a teacher, B with the student), a group
 * of both, and a user in no room.
 */
const made = {} as {
  math: { id: string; parent: string }
  term1: string
  term2: string
  student: string
  teacher: string
  outsider: string
  roomA: { id: string; name: string }
  roomB: { id: string; name: string }
  group: { id: string; name: string }
}
beforeAll(async () => {
  made.math = await taskCategory('demo')
  const terms = await taskCategoryGroup('demo')
  made.term1 = (await taskCategory('demo', { parent: terms.id })).id
  made.term2 = (await taskCategory('demo', { parent: terms.id })).id
  made.student = (await user('demo', { roles: ['student'] })).nick
  made.teacher = (await user('demo', { roles: ['teacher'] })).nick
  made.outsider = (await user('demo', { roles: ['manager'] })).nick
  made.roomA = await room('demo', { members: [made.student, made.teacher] })
  made.roomB = await room('demo', { members: [made.student] })
  made.group = await roomGroup('demo', [made.roomA.id, made.roomB.id])
})

const DAY = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()

async function model(token: string, extra: Record<string, unknown> = {}, host = DEMO): Promise<Model> {
  const res = await api(host, 'tms/model', {
    method: 'POST',
    token,
    json: { title: `Publish ${crypto.randomUUID().slice(0, 6)}`, questions: [validQuestion('single')], ...extra },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Model
}

const publish = (token: string, json: Record<string, unknown>, host = DEMO) =>
  api(host, 'tms/task', { method: 'POST', token, json: { rooms: [made.roomA.id], categories: [made.math.id], ...json } })

/** The single rule an otherwise valid publication breaks. */
async function refusedWith(token: string, json: Record<string, unknown>, field: string, message: string, status = 422) {
  const res = await expectEnvelope(await publish(token, json), status)
  expect(res.errors.map((e) => [e.field, e.message])).toContainEqual([field, message])
}

describe('publication (/tms/task)', () => {
  it('publishes to a room with the default deadline, as published, and lists it with its status', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token)
    const res = await publish(token, { model_id: m.id, show_timer: true })
    expect(res.status).toBe(201)
    const t = (await res.json()) as Task & { targets: { room_name: string }[] }
    expect(t).toMatchObject({
      status: 'published',
      publication_type: 'all',
      model_version: 1,
      show_timer: true,
      scheduling_enabled: true,
      rooms: made.roomA.name,
      categories: [made.math.id],
    })
    expect(Date.parse(t.expire_at) - Date.parse(t.publish_at)).toBe(3 * DAY)
    expect(t.targets.map((x) => x.room_name)).toEqual([made.roomA.name])
    const list = (await (await api(DEMO, `tms/task?model_id=${m.id}&status=published`, { token })).json()) as { items: Task[] }
    expect(list.items.map((x) => x.id)).toEqual([t.id])
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'tms_task' AND entity_id = ?").bind(t.id).all<{ action: string }>()
    expect(audit.results.map((r) => r.action)).toEqual(['publish'])
  })

  it('applies the realm’s expire offset to the default deadline', async () => {
    await env.DB.prepare("UPDATE realm SET tms_task_expire_offset_days = 2 WHERE code = 'escola'").run()
    try {
      const { token } = await userWith('escola', PUBLISHER)
      const m = await model(token, {}, ESCOLA)
      const target = await room('escola')
      const res = await api(ESCOLA, 'tms/task', { method: 'POST', token, json: { model_id: m.id, rooms: [target.id] } })
      const t = (await res.json()) as Task
      expect(Date.parse(t.expire_at) - Date.parse(t.publish_at)).toBe(5 * DAY)
    } finally {
      await env.DB.prepare("UPDATE realm SET tms_task_expire_offset_days = 0 WHERE code = 'escola'").run()
    }
  })

  it('refuses each rule of seed 001 §5 with its own message', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token, { min_execution_time: 120 })
    const now = Date.now()
    await refusedWith(token, { model_id: m.id, publish_at: iso(now + DAY), expire_at: iso(now + DAY / 2) }, 'expire_at', 'validation.tms.expire_before_publish')
    await refusedWith(token, { model_id: m.id, publish_at: iso(now - DAY), expire_at: iso(now + DAY) }, 'publish_at', 'validation.tms.publish_in_past')
    await refusedWith(
      token,
      { model_id: m.id, publish_at: iso(now + 366 * DAY), expire_at: iso(now + 367 * DAY) },
      'publish_at',
      'validation.tms.beyond_max_schedule',
    )
    await refusedWith(
      token,
      { model_id: m.id, publish_at: iso(now + DAY), expire_at: iso(now + DAY + 30 * 60_000) },
      'expire_at',
      'validation.tms.min_execution_time',
    )
    await refusedWith(token, { model_id: m.id, display_answer_at: iso(now - DAY) }, 'display_answer_at', 'validation.tms.display_answer_at_after_publish')
    await refusedWith(token, { model_id: m.id, correct_at: iso(now - DAY) }, 'correct_at', 'validation.tms.correct_at_after_publish')
    await refusedWith(token, { model_id: m.id, categories: [made.term1] }, 'categories', 'validation.tms.required_category')
    await refusedWith(token, { model_id: m.id, rooms: [] }, 'rooms', 'validation.tms.target_required', 400)
    await refusedWith(token, { model_id: m.id, publication_type: 'members', members: [] }, 'members', 'validation.tms.target_required', 400)
    await refusedWith(token, { model_id: m.id, rooms: ['nope'] }, 'rooms', 'validation.tms.unknown_room')
    await refusedWith(
      token,
      { model_id: m.id, publication_type: 'members', members: [{ room: made.roomA.id, nick: made.outsider }] },
      'members',
      'validation.tms.not_member',
    )
    await refusedWith(token, { model_id: m.id, publication_type: 'group', groups: ['nope'] }, 'groups', 'validation.tms.unknown_group')

    const empty = await model(token, { questions: [validQuestion('info'), validQuestion('section')] })
    await refusedWith(token, { model_id: empty.id }, 'model_id', 'validation.tms.no_question')
    const tokenModel = await model(token, { token: true })
    await refusedWith(
      token,
      { model_id: tokenModel.id, publication_type: 'members', members: [{ room: made.roomA.id, nick: made.student }] },
      'publication_type',
      'validation.tms.members_token',
    )
    const tasks = await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_task WHERE model_id IN (?, ?, ?)')
      .bind(m.id, empty.id, tokenModel.id)
      .first<{ n: number }>()
    expect(tasks?.n).toBe(0)
  })

  it('publishes to room members and to room groups', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token)
    const members = await publish(token, { model_id: m.id, publication_type: 'members', members: [{ room: made.roomA.id, nick: made.student }] })
    expect(members.status).toBe(201)
    expect(((await members.json()) as { targets: unknown[] }).targets).toEqual([
      expect.objectContaining({ room_id: made.roomA.id, nick: made.student, room_name: made.roomA.name }),
    ])
    const group = await publish(token, { model_id: m.id, publication_type: 'group', groups: [made.group.id] })
    expect(group.status).toBe(201)
    expect(await group.json()).toMatchObject({ publication_type: 'group', rooms: made.group.name })
    const inRoomB = (await (await api(DEMO, `tms/task?model_id=${m.id}&room=${made.roomB.id}`, { token })).json()) as { items: Task[] }
    expect(inRoomB.items.map((t) => t.publication_type)).toEqual(['group'])
  })

  it('shows scheduled, paused and expired tasks; disabling scheduling pauses', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token)
    const t = (await (await publish(token, { model_id: m.id, publish_at: iso(Date.now() + DAY), expire_at: iso(Date.now() + 4 * DAY) })).json()) as Task
    expect(t.status).toBe('scheduled')
    const paused = await api(DEMO, `tms/task/${t.id}`, { method: 'PUT', token, json: { scheduling_enabled: false } })
    expect(await paused.json()).toMatchObject({ status: 'paused', scheduling_enabled: false })
    const resumed = await api(DEMO, `tms/task/${t.id}`, { method: 'PUT', token, json: { scheduling_enabled: true, publish_at: iso(Date.now()) } })
    expect(await resumed.json()).toMatchObject({ status: 'published' })
    await env.DB.prepare('UPDATE tms_task SET publish_at = ?, expire_at = ? WHERE id = ?')
      .bind(iso(Date.now() - 3 * DAY), iso(Date.now() - DAY), t.id)
      .run()
    expect(((await (await api(DEMO, `tms/task/${t.id}`, { token })).json()) as Task).status).toBe('expired')
    const expired = (await (await api(DEMO, `tms/task?model_id=${m.id}&status=expired`, { token })).json()) as { items: Task[] }
    expect(expired.items.map((x) => x.id)).toEqual([t.id])
    // Changing an expired task's dates checks them against now again.
    await expectEnvelope(await api(DEMO, `tms/task/${t.id}`, { method: 'PUT', token, json: { expire_at: iso(Date.now() - 60_000) } }), 422, 'expire_in_past')
    // A text that is no instant is named once (not once per rule it breaks).
    for (const bad of ['31/02/2099 10:00', '2099-02-31T10:00:00Z', 'tomorrow']) {
      const body = await expectEnvelope(await api(DEMO, `tms/task/${t.id}`, { method: 'PUT', token, json: { expire_at: bad } }), 400)
      expect(body.errors.map((e) => [e.field, e.message])).toEqual([['expire_at', 'validation.date']])
    }
  })

  it('filters by category and dates, and deletes a publication with its audit record', async () => {
    const { token } = await userWith('demo', PUBLISHER)
    const m = await model(token)
    const t = (await (await publish(token, { model_id: m.id, categories: [made.math.id, made.term2] })).json()) as Task
    const today = new Date().toISOString().slice(0, 10)
    const found = (await (
      await api(DEMO, `tms/task?model_id=${m.id}&category=${made.term2}&publish_at_from=${today}&publish_at_to=${today}`, { token })
    ).json()) as { items: Task[] }
    expect(found.items.map((x) => x.id)).toEqual([t.id])
    expect(((await (await api(DEMO, `tms/task?model_id=${m.id}&category=${made.term1}`, { token })).json()) as { items: Task[] }).items).toEqual([])
    expect((await api(DEMO, `tms/task/${t.id}`, { method: 'DELETE', token })).status).toBe(204)
    await expectEnvelope(await api(DEMO, `tms/task/${t.id}`, { token }), 404)
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'tms_task' AND entity_id = ? ORDER BY id")
      .bind(t.id)
      .all<{ action: string }>()
    expect(audit.results.map((r) => r.action)).toEqual(['publish', 'delete'])
  })

  it('lists only the caller’s and their rooms’ tasks with tms_task_list_by_target alone', async () => {
    const publisher = await userWith('demo', PUBLISHER)
    const m = await model(publisher.token)
    const t = (await (await publish(publisher.token, { model_id: m.id, rooms: [made.roomB.id] })).json()) as Task
    const reader = await userWith('demo', ['dashboard_dashboard_access', 'tms_task_list_by_target'])
    const seen = async () =>
      ((await (await api(DEMO, `tms/task?model_id=${m.id}`, { token: reader.token })).json()) as { items: Task[] }).items.map((x) => x.id)
    expect(await seen()).toEqual([])
    await env.DB.prepare("INSERT INTO room_member (realm, room_id, nick, added_at) VALUES ('demo', ?, ?, ?)")
      .bind(made.roomB.id, reader.nick, iso(Date.now()))
      .run()
    expect(await seen()).toEqual([t.id])
  })

  it('answers the publication options of a model: rooms with members, groups, categories and limits', async () => {
    const author = (await userWith('demo', PUBLISHER)).token
    const fractions = await model(author, { title: `Frações ${crypto.randomUUID().slice(0, 6)}` })
    const { token } = await userWith('demo', ['dashboard_dashboard_access', 'tms_task_publish'])
    const res = await api(DEMO, `tms/task/options/${fractions.id}`, { token })
    expect(res.status).toBe(200)
    const o = (await res.json()) as {
      rooms: { name: string; members: { nick: string }[] }[]
      groups: { name: string }[]
      categories: { id: string; required: boolean }[]
      limits: object
      model: { title: string }
    }
    expect(o.model.title).toBe(fractions.title)
    expect(
      o.rooms
        .find((r) => r.name === made.roomA.name)
        ?.members.map((x) => x.nick)
        .sort(),
    ).toEqual([made.student, made.teacher].sort())
    expect(o.groups.map((g) => g.name)).toContain(made.group.name)
    // The realm's required root, under which made.math lies.
    expect(o.categories.find((c) => c.id === made.math.parent)?.required).toBe(true)
    expect(o.limits).toEqual({ defaultDeadlineDays: 3, maxScheduleDays: 365, expireOffsetDays: 0 })
  })
})

describe('extra fields of tasks', () => {
  it('offers the realm’s task fields at publication, requires the required one, and keeps the values', async () => {
    const root = (await userWith('demo', ['dashboard_dashboard_access', 'mas_extra_field_create', 'mas_extra_field_delete'])).token
    const { token, cookie } = await userWith('demo', PUBLISHER)
    const key = `bncc_${crypto.randomUUID().slice(0, 6)}`
    const created = await api(DEMO, 'mas/extra_field', { method: 'POST', token: root, json: { entity: 'task', key, label: 'Código BNCC', required: true } })
    expect(created.status, await created.clone().text()).toBe(201)
    const fieldId = ((await created.json()) as { id: string }).id
    try {
      const m = await model(token)
      const options = (await (await api(DEMO, `tms/task/options/${m.id}`, { token })).json()) as { extra: { key: string; label: string; required: boolean }[] }
      expect(options.extra).toContainEqual({ key, label: 'Código BNCC', required: true })
      const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_task WHERE model_id = ?').bind(m.id).first<{ n: number }>()
      const refused = await publish(token, { model_id: m.id })
      expect(refused.status).toBe(422)
      expect(((await refused.json()) as { errors: { field: string; cause: string }[] }).errors).toEqual([
        expect.objectContaining({ field: `extra.${key}`, cause: 'required' }),
      ])
      expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_task WHERE model_id = ?').bind(m.id).first<{ n: number }>()).toEqual(before)
      await expectEnvelope(await publish(token, { model_id: m.id, extra: { [key]: 'EF06MA07', undeclared: 'x' } }), 422, 'unknown_field')
      const res = await publish(token, { model_id: m.id, extra: { [key]: 'EF06MA07' } })
      expect(res.status, await res.clone().text()).toBe(201)
      const task = (await res.json()) as Task
      expect(task.extra).toEqual({ [key]: 'EF06MA07' })
      await expectEnvelope(await api(DEMO, `tms/task/${task.id}`, { method: 'PUT', token, json: { extra: { [key]: ' ' } } }), 422, 'required')
      const edited = await api(DEMO, `tms/task/${task.id}`, { method: 'PUT', token, json: { extra: { [key]: 'EF06MA08' } } })
      expect(edited.status).toBe(200)
      expect(((await (await api(DEMO, `tms/task/${task.id}`, { token })).json()) as Task).extra).toEqual({ [key]: 'EF06MA08' })
      // The task's page shows the value under the realm's label.
      const page = await (await call(DEMO, `/tms/task/detail/${task.id}`, { headers: { cookie } })).text()
      expect(page).toMatch(/<dt>Código BNCC<\/dt><dd>EF06MA08<\/dd>/)
    } finally {
      await api(DEMO, `mas/extra_field/${fieldId}`, { method: 'DELETE', token: root })
    }
  })
})
