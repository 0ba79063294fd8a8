import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { BankItem } from '#shared/schemas/tms/bank'
import { validQuestion } from '../support/tms-fixtures'
import { bankQuestion, room as newRoom, taskCategory, user } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'

const BANK = [
  'dashboard_dashboard_access',
  'tms_question_bank_list',
  'tms_question_bank_get',
  'tms_question_bank_create',
  'tms_question_bank_edit',
  'tms_question_bank_delete',
]
const TAXONOMY = [
  'dashboard_dashboard_access',
  ...['category', 'assessed_skill', 'genre'].flatMap((r) => ['list', 'get', 'create', 'edit', 'delete'].map((a) => `tms_${r}_${a}`)),
  'tms_model_create',
]
const ROOMS = [
  'dashboard_dashboard_access',
  ...['list', 'get', 'create', 'edit', 'delete'].map((a) => `room_room_${a}`),
  'tms_model_create',
  'tms_task_publish',
]
const uniq = (p: string) => `${p} ${crypto.randomUUID().slice(0, 6)}`
type Page<T> = { items: T[]; total: number }

describe('question bank (/tms/question_bank)', () => {
  it('creates with defaults (type text, difficulty easy, score 0) and searches by every classification field', async () => {
    const { token } = await userWith('demo', BANK)
    const batch = uniq('batch').replace(' ', '-')
    const res = await api(DEMO, 'tms/question_bank', {
      method: 'POST',
      token,
      json: { statement: '<p>What is a fraction?</p>', options: { min_text_count: 5, max_text_count: 100 }, batch_id: batch },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    expect(await res.json()).toMatchObject({
      type: 'text',
      difficulty: 'easy',
      score: 0,
      grade_id: null,
      batch_id: batch,
      statement_text: 'What is a fraction?',
    })
    const category = await taskCategory('demo')
    const full = {
      ...validQuestion('single'),
      difficulty: 'hard',
      grade_id: 11,
      subject_id: 'MAT',
      standard_id: 'EM13',
      descriptor_id: 'D7',
      tags: ['geometry'],
      categories: [category.id],
      curriculum: 'BNCC',
      batch_id: batch,
    }
    const created = (await (await api(DEMO, 'tms/question_bank', { method: 'POST', token, json: full })).json()) as BankItem
    const find = async (q: string) =>
      ((await (await api(DEMO, `tms/question_bank?batch_id=${batch}&${q}`, { token })).json()) as Page<BankItem>).items.map((i) => i.id)
    for (const q of [
      'grade_id=11',
      'subject_id=MAT',
      'standard_id=EM13',
      'descriptor_id=D7',
      'type=single',
      'difficulty=hard',
      'tag=Geometry',
      `category=${category.id}`,
      'curriculum=BNCC',
      'like=prime',
    ]) {
      expect(await find(q), q).toEqual([created.id])
    }
    expect((await find('difficulty=easy')).length).toBe(1)
  })

  it('refuses an incomplete topic field by field, and updates the type with its options', async () => {
    const { token } = await userWith('demo', BANK)
    const res = await expectEnvelope(
      await api(DEMO, 'tms/question_bank', { method: 'POST', token, json: { ...validQuestion('text'), grade_id: 5, subject_id: 'MAT' } }),
      400,
    )
    expect(res.errors.map((e) => [e.field, e.message]).sort()).toEqual([
      ['descriptor_id', 'validation.tms.topic_incomplete'],
      ['standard_id', 'validation.tms.topic_incomplete'],
    ])
    const item = (await (await api(DEMO, 'tms/question_bank', { method: 'POST', token, json: validQuestion('text') })).json()) as BankItem
    const put = await api(DEMO, `tms/question_bank/${item.id}`, { method: 'PUT', token, json: { ...validQuestion('multi'), difficulty: 'medium' } })
    expect(await put.json()).toMatchObject({
      type: 'multi',
      difficulty: 'medium',
      options: [expect.objectContaining({ answer: true }), expect.anything(), expect.anything()],
    })
    expect((await api(DEMO, `tms/question_bank/${item.id}`, { method: 'DELETE', token })).status).toBe(204)
  })

  it('classifies a batch by type with a complete topic; at least one type is needed', async () => {
    const { token } = await userWith('demo', BANK)
    const batch = uniq('cls').replace(' ', '-')
    const ids: string[] = []
    for (const type of ['single', 'text', 'text'] as const)
      ids.push(
        ((await (await api(DEMO, 'tms/question_bank', { method: 'POST', token, json: { ...validQuestion(type), batch_id: batch } })).json()) as BankItem).id,
      )
    await expectEnvelope(
      await api(DEMO, 'tms/question_bank/classify', {
        method: 'POST',
        token,
        json: { types: [], batch_id: batch, grade_id: 9, subject_id: 'MAT', standard_id: 'S', descriptor_id: 'D' },
      }),
      400,
      'min_length',
    )
    await expectEnvelope(
      await api(DEMO, 'tms/question_bank/classify', {
        method: 'POST',
        token,
        json: { types: ['text'], batch_id: batch, grade_id: 9, subject_id: 'MAT', standard_id: '', descriptor_id: 'D' },
      }),
      400,
    )
    const res = await api(DEMO, 'tms/question_bank/classify', {
      method: 'POST',
      token,
      json: { types: ['text'], batch_id: batch, grade_id: 9, subject_id: 'MAT', standard_id: 'S', descriptor_id: 'D' },
    })
    expect(await res.json()).toMatchObject({ updated: 2 })
    const items = ((await (await api(DEMO, `tms/question_bank?batch_id=${batch}&limit=10`, { token })).json()) as Page<BankItem>).items
    expect(items.filter((i) => i.grade_id === 9).map((i) => i.type)).toEqual(['text', 'text'])
    const audit = await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'classify' AND entity_id IN (?, ?, ?)`)
      .bind(...ids)
      .first<{ n: number }>()
    expect(audit?.n).toBe(2)
  })
})

describe('categories, assessed skills and genres', () => {
  it('creates a category group and values; refuses duplicates, depth and removing what is in use', async () => {
    const { token } = await userWith('demo', TAXONOMY)
    const group = (await (
      await api(DEMO, 'tms/category', { method: 'POST', token, json: { name: uniq('Level'), required: false, multi_selection: false, selectable: false } })
    ).json()) as { id: string; name: string }
    const value = await api(DEMO, 'tms/category', { method: 'POST', token, json: { name: 'Basic', parent_id: group.id } })
    expect(value.status).toBe(201)
    const basic = (await value.json()) as { id: string }
    await expectEnvelope(await api(DEMO, 'tms/category', { method: 'POST', token, json: { name: 'basic', parent_id: group.id } }), 409, 'conflict')
    await expectEnvelope(await api(DEMO, 'tms/category', { method: 'POST', token, json: { name: 'Deep', parent_id: basic.id } }), 422, 'category_depth')
    await expectEnvelope(await api(DEMO, `tms/category/${group.id}`, { method: 'DELETE', token }), 409, 'in_use')
    await api(DEMO, 'tms/model', { method: 'POST', token, json: { title: 'Uses Basic', categories: [basic.id] } })
    const inUse = await expectEnvelope(await api(DEMO, `tms/category/${basic.id}`, { method: 'DELETE', token }), 409, 'in_use')
    expect(inUse.errors[0]).toMatchObject({ message: 'tms.category.in_use', value: 1 })
    const list = (await (await api(DEMO, `tms/category?parent_id=${group.id}`, { token })).json()) as Page<{ name: string }>
    expect(list.items.map((c) => c.name)).toEqual(['Basic'])
  })

  it('keeps skills inside groups and genres with max words above min', async () => {
    const { token } = await userWith('demo', TAXONOMY)
    const group = (await (await api(DEMO, 'tms/assessed_skill', { method: 'POST', token, json: { name: uniq('Group'), type: 'group' } })).json()) as {
      id: string
    }
    const skill = await api(DEMO, 'tms/assessed_skill', { method: 'POST', token, json: { name: 'Cohesion', type: 'skill', weight: 2.5, group_id: group.id } })
    expect(await skill.json()).toMatchObject({ type: 'skill', weight: 2.5, group_id: group.id })
    const skillId = (
      (await (await api(DEMO, 'tms/assessed_skill', { method: 'POST', token, json: { name: 'Other', group_id: group.id } })).json()) as { id: string }
    ).id
    await expectEnvelope(await api(DEMO, 'tms/assessed_skill', { method: 'POST', token, json: { name: 'Bad', group_id: skillId } }), 422, 'unknown_skill')
    await expectEnvelope(
      await api(DEMO, 'tms/assessed_skill', { method: 'POST', token, json: { name: 'Nested group', type: 'group', group_id: group.id } }),
      400,
    )
    await expectEnvelope(
      await api(DEMO, `tms/assessed_skill/${group.id}`, { method: 'PUT', token, json: { name: 'Now a skill', type: 'skill' } }),
      422,
      'group_has_skills',
    )
    const genre = await expectEnvelope(await api(DEMO, 'tms/genre', { method: 'POST', token, json: { name: 'Poem', min_words: 50, max_words: 20 } }), 400)
    expect(genre.errors[0]).toMatchObject({ field: 'max_words', message: 'validation.tms.words_order' })
    const ok = await api(DEMO, 'tms/genre', { method: 'POST', token, json: { name: uniq('Chronicle'), min_words: 80, max_words: 250 } })
    expect(await ok.clone().json()).toMatchObject({ min_words: 80, max_words: 250 })
    const chronicle = (await ok.json()) as { id: string }
    const essay = validQuestion('essay')
    await bankQuestion('demo', { ...essay, options: { ...(essay.options as object), genre: chronicle.id } })
    await expectEnvelope(await api(DEMO, `tms/genre/${chronicle.id}`, { method: 'DELETE', token }), 409, 'in_use')
  })
})

describe('rooms, members and groups (/room/room, /room/group)', () => {
  it('creates a room, adds and removes members, groups rooms, and refuses removing a room in use', async () => {
    const { token } = await userWith('demo', ROOMS)
    const student = await user('demo', { name: 'Ana Costa', roles: ['student'] })
    const other = await newRoom('demo')
    const name = uniq('Room')
    const created = await api(DEMO, 'room/room', {
      method: 'POST',
      token,
      json: { name, topic: 'Physics', type: 'meeting', enable_at: '2030-01-01T10:00:00Z', disable_at: '2030-06-01T10:00:00Z' },
    })
    expect(created.status).toBe(201)
    const room = (await created.json()) as { id: string; member_count: number }
    expect(room.member_count).toBe(0)
    await expectEnvelope(await api(DEMO, 'room/room', { method: 'POST', token, json: { name } }), 409, 'conflict')
    await expectEnvelope(
      await api(DEMO, 'room/room', {
        method: 'POST',
        token,
        json: { name: uniq('Bad'), enable_at: '2030-06-01T10:00:00Z', disable_at: '2030-01-01T10:00:00Z' },
      }),
      400,
    )
    expect((await api(DEMO, `room/room/${room.id}/member`, { method: 'POST', token, json: { nick: student.login } })).status).toBe(201)
    await expectEnvelope(await api(DEMO, `room/room/${room.id}/member`, { method: 'POST', token, json: { nick: student.nick } }), 409, 'conflict')
    await expectEnvelope(await api(DEMO, `room/room/${room.id}/member`, { method: 'POST', token, json: { nick: 'nobody' } }), 422, 'unknown_user')
    const members = (await (await api(DEMO, `room/room/${room.id}/member`, { token })).json()) as Page<{ nick: string; name: string }>
    expect(members.items).toEqual([expect.objectContaining({ nick: student.nick, name: 'Ana Costa' })])
    expect(((await (await api(DEMO, `room/room/${room.id}`, { token })).json()) as { member_count: number }).member_count).toBe(1)

    const group = await api(DEMO, 'room/group', { method: 'POST', token, json: { name: uniq('Group'), rooms: [room.id, other.id] } })
    expect(group.status).toBe(201)
    await expectEnvelope(await api(DEMO, 'room/group', { method: 'POST', token, json: { name: uniq('Group'), rooms: ['nope'] } }), 422, 'unknown_room')
    await expectEnvelope(await api(DEMO, `room/room/${room.id}`, { method: 'DELETE', token }), 409, 'in_use')
    expect((await api(DEMO, `room/group/${((await group.json()) as { id: string }).id}`, { method: 'DELETE', token })).status).toBe(204)
    expect((await api(DEMO, `room/room/${room.id}/member/${student.nick}`, { method: 'DELETE', token })).status).toBe(204)
    expect((await api(DEMO, `room/room/${room.id}`, { method: 'DELETE', token })).status).toBe(204)
  })
})
