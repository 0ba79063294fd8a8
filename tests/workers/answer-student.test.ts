import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { signReceipt } from '../../worker/lib/answer'
import { room } from './factories'
import { DEMO, api, expectEnvelope } from './helpers'
import { answerId, classroom, deliver, draft, expireAt, open, opened, openedAgo, publishedTask, student } from './answer-helpers'

const MIN = 60_000
let k: Awaited<ReturnType<typeof classroom>>
beforeAll(async () => {
  k = await classroom()
})

type Published = Awaited<ReturnType<typeof publishedTask>>

/** Every objective question answered right, and the text question answered. */
function rightAnswers(p: Published) {
  const opts = (type: string) => p.byType(type).options as { id: string; answer: boolean }[]
  return {
    [p.byType('single').id]: { option: opts('single').find((o) => o.answer)!.id },
    [p.byType('multi').id]: {
      options: opts('multi')
        .filter((o) => o.answer)
        .map((o) => o.id),
    },
    [p.byType('fill_words').id]: { words: ['Sun', 'east'] },
    [p.byType('order_sentences').id]: { words: ['Wake up', 'Brush teeth', 'Go to school'] },
    [p.byType('cloud').id]: { words: ['cats', 'like', 'milk'] },
    [p.byType('fill_letters').id]: { text: 'paris' },
    [p.byType('text').id]: { text: 'Plants turn light into sugar.' },
  }
}

describe('the student’s tasks (GET /tms/answer-student)', () => {
  it('lists only the tasks reaching the student, under each menu filter, with date status and deadline', async () => {
    const mine = await publishedTask(k.teacher.token, [k.roomA.id])
    const other = await publishedTask(k.teacher.token, [k.roomB.id])
    const scheduled = await publishedTask(
      k.teacher.token,
      [k.roomA.id],
      {},
      { publish_at: new Date(Date.now() + 86_400_000).toISOString(), expire_at: new Date(Date.now() + 3 * 86_400_000).toISOString() },
    )
    const s = await student()
    const r = await room('demo', { members: [s.nick] })
    const own = await publishedTask(k.teacher.token, [r.id])
    const expired = await publishedTask(k.teacher.token, [r.id])
    await expireAt(expired.task.id, Date.now() - MIN)
    const list = async (filter: string) => {
      const res = await api(DEMO, `tms/answer-student?filter=${filter}`, { token: s.token })
      expect(res.status).toBe(200)
      return (await res.json()) as { items: { id: string; status: string; expire_at: string; answer_status: string | null }[]; total: number }
    }
    const all = await list('all')
    expect(all.items.map((x) => x.id).sort()).toEqual([own.task.id, expired.task.id].sort())
    expect(all.items.find((x) => x.id === own.task.id)).toMatchObject({ status: 'published', expire_at: own.task.expire_at, answer_status: null })
    expect((await list('expired')).items.map((x) => x.id)).toEqual([expired.task.id])
    expect((await list('tasks')).items.map((x) => x.id)).toEqual([own.task.id])
    expect((await list('delivered')).items).toEqual([])
    expect((await list('class')).total).toBe(2)
    expect((await list('group')).total).toBe(0)
    // Student a sees the room A task, not room B's nor the scheduled one.
    const aList = (await (await api(DEMO, 'tms/answer-student', { token: k.a.token })).json()) as { items: { id: string }[] }
    const ids = aList.items.map((x) => x.id)
    expect(ids).toContain(mine.task.id)
    expect(ids).not.toContain(other.task.id)
    expect(ids).not.toContain(scheduled.task.id)
    await expectEnvelope(await api(DEMO, 'tms/answer-student?filter=nope', { token: s.token }), 400)
    await expectEnvelope(await api(DEMO, 'tms/answer-student'), 401)
  })

  it('follows the answer: delivered and pending filters', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.b.token, p.task.id)
    expect((await deliver(k.b.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers: rightAnswers(p) })).status).toBe(201)
    const ids = async (filter: string) =>
      ((await (await api(DEMO, `tms/answer-student?filter=${filter}&limit=100`, { token: k.b.token })).json()) as { items: { id: string }[] }).items.map(
        (x) => x.id,
      )
    expect(await ids('delivered')).toContain(p.task.id)
    expect(await ids('tasks')).not.toContain(p.task.id)
    await env.DB.prepare("UPDATE tms_answer SET status = 'pending' WHERE task_id = ?").bind(p.task.id).run()
    expect(await ids('pending')).toContain(p.task.id)
    expect(await ids('tasks')).toContain(p.task.id)
  })
})

