/** Goals, objectives, awards and tracks (issue 19): the §5 rules, §4 blocked changes, periods, progress and awards. */
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { periodOf, periodStart, type Goal } from '#shared/schemas/achievement'
import { objectiveProgress, publishDuePeriods } from '../../worker/db/achievement'
import { answerId, classroom, deliver, opened, publishedTask, TEACHER } from './answer-helpers'
import { room, roomGroup, taskCategory } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

const GOALS = ['achievement_goal_list', 'achievement_goal_get', 'achievement_goal_create', 'achievement_goal_edit', 'achievement_goal_delete']
const OBJECTIVES = [
  'achievement_objective_list',
  'achievement_objective_get',
  'achievement_objective_create',
  'achievement_objective_edit',
  'achievement_objective_delete',
]
const today = () => new Date().toISOString().slice(0, 10)
const plusDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)

let k: Awaited<ReturnType<typeof classroom>>
let admin: { token: string; nick: string }
beforeAll(async () => {
  k = await classroom()
  admin = await userWith('demo', [...GOALS, ...OBJECTIVES, ...TEACHER])
})

async function objective(json: Record<string, unknown> = {}) {
  const res = await api(DEMO, 'achievement/objective', {
    method: 'POST',
    token: admin.token,
    json: { title: `Objetivo ${crypto.randomUUID().slice(0, 6)}`, entity: 'tasks', criteria: 'all', unit: 'score', percent: 0.5, ...json },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string }
}

const goalBody = (objectiveId: string, extra: Record<string, unknown> = {}) => ({
  title: `Meta ${crypto.randomUUID().slice(0, 6)}`,
  objective_ids: [objectiveId],
  awards: [{ title: 'Estrela', description: 'Metade das notas', kind: 'product', progress: [{ objective_id: objectiveId, min: 1, max: 1 }] }],
  ...extra,
})

async function model(objectiveId: string, extra: Record<string, unknown> = {}) {
  const res = await api(DEMO, 'achievement/goal', { method: 'POST', token: admin.token, json: goalBody(objectiveId, extra) })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Goal
}

const publish = (id: string, json: Record<string, unknown>, token = admin.token) => api(DEMO, `achievement/goal/${id}/publish`, { method: 'POST', token, json })

describe('goal models (seed 001 §5 "Goals")', () => {
  it('creates a model with its objective and award, type model and weekly period by default; the get answers the awards', async () => {
    const o = await objective()
    const g = await model(o.id)
    expect(g).toMatchObject({ type: 'model', period: 'weekly', recurrent: false, objective_ids: [o.id], published_count: 0 })
    expect(g.awards).toHaveLength(1)
    expect(g.awards[0]).toMatchObject({ title: 'Estrela', kind: 'product', progress: [{ objective_id: o.id, min: 1, max: 1 }] })
    const list = (await (await api(DEMO, 'achievement/goal?type=model', { token: admin.token })).json()) as { items: Goal[] }
    expect(list.items.map((x) => x.id)).toContain(g.id)
  })

  it('refuses without a title, objective or award, with a bad period, an award without progress or min above max (422, nothing stored)', async () => {
    const o = await objective()
    const before = (await env.DB.prepare('SELECT COUNT(*) AS n FROM achievement_goal').first<{ n: number }>())!.n
    const bad: [Record<string, unknown>, string][] = [
      [{ ...goalBody(o.id), title: '' }, 'title'],
      [{ ...goalBody(o.id), objective_ids: [] }, 'objective_ids'],
      [{ ...goalBody(o.id), awards: [] }, 'awards'],
      [{ ...goalBody(o.id), period: 'daily' }, 'period'],
      [{ ...goalBody(o.id), awards: [{ title: 'Estrela', description: 'x', progress: [] }] }, 'awards.0.progress'],
      [
        { ...goalBody(o.id), awards: [{ title: 'Estrela', description: 'x', progress: [{ objective_id: o.id, min: 0.8, max: 0.5 }] }] },
        'awards.0.progress.0.max',
      ],
      [{ ...goalBody(o.id), awards: [{ title: 'Estrela', description: '', progress: [{ objective_id: o.id, min: 0, max: 1 }] }] }, 'awards.0.description'],
    ]
    for (const [json, field] of bad) {
      const env422 = await expectEnvelope(await api(DEMO, 'achievement/goal', { method: 'POST', token: admin.token, json }), 400)
      expect(
        env422.errors.map((e) => e.field),
        JSON.stringify(json),
      ).toContain(field)
    }
    // Rules reading other rows: an unknown objective, an award's objective not in the goal, a kind the realm does not allow.
    await expectEnvelope(
      await api(DEMO, 'achievement/goal', { method: 'POST', token: admin.token, json: goalBody('no-such-objective') }),
      422,
      'unknown_objective',
    )
    const other = await objective()
    await expectEnvelope(
      await api(DEMO, 'achievement/goal', {
        method: 'POST',
        token: admin.token,
        json: { ...goalBody(o.id), awards: [{ title: 'Estrela', description: 'x', progress: [{ objective_id: other.id, min: 0, max: 1 }] }] },
      }),
      422,
      'award_objective_not_in_goal',
    )
    await expectEnvelope(
      await api(DEMO, 'achievement/goal', {
        method: 'POST',
        token: admin.token,
        json: { ...goalBody(o.id), awards: [{ ...goalBody(o.id).awards[0], kind: 'spaceship' }] },
      }),
      422,
      'award_kind_not_allowed',
    )
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM achievement_goal').first<{ n: number }>())!.n).toBe(before)
  })

  it('publishes to rooms and groups with dates not in the past; the model and its objective are then blocked (§4, §8)', async () => {
    const o = await objective()
    const g = await model(o.id)
    const group = await roomGroup('demo', [k.roomB.id])
    await expectEnvelope(
      await publish(g.id, { start_date: plusDays(-1), end_date: plusDays(5), targets: [{ kind: 'room', id: k.roomA.id }] }),
      422,
      'date_in_past',
    )
    await expectEnvelope(await publish(g.id, { start_date: today(), end_date: plusDays(5), targets: [] }), 400)
    await expectEnvelope(await publish(g.id, { start_date: plusDays(3), end_date: plusDays(1), targets: [{ kind: 'room', id: k.roomA.id }] }), 400)
    await expectEnvelope(
      await publish(g.id, { start_date: today(), end_date: plusDays(5), targets: [{ kind: 'room', id: 'no-such-room' }] }),
      422,
      'unknown_target',
    )
    const res = await publish(g.id, {
      start_date: today(),
      end_date: plusDays(5),
      targets: [
        { kind: 'room', id: k.roomA.id },
        { kind: 'group', id: group.id },
      ],
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const published = (await res.json()) as Goal
    expect(published).toMatchObject({ type: 'goal', model_id: g.id, shown_status: 'active', objective_ids: [o.id] })
    expect(published.awards[0].id).not.toBe(g.awards[0].id)
    // Blocked: the model (update, delete), the objective (update, delete), the published goal (but its status).
    await expectEnvelope(await api(DEMO, `achievement/goal/${g.id}`, { method: 'PUT', token: admin.token, json: goalBody(o.id) }), 409, 'goal_blocked')
    await expectEnvelope(await api(DEMO, `achievement/goal/${g.id}`, { method: 'DELETE', token: admin.token }), 409, 'goal_blocked')
    await expectEnvelope(
      await api(DEMO, `achievement/objective/${o.id}`, { method: 'PUT', token: admin.token, json: { title: 'Mudou' } }),
      409,
      'objective_blocked',
    )
    await expectEnvelope(await api(DEMO, `achievement/objective/${o.id}`, { method: 'DELETE', token: admin.token }), 409, 'in_use')
    await expectEnvelope(
      await api(DEMO, `achievement/goal/${published.id}`, { method: 'PUT', token: admin.token, json: goalBody(o.id) }),
      409,
      'goal_published',
    )
    const off = await api(DEMO, `achievement/goal/${published.id}/status`, { method: 'PUT', token: admin.token, json: { status: 'canceled' } })
    expect(off.status).toBe(200)
    expect(((await off.json()) as Goal).shown_status).toBe('canceled')
    const list = (await (await api(DEMO, 'achievement/goal?type=goal', { token: admin.token })).json()) as { items: (Goal & { published_count: number })[] }
    expect(list.items.find((x) => x.id === published.id)?.shown_status).toBe('canceled')
  })

  it('lets an unpublished model be updated (awards keep their ids) and removed, and an unused objective too', async () => {
    const o = await objective()
    const g = await model(o.id)
    const res = await api(DEMO, `achievement/goal/${g.id}`, {
      method: 'PUT',
      token: admin.token,
      json: goalBody(o.id, { title: 'Mudou', awards: [{ ...g.awards[0], title: 'Estrela dourada' }], recurrent: true, period: 'monthly' }),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const after = (await res.json()) as Goal
    expect(after).toMatchObject({ title: 'Mudou', recurrent: true, period: 'monthly' })
    expect(after.awards.map((a) => [a.id, a.title])).toEqual([[g.awards[0].id, 'Estrela dourada']])
    // A model has no status of its own to change; a bad status is the envelope.
    await expectEnvelope(
      await api(DEMO, `achievement/goal/${g.id}/status`, { method: 'PUT', token: admin.token, json: { status: 'canceled' } }),
      422,
      'goal_not_published',
    )
    await expectEnvelope(await api(DEMO, `achievement/goal/${g.id}/status`, { method: 'PUT', token: admin.token, json: { status: 'finished' } }), 400)
    expect((await api(DEMO, `achievement/goal/${g.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204)
    expect((await api(DEMO, `achievement/objective/${o.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204)
  })

  it('is scoped to the realm and behind the achievement_goal permissions', async () => {
    const o = await objective()
    const g = await model(o.id)
    const stranger = await userWith('escola', GOALS)
    expect((await api(ESCOLA, `achievement/goal/${g.id}`, { token: stranger.token })).status).toBe(404)
    expect((await api(ESCOLA, `achievement/goal/${g.id}/grants`, { token: stranger.token })).status).toBe(404)
    await expectEnvelope(
      await api(ESCOLA, `achievement/goal/${g.id}/publish`, {
        method: 'POST',
        token: stranger.token,
        json: { start_date: today(), end_date: plusDays(1), targets: [{ kind: 'room', id: k.roomA.id }] },
      }),
      404,
    )
    // An objective of another realm is unknown here.
    await expectEnvelope(await api(ESCOLA, 'achievement/goal', { method: 'POST', token: stranger.token, json: goalBody(o.id) }), 422, 'unknown_objective')
    const reader = await userWith('demo', ['achievement_goal_list'])
    expect((await api(DEMO, 'achievement/goal', { token: reader.token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, 'achievement/goal', { method: 'POST', token: reader.token, json: goalBody(o.id) }), 403)
    await expectEnvelope(await publish(g.id, { start_date: today(), end_date: plusDays(1), targets: [{ kind: 'room', id: k.roomA.id }] }, reader.token), 403)
    await expectEnvelope(await api(DEMO, `achievement/goal/${g.id}/status`, { method: 'PUT', token: reader.token, json: { status: 'canceled' } }), 403)
    await expectEnvelope(await api(DEMO, 'achievement/options', { token: reader.token }), 403)
    await expectEnvelope(
      await api(DEMO, 'achievement/goal', { method: 'POST', token: admin.token, body: '{not json', headers: { 'content-type': 'application/json' } }),
      400,
    )
  })
})

describe('recurrence (seed 001 §4, seed 000 §9)', () => {
  it('steps periods weekly, monthly, bimonthly, biannual and yearly, the 31st falling on a short month’s last day', () => {
    expect(periodStart('2026-01-31', 'weekly', 1)).toBe('2026-02-07')
    expect(periodStart('2026-01-31', 'monthly', 1)).toBe('2026-02-28')
    expect(periodStart('2026-01-15', 'bimonthly', 2)).toBe('2026-05-15')
    expect(periodStart('2026-01-15', 'biannual', 1)).toBe('2026-07-15')
    expect(periodStart('2026-01-15', 'yearly', 1)).toBe('2027-01-15')
    const g = { start_date: '2026-01-01', end_date: '2026-12-31', recurrent: true, period: 'weekly' as const }
    expect(periodOf(g, '2026-01-09')).toEqual({ key: '2026-01-08', starts_on: '2026-01-08', ends_on: '2026-01-14' })
    expect(periodOf({ ...g, recurrent: false }, '2026-03-01')).toEqual({ key: 'once', starts_on: '2026-01-01', ends_on: '2026-12-31' })
    expect(periodOf(g, '2027-01-01')).toBeNull()
  })

  it('publishes a recurrent goal once per period even when the job runs twice', async () => {
    const o = await objective()
    const g = await model(o.id)
    const res = await publish(g.id, {
      start_date: plusDays(1),
      end_date: plusDays(60),
      recurrent: true,
      period: 'weekly',
      targets: [{ kind: 'room', id: k.roomA.id }],
    })
    const goal = (await res.json()) as Goal
    expect(goal.shown_status).toBe('planned')
    const periods = () =>
      env.DB.prepare('SELECT period_key FROM achievement_goal_period WHERE goal_id = ? ORDER BY period_key').bind(goal.id).all<{ period_key: string }>()
    expect((await periods()).results).toEqual([])
    // The scheduled job on the first day of the goal, twice; then a week later.
    await publishDuePeriods(env.DB, plusDays(1))
    await publishDuePeriods(env.DB, plusDays(1))
    expect((await periods()).results.map((p) => p.period_key)).toEqual([plusDays(1)])
    await publishDuePeriods(env.DB, plusDays(9))
    await publishDuePeriods(env.DB, plusDays(9))
    expect((await periods()).results.map((p) => p.period_key)).toEqual([plusDays(1), plusDays(8)])
    // A canceled goal publishes no more periods.
    await api(DEMO, `achievement/goal/${goal.id}/status`, { method: 'PUT', token: admin.token, json: { status: 'canceled' } })
    await publishDuePeriods(env.DB, plusDays(16))
    expect((await periods()).results).toHaveLength(2)
  })
})

describe('progress and awards from corrected answers', () => {
  it('computes an objective’s progress per entity, criteria and unit, capped at 1', () => {
    const a = (kind: string, status: string | null, score: number, max = 10) => ({
      id: crypto.randomUUID(),
      kind,
      status,
      score,
      max_score: max,
      questions: 4,
      answered: 4,
      points: score,
      points_max: max,
    })
    const acts = [a('essay', 'finished', 8), a('activity', 'finished', 4), a('activity', 'submitted', 10)]
    const o = (entity: string, criteria: string, unit: string, percent: number) => ({ id: 'o', entity, criteria, unit, percent }) as never
    expect(objectiveProgress(o('essay', 'all', 'score', 0.8), acts)).toBe(1)
    expect(objectiveProgress(o('tasks', 'all', 'score', 1), acts)).toBe(0.4)
    expect(objectiveProgress(o('tasks', 'at_least_one', 'score', 1), acts)).toBe(0.8)
    expect(objectiveProgress(o('tasks', 'all', 'quantity', 1), acts)).toBeCloseTo(0.6667, 3)
    expect(objectiveProgress(o('exam', 'all', 'score', 1), acts)).toBe(0)
    expect(objectiveProgress(o('questions', 'all', 'score', 0.5), acts)).toBe(1)
    // Finalized, waiting only for the student's opinion on the AI comment: corrected (its score is final).
    expect(objectiveProgress(o('tasks', 'all', 'quantity', 1), [a('activity', 'pending_agreement', 5), a('activity', 'review', 5)])).toBe(0.5)
    // Questions in score units: the share of points of the in-category questions (here 3 of 4), not the task's score.
    expect(objectiveProgress(o('questions', 'at_least_one', 'score', 1), [{ ...a('activity', 'finished', 1), points: 3, points_max: 4 }])).toBe(0.75)
  })

  it('grants the award when a teacher’s correction brings the student to it; recomputing grants it once; the student and the room see it', async () => {
    // The delivery scores 3 of 9 (the single question right, the text question given 2): a third, the objective's 30%.
    const o = await objective({ entity: 'tasks', criteria: 'all', unit: 'score', percent: 0.3 })
    const g = await model(o.id)
    const goal = (await (await publish(g.id, { start_date: today(), end_date: plusDays(7), targets: [{ kind: 'room', id: k.roomA.id }] })).json()) as Goal
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o1 = await opened(k.a.token, p.task.id)
    const single = p.byType('single').options as { id: string; answer: boolean }[]
    const res = await deliver(k.a.token, p.task.id, {
      answer_id: answerId(),
      receipt: o1.receipt,
      answers: { [p.byType('single').id]: { option: single.find((x) => x.answer)!.id }, [p.byType('text').id]: { text: 'Light into sugar.' } },
    })
    const answer = (await res.json()) as { id: string }
    const mine = async () =>
      ((await (await api(DEMO, 'achievement/mine', { token: k.a.token })).json()) as { items: { title: string; goal_title: string }[] }).items
    expect(await mine()).toEqual([])
    const text = p.byType('text').id
    const done = await api(DEMO, `tms/answer/${answer.id}/correction`, {
      method: 'PUT',
      token: k.teacher.token,
      json: { action: 'finalize', scores: { [text]: 2 } },
    })
    expect(done.status, await done.clone().text()).toBe(200)
    expect((await mine()).map((x) => [x.title, x.goal_title])).toEqual([['Estrela', goal.title]])
    const progress = await env.DB.prepare('SELECT progress FROM achievement_progress WHERE goal_id = ? AND nick = ?')
      .bind(goal.id, k.a.nick)
      .first<{ progress: number }>()
    expect(progress?.progress).toBe(1)
    // Recomputing (another correction step, the job again) keeps one grant.
    const { recomputeAfterCorrection } = await import('../../worker/db/achievement')
    await recomputeAfterCorrection(env.DB, 'demo', answer.id)
    expect(await mine()).toHaveLength(1)
    // Another student of the room without a corrected answer has nothing; the teacher's view lists the room's grants.
    expect(((await (await api(DEMO, 'achievement/mine', { token: k.b.token })).json()) as { items: unknown[] }).items).toEqual([])
    const grants = (await (await api(DEMO, `achievement/goal/${goal.id}/grants`, { token: admin.token })).json()) as {
      items: { nick: string; room_id: string; award_title: string }[]
    }
    expect(grants.items).toEqual([expect.objectContaining({ nick: k.a.nick, room_id: k.roomA.id, award_title: 'Estrela' })])
    // The room outside the goal's targets: its students' corrections grant nothing.
    const other = await room('demo', { members: [k.c.nick] })
    expect(other.id).not.toBe(k.roomA.id)
  })
})

describe('goal categories filter the progress; a lowered progress keeps the award', () => {
  /** A goal model published to `roomId` from today for a week. */
  async function publishedGoal(roomId: string, extra: Record<string, unknown> & { objective_ids: string[] }) {
    const g = await model(extra.objective_ids[0], extra)
    const res = await publish(g.id, { start_date: today(), end_date: plusDays(7), targets: [{ kind: 'room', id: roomId }] })
    expect(res.status, await res.clone().text()).toBe(201)
    return (await res.json()) as Goal
  }
  const progressOf = async (goalId: string, objectiveId: string, nick: string) =>
    (
      await env.DB.prepare('SELECT progress FROM achievement_progress WHERE goal_id = ? AND objective_id = ? AND nick = ?')
        .bind(goalId, objectiveId, nick)
        .first<{ progress: number }>()
    )?.progress
  const single = (statement: string, extra: Record<string, unknown> = {}) => ({
    type: 'single',
    statement: `<p>${statement}</p>`,
    score: 1,
    options: [
      { statement: '<p>Sim</p>', answer: true },
      { statement: '<p>Não</p>', answer: false },
    ],
    ...extra,
  })
  type Stored = { id: string; type: string; options: { id: string; answer: boolean }[] }
  /** The student opens and delivers the task (`pick(question)` answers each question, undefined leaves it blank); the teacher finalizes it. */
  async function deliveredAndCorrected(
    c: { teacher: { token: string }; student: { token: string } },
    p: { task: { id: string }; model: { questions: unknown[] } },
    pick: (q: Stored) => unknown,
    scores: Record<string, number> = {},
  ) {
    const o = await opened(c.student.token, p.task.id)
    const answers = Object.fromEntries((p.model.questions as Stored[]).flatMap((q) => (pick(q) === undefined ? [] : [[q.id, pick(q)]])))
    const res = await deliver(c.student.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers })
    expect(res.status, await res.clone().text()).toBe(201)
    const answer = (await res.json()) as { id: string }
    const done = await api(DEMO, `tms/answer/${answer.id}/correction`, { method: 'PUT', token: c.teacher.token, json: { action: 'finalize', scores } })
    expect(done.status, await done.clone().text()).toBe(200)
  }
  const right = (q: Stored) => ({ option: q.options.find((x) => x.answer)!.id })
  const wrong = (q: Stored) => ({ option: q.options.find((x) => !x.answer)!.id })

  it('counts only the questions of the goal’s question categories (and their subcategories); none named counts them all', async () => {
    const c = await classroom()
    const qParent = await taskCategory('demo')
    const qa = await taskCategory('demo', { parent: qParent.id })
    const qb = await taskCategory('demo')
    const score = await objective({ entity: 'questions', criteria: 'all', unit: 'score', percent: 1 })
    const quantity = await objective({ entity: 'questions', criteria: 'all', unit: 'quantity', percent: 1 })
    const goal = (question_categories: string[]) =>
      publishedGoal(c.roomA.id, {
        objective_ids: [score.id, quantity.id],
        question_categories,
        awards: [{ title: 'Estrela', description: 'Tudo certo', kind: 'product', progress: [{ objective_id: score.id, min: 1, max: 1 }] }],
      })
    const [onlyA, underParent, onlyB, all] = [await goal([qa.id]), await goal([qParent.id]), await goal([qb.id]), await goal([])]
    // One point in qa (answered right), three in qb (the text, given 0) and one more in qb left blank.
    const p = await publishedTask(c.teacher.token, [c.roomA.id], {
      questions: [
        single('Sete é primo?', { categories: [qa.id] }),
        { type: 'text', statement: '<p>Explique.</p>', score: 3, categories: [qb.id], options: { min_text_count: 1, max_text_count: 500 } },
        single('Dois é par?', { categories: [qb.id], required: false }),
      ],
    })
    const [q1, text] = p.model.questions as Stored[]
    await deliveredAndCorrected(
      { teacher: c.teacher, student: c.a },
      p,
      (q) => (q.id === q1.id ? right(q) : q.id === text.id ? { text: 'Porque sim.' } : undefined),
      {
        [text.id]: 0,
      },
    )
    // Score: qa 1/1; qb 0/4; everything 1/5. Quantity (answered): qa 1/1; qb 1/2; everything 2/3.
    expect(await progressOf(onlyA.id, score.id, c.a.nick)).toBe(1)
    expect(await progressOf(underParent.id, score.id, c.a.nick)).toBe(1)
    expect(await progressOf(onlyB.id, score.id, c.a.nick)).toBe(0)
    expect(await progressOf(all.id, score.id, c.a.nick)).toBe(0.2)
    expect(await progressOf(onlyA.id, quantity.id, c.a.nick)).toBe(1)
    expect(await progressOf(onlyB.id, quantity.id, c.a.nick)).toBe(0.5)
    expect(await progressOf(all.id, quantity.id, c.a.nick)).toBe(0.6667)
    // Only the goals whose questions were all right granted their award.
    const mine = ((await (await api(DEMO, 'achievement/mine', { token: c.a.token })).json()) as { items: { goal_title: string }[] }).items
    expect(mine.map((x) => x.goal_title).sort()).toEqual([onlyA.title, underParent.title].sort())
  })

  it('counts only the tasks of the goal’s activity categories (and their subcategories); none named counts them all', async () => {
    const c = await classroom()
    const ca = await taskCategory('demo')
    const sub = await taskCategory('demo', { parent: ca.id })
    const [other, cb] = [await taskCategory('demo'), await taskCategory('demo')]
    const done = await objective({ entity: 'tasks', criteria: 'all', unit: 'quantity', percent: 1 })
    const goal = (activity_categories: string[]) => publishedGoal(c.roomA.id, { objective_ids: [done.id], activity_categories })
    const [underA, onlyB, all] = [await goal([ca.id]), await goal([cb.id]), await goal([])]
    const first = await publishedTask(c.teacher.token, [c.roomA.id], { questions: [single('Sete é primo?')] }, { categories: [sub.id, other.id] })
    await publishedTask(c.teacher.token, [c.roomA.id], { questions: [single('Dois é par?')] }, { categories: [cb.id] })
    // The first task corrected, the second not yet: under ca (through its subcategory) 1/1, under cb 0/1, everything 1/2.
    await deliveredAndCorrected({ teacher: c.teacher, student: c.a }, first, right)
    expect(await progressOf(underA.id, done.id, c.a.nick)).toBe(1)
    expect(await progressOf(onlyB.id, done.id, c.a.nick)).toBe(0)
    expect(await progressOf(all.id, done.id, c.a.nick)).toBe(0.5)
  })

  it('keeps an award when a later correction lowers the progress; the student and the room show the current progress', async () => {
    const c = await classroom()
    const o = await objective({ entity: 'tasks', criteria: 'all', unit: 'score', percent: 1 })
    const goal = await publishedGoal(c.roomA.id, { objective_ids: [o.id] })
    type Shown = { progress: { objective_id: string; progress: number; min: number; max: number }[]; held: boolean }
    const mine = async () => ((await (await api(DEMO, 'achievement/mine', { token: c.a.token })).json()) as { items: (Shown & { goal_title: string })[] }).items
    const grants = async () =>
      ((await (await api(DEMO, `achievement/goal/${goal.id}/grants`, { token: admin.token })).json()) as { items: (Shown & { nick: string })[] }).items
    const first = await publishedTask(c.teacher.token, [c.roomA.id], { questions: [single('Sete é primo?')] })
    await deliveredAndCorrected({ teacher: c.teacher, student: c.a }, first, right)
    expect(await progressOf(goal.id, o.id, c.a.nick)).toBe(1)
    expect(await mine()).toEqual([
      expect.objectContaining({ goal_title: goal.title, held: true, progress: [expect.objectContaining({ objective_id: o.id, progress: 1 })] }),
    ])
    // A second task of the period, answered wrong: the mean score falls to a half, out of the award's band (100%).
    const second = await publishedTask(c.teacher.token, [c.roomA.id], { questions: [single('Oito é primo?')] })
    await deliveredAndCorrected({ teacher: c.teacher, student: c.a }, second, wrong)
    expect(await progressOf(goal.id, o.id, c.a.nick)).toBe(0.5)
    const kept = [expect.objectContaining({ held: false, progress: [{ objective_id: o.id, objective: expect.any(String), progress: 0.5, min: 1, max: 1 }] })]
    expect(await mine()).toEqual(kept)
    expect(await grants()).toEqual(kept)
    expect((await grants())[0].nick).toBe(c.a.nick)
  })
})

describe('tracks', () => {
  it('stores ordered items of the realm’s task models, lessons and survey models, and offers the survey models', async () => {
    const author = await userWith('demo', ['achievement_track_create', 'achievement_track_get', 'achievement_track_list', 'tms_model_create'])
    const m = await api(DEMO, 'tms/model', { method: 'POST', token: admin.token, json: { title: 'Leitura 1', questions: [] } })
    const modelId = ((await m.json()) as { id: string }).id
    const res = await api(DEMO, 'achievement/track', {
      method: 'POST',
      token: author.token,
      json: { title: 'Trilha', items: [{ kind: 'task_model', id: modelId }] },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    expect(await res.json()).toMatchObject({ type: 'track', is_public: false, items: [{ kind: 'task_model', id: modelId }] })
    const survey = await api(DEMO, 'achievement/track', {
      method: 'POST',
      token: author.token,
      json: { title: 'Trilha', items: [{ kind: 'survey', id: 'no-such-survey' }] },
    })
    await expectEnvelope(survey, 422, 'unknown_item')
    const options = (await (await api(DEMO, 'achievement/options', { token: author.token })).json()) as { survey_models: { id: string; title: string }[] }
    expect(options.survey_models.map((s) => s.id)).toContain('sm-demo-term')
    const withSurvey = await api(DEMO, 'achievement/track', {
      method: 'POST',
      token: author.token,
      json: {
        title: 'Trilha com pesquisa',
        items: [
          { kind: 'task_model', id: modelId },
          { kind: 'survey', id: 'sm-demo-term' },
        ],
      },
    })
    expect(withSurvey.status, await withSurvey.clone().text()).toBe(201)
    expect(await withSurvey.json()).toMatchObject({
      items: [
        { kind: 'task_model', id: modelId },
        { kind: 'survey', id: 'sm-demo-term' },
      ],
    })
  })
})