describe('opening a task (POST /tms/answer-student/{taskId}/open)', () => {
  it('answers the questions without their keys and a signed receipt; reopening keeps the first open time', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const first = await opened(k.a.token, p.task.id)
    const text = JSON.stringify(first.questions)
    expect(text).not.toContain('"answer"')
    expect(text).not.toContain('Paris')
    expect(text).not.toContain('[[')
    expect(text).not.toContain('"sentence"')
    const single = first.questions.find((q) => q.type === 'single')!
    expect((single.options as { id: string }[]).map((o) => o.id).sort()).toEqual((p.byType('single').options as { id: string }[]).map((o) => o.id).sort())
    const fill = first.questions.find((q) => q.type === 'fill_words')!.options as { words: string[]; items: { type: string }[] }
    expect([...fill.words].sort()).toEqual(['east', 'moon', 'sun'])
    expect(fill.items.filter((i) => i.type === 'gap')).toHaveLength(2)
    expect(first.receipt).toMatch(/^[\w-]+\.[\w-]+$/)
    const again = await opened(k.a.token, p.task.id)
    expect(again.opened_at).toBe(first.opened_at)
    expect(again.receipt).toBe(first.receipt)
    // The same student sees the same order each time.
    expect(again.questions).toEqual(first.questions)
  })

  it('refuses a task that does not reach the student, an unknown one, a scheduled one and an expired one', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    await expectEnvelope(await open(k.c.token, p.task.id), 404, 'task_not_found')
    await expectEnvelope(await open(k.c.token, 'nope-nope'), 404, 'task_not_found')
    const later = await publishedTask(
      k.teacher.token,
      [k.roomA.id],
      {},
      { publish_at: new Date(Date.now() + 86_400_000).toISOString(), expire_at: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    )
    await expectEnvelope(await open(k.a.token, later.task.id), 409, 'task_not_available')
    await expireAt(p.task.id, Date.now() - MIN)
    await expectEnvelope(await open(k.a.token, p.task.id), 422, 'deadline_ended')
  })

  it('asks a token-protected task for a live code of the student’s room on the first open only', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id, k.roomB.id], { token: true })
    await expectEnvelope(await open(k.a.token, p.task.id), 403, 'token_required')
    await expectEnvelope(await open(k.a.token, p.task.id, { token: 'WRONG1' }), 403, 'token_invalid')
    const gen = async (roomName: string) => {
      const res = await api(DEMO, `tms/token/task/${p.task.id}/room/${encodeURIComponent(roomName)}`, { method: 'POST', token: k.teacher.token })
      expect(res.status, await res.clone().text()).toBe(201)
      return ((await res.json()) as { tokens: { code: string; revoked_at: string | null }[] }).tokens.find((t) => !t.revoked_at)!.code
    }
    const codeB = await gen(k.roomB.name)
    // Room B's code does not open the task for a student of room A.
    await expectEnvelope(await open(k.a.token, p.task.id, { token: codeB }), 403, 'token_invalid')
    const codeA = await gen(k.roomA.name)
    expect((await open(k.a.token, p.task.id, { token: codeA.toLowerCase() })).status).toBe(200)
    expect((await open(k.a.token, p.task.id)).status).toBe(200)
    const start = await env.DB.prepare('SELECT room_id FROM tms_answer_start WHERE task_id = ? AND nick = ?').bind(p.task.id, k.a.nick).first<string>('room_id')
    expect(start).toBe(k.roomA.id)
  })
})

describe('saving a draft and delivering', () => {
  it('needs at least one answered question, answers to the task’s questions that fit their types', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.a.token, p.task.id)
    const id = answerId()
    await expectEnvelope(await draft(k.a.token, p.task.id, { answer_id: id, receipt: o.receipt, answers: {} }), 422, 'no_answer')
    await expectEnvelope(
      await deliver(k.a.token, p.task.id, { answer_id: id, receipt: o.receipt, answers: { [p.byType('text').id]: { text: '  ' } } }),
      422,
      'no_answer',
    )
    await expectEnvelope(await draft(k.a.token, p.task.id, { answer_id: id, receipt: o.receipt, answers: { nope: { text: 'x' } } }), 422, 'unknown_question')
    await expectEnvelope(
      await draft(k.a.token, p.task.id, { answer_id: id, receipt: o.receipt, answers: { [p.byType('single').id]: { option: 'not-an-option' } } }),
      422,
      'unknown_option',
    )
    await expectEnvelope(
      await draft(k.a.token, p.task.id, { answer_id: id, receipt: o.receipt, answers: { [p.byType('fill_words').id]: { words: ['sun'] } } }),
      422,
      'gap_count',
    )
    await expectEnvelope(await draft(k.a.token, p.task.id, { answer_id: 'x', receipt: o.receipt, answers: {} }), 400)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_answer WHERE task_id = ?').bind(p.task.id).first<number>('n')).toBe(0)
    const saved = await draft(k.a.token, p.task.id, { answer_id: id, receipt: o.receipt, answers: { [p.byType('text').id]: { text: 'Light.' } } })
    expect(saved.status, await saved.clone().text()).toBe(200)
    expect(await saved.json()).toMatchObject({ status: 'draft', answer_id: id, delivered_at: null, correction: null })
    // The draft comes back with the task.
    expect((await opened(k.a.token, p.task.id)).answer).toMatchObject({ status: 'draft' })
  })

  it('holds a written answer to the question’s text counts: too long always, too short on delivery only', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id], {
      questions: [{ type: 'text', statement: '<p>Explain.</p>', score: 2, options: { min_text_count: 3, max_text_count: 5 } }],
    })
    const o = await opened(k.a.token, p.task.id)
    const id = p.byType('text').id
    const send = (fn: typeof draft, text: string) => fn(k.a.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [id]: { text } } })
    await expectEnvelope(await send(draft, 'one two three four five six'), 422, 'text_too_long')
    expect((await send(draft, 'one two')).status).toBe(200)
    await expectEnvelope(await send(deliver, 'one two'), 422, 'text_too_short')
    await expectEnvelope(await send(deliver, 'one two three four five six'), 422, 'text_too_long')
    expect((await send(deliver, ' one  two\nthree ')).status).toBe(201)
  })

  it('delivers on time with the objective questions scored from the keys (partial score for multi)', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.a.token, p.task.id)
    const answers = rightAnswers(p)
    const multi = p.byType('multi').options as { id: string; answer: boolean }[]
    // One of the two even numbers alone: (1 right − 0 wrong) ÷ 2 correct = ½ of the score 2.
    answers[p.byType('multi').id] = { options: [multi.find((x) => x.answer)!.id] }
    answers[p.byType('cloud').id] = { words: ['dogs', 'like', 'milk'] }
    const res = await deliver(k.a.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers })
    expect(res.status, await res.clone().text()).toBe(201)
    expect(await res.json()).toMatchObject({ status: 'submitted', delivery: 'on_time', offline: false, correction: null })
    const row = await env.DB.prepare('SELECT auto_scores, score, max_score, delivery FROM tms_answer WHERE task_id = ? AND nick = ?')
      .bind(p.task.id, k.a.nick)
      .first<{ auto_scores: string; score: number; max_score: number }>()
    expect(JSON.parse(row!.auto_scores)).toEqual({
      [p.byType('single').id]: 1,
      [p.byType('multi').id]: 1,
      [p.byType('fill_words').id]: 1,
      [p.byType('order_sentences').id]: 1,
      [p.byType('cloud').id]: 0,
      [p.byType('fill_letters').id]: 1,
    })
    expect(row).toMatchObject({ score: 5, max_score: 9 })
  })

  it('refuses a second delivery ("already submitted"), counts the same answer id once ("answer already registered")', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.b.token, p.task.id)
    const id = answerId()
    const body = { answer_id: id, receipt: o.receipt, answers: rightAnswers(p) }
    // Two syncs of the same answer at once: one delivery.
    const [x, y] = await Promise.all([deliver(k.b.token, p.task.id, body), deliver(k.b.token, p.task.id, body)])
    expect([x.status, y.status].sort()).toEqual([201, 409])
    await expectEnvelope(await deliver(k.b.token, p.task.id, body), 409, 'answer_already_registered')
    await expectEnvelope(await deliver(k.b.token, p.task.id, { ...body, answer_id: answerId() }), 409, 'already_submitted')
    await expectEnvelope(await draft(k.b.token, p.task.id, { ...body, answer_id: answerId() }), 409, 'already_submitted')
    await expectEnvelope(await open(k.b.token, p.task.id), 409, 'already_submitted')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_answer_delivery WHERE client_id = ?').bind(id).first<number>('n')).toBe(1)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_answer WHERE task_id = ?').bind(p.task.id).first<number>('n')).toBe(1)
  })

  it('refuses answers after the deadline ("deadline ended, no more responses")', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.a.token, p.task.id)
    await expireAt(p.task.id, Date.now() - MIN)
    await expectEnvelope(await draft(k.a.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers: rightAnswers(p) }), 422, 'deadline_ended')
    await expectEnvelope(await deliver(k.a.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers: rightAnswers(p) }), 422, 'deadline_ended')
  })

  it('applies the minimum and maximum execution times from the signed open time', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id], { min_execution_time: 5, max_execution_time: 10 })
    let o = await opened(k.a.token, p.task.id)
    const body = () => ({ answer_id: answerId(), receipt: o.receipt, answers: rightAnswers(p) })
    await expectEnvelope(await deliver(k.a.token, p.task.id, body()), 422, 'min_time_not_reached')
    // A draft is not held to the minimum time.
    expect((await draft(k.a.token, p.task.id, body())).status).toBe(200)
    await openedAgo(p.task.id, k.a.nick, 11 * MIN)
    // The old receipt no longer matches the open time (a teacher's timer restore works the same way).
    await expectEnvelope(await deliver(k.a.token, p.task.id, body()), 400, 'receipt_invalid')
    o = await opened(k.a.token, p.task.id)
    await expectEnvelope(await deliver(k.a.token, p.task.id, body()), 422, 'max_time_reached')
    await openedAgo(p.task.id, k.a.nick, 6 * MIN)
    o = await opened(k.a.token, p.task.id)
    const res = await deliver(k.a.token, p.task.id, body())
    expect(res.status, await res.clone().text()).toBe(201)
    const out = (await res.json()) as { duration_seconds: number }
    expect(out.duration_seconds).toBeGreaterThanOrEqual(360)
    expect(out.duration_seconds).toBeLessThan(400)
  })
})

describe('offline delivery, judged by the signed receipt and the device’s elapsed time', () => {
  it('accepts work finished within the window (delayed when it arrives after expiry) and refuses work that was not', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    await opened(k.b.token, p.task.id)
    await openedAgo(p.task.id, k.b.nick, 20 * MIN)
    const o = await opened(k.b.token, p.task.id)
    await expireAt(p.task.id, Date.now() - 5 * MIN)
    const body = (elapsed: number) => ({ answer_id: answerId(), receipt: o.receipt, answers: rightAnswers(p), offline: { elapsed_ms: elapsed } })
    // Finished 2 minutes ago, 3 minutes after the deadline.
    await expectEnvelope(await deliver(k.b.token, p.task.id, body(18 * MIN)), 422, 'deadline_ended')
    // The device claims more time than has passed since the server signed the open.
    await expectEnvelope(await deliver(k.b.token, p.task.id, body(25 * MIN)), 422, 'elapsed_invalid')
    // An online delivery after the deadline is refused whatever it says.
    await expectEnvelope(await deliver(k.b.token, p.task.id, { ...body(0), offline: undefined }), 422, 'deadline_ended')
    // Finished 10 minutes ago, 5 minutes before the deadline: accepted, delayed.
    const res = await deliver(k.b.token, p.task.id, body(10 * MIN))
    expect(res.status, await res.clone().text()).toBe(201)
    expect(await res.json()).toMatchObject({ status: 'submitted', delivery: 'delayed', offline: true, duration_seconds: 600 })
  })

  it('refuses a receipt the server did not sign, or signed for someone else', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.a.token, p.task.id)
    await opened(k.b.token, p.task.id)
    const answers = rightAnswers(p)
    const [body, sig] = o.receipt.split('.')
    await expectEnvelope(await deliver(k.a.token, p.task.id, { answer_id: answerId(), receipt: `${body}.${sig.slice(1)}A`, answers }), 400, 'receipt_invalid')
    const forged = await signReceipt('another-secret', {
      realm: 'demo',
      task: p.task.id,
      nick: k.a.nick,
      room: k.roomA.id,
      opened: Date.parse(o.opened_at) - 60 * MIN,
    })
    await expectEnvelope(await deliver(k.a.token, p.task.id, { answer_id: answerId(), receipt: forged, answers }), 400, 'receipt_invalid')
    // Student a's receipt is not student b's.
    await expectEnvelope(await deliver(k.b.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers }), 400, 'receipt_invalid')
  })
})
