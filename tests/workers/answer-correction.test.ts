import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO, api, expectEnvelope, userWith } from './helpers'
import { answerId, classroom, deliver, draft, opened, publishedTask, student, TEACHER } from './answer-helpers'

let k: Awaited<ReturnType<typeof classroom>>
beforeAll(async () => {
  k = await classroom()
})

type Published = Awaited<ReturnType<typeof publishedTask>>

/** The single question answered right and the text question written; returns the stored answer's id. */
async function delivered(p: Published, s: { token: string; nick: string }) {
  const o = await opened(s.token, p.task.id)
  const single = p.byType('single').options as { id: string; answer: boolean }[]
  const res = await deliver(s.token, p.task.id, {
    answer_id: answerId(),
    receipt: o.receipt,
    answers: { [p.byType('single').id]: { option: single.find((x) => x.answer)!.id }, [p.byType('text').id]: { text: 'Light into sugar.' } },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

const correct = (id: string, json: Record<string, unknown>, token = k.teacher.token) => api(DEMO, `tms/answer/${id}/correction`, { method: 'PUT', token, json })

interface Detail {
  status: string
  score: number
  scores: Record<string, number>
  comments: Record<string, string>
  final_considerations: string
  ai_comment: string
  history: { action: string; status_before: string; status_after: string; comment: string; created_by: string }[]
}

describe('the answer list (GET /tms/answer) and a task’s deliveries', () => {
  it('filters by task, room, student, status and delivery; exports CSV; needs tms_answer_list', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id, k.roomB.id])
    const idA = await delivered(p, k.a)
    await delivered(p, k.c)
    const o = await opened(k.b.token, p.task.id)
    expect((await draft(k.b.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [p.byType('text').id]: { text: 'x' } } })).status).toBe(
      200,
    )
    const list = async (query: string) => {
      const res = await api(DEMO, `tms/answer?task_id=${p.task.id}&${query}`, { token: k.teacher.token })
      expect(res.status, await res.clone().text()).toBe(200)
      return ((await res.json()) as { items: { id: string; nick: string; status: string; delivery: string | null; room_name: string }[] }).items
    }
    expect((await list('')).map((x) => x.nick).sort()).toEqual([k.a.nick, k.b.nick, k.c.nick].sort())
    expect((await list(`room_id=${k.roomB.id}`)).map((x) => x.nick)).toEqual([k.c.nick])
    expect((await list(`nick=${k.a.nick}`)).map((x) => x.id)).toEqual([idA])
    expect((await list('status=draft')).map((x) => x.nick)).toEqual([k.b.nick])
    expect((await list('delivery=on_time')).map((x) => x.nick).sort()).toEqual([k.a.nick, k.c.nick].sort())
    expect(await list('delivery=delayed')).toEqual([])
    expect((await list(`nick=${k.a.nick}`))[0]).toMatchObject({ status: 'submitted', delivery: 'on_time', room_name: k.roomA.name })
    const csv = await api(DEMO, `tms/answer/csv?task_id=${p.task.id}&status=submitted`, { token: k.teacher.token })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toBe('task,student,nick,room,status,delivery,offline,opened_at,delivered_at,duration_seconds,score,max_score')
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[2])
        .sort(),
    ).toEqual([k.a.nick, k.c.nick].sort())
    const deliveries = await api(DEMO, `tms/answer/task/${p.task.id}?status=submitted`, { token: k.teacher.token })
    expect(deliveries.status).toBe(200)
    const body = (await deliveries.json()) as { task: { id: string }; items: { nick: string; delivered_at: string }[] }
    expect(body.task.id).toBe(p.task.id)
    expect(body.items.map((x) => x.nick).sort()).toEqual([k.a.nick, k.c.nick].sort())
    // Students and staff without the permission are refused.
    await expectEnvelope(await api(DEMO, 'tms/answer', { token: k.a.token }), 403)
    await expectEnvelope(await api(DEMO, `tms/answer/${idA}`, { token: k.a.token }), 403)
    await expectEnvelope(await correct(idA, { action: 'save' }, k.a.token), 403)
  })

  it('shows a teacher without tms_task_list_others only the answers to tasks of their rooms', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomB.id])
    await delivered(p, k.c)
    const narrow = await userWith('demo', [...TEACHER.filter((x) => x !== 'tms_task_list_others'), 'tms_task_list_by_target'])
    const res = await api(DEMO, `tms/answer?task_id=${p.task.id}`, { token: narrow.token })
    expect(((await res.json()) as { items: unknown[] }).items).toEqual([])
    const all = await api(DEMO, `tms/answer?task_id=${p.task.id}`, { token: k.teacher.token })
    expect(((await all.json()) as { items: unknown[] }).items).toHaveLength(1)
  })
})

describe('correction (PUT /tms/answer/{id}/correction)', () => {
  it('accepts scores only up to the question’s score and on its step, for the task’s questions', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const id = await delivered(p, k.a)
    const text = p.byType('text').id
    const refused = async (scores: Record<string, number>, cause: string) => {
      const env_ = await expectEnvelope(await correct(id, { action: 'save', scores }), 422, cause)
      expect(env_.errors[0].field).toBe(`scores.${Object.keys(scores)[0]}`)
    }
    await refused({ [text]: 2.5 }, 'invalid_score')
    await refused({ [text]: 0.005 }, 'invalid_score')
    await refused({ [text]: -1 }, 'invalid_score')
    await refused({ nope: 1 }, 'unknown_question')
    await expectEnvelope(await correct(id, { action: 'maybe' }), 400)
    // Nothing changed.
    const row = await env.DB.prepare('SELECT status, scores FROM tms_answer WHERE id = ?').bind(id).first()
    expect(row).toMatchObject({ status: 'submitted', scores: '{}' })
    await expectEnvelope(await correct(id, { action: 'finalize' }), 422, 'score_missing')
  })

  it('saves (review), requests adjustments (pending, discarding the changes), and finalizes after the new delivery, with the history', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const id = await delivered(p, k.b)
    const text = p.byType('text').id
    const saved = await correct(id, { action: 'save', scores: { [text]: 1.5 }, comments: { [text]: 'Almost.' }, final_considerations: 'Good start.' })
    expect(saved.status, await saved.clone().text()).toBe(200)
    expect(await saved.json()).toMatchObject({ status: 'review', score: 2.5, scores: { [text]: 1.5 }, comments: { [text]: 'Almost.' } })
    const back = await correct(id, { action: 'request_adjustments', scores: { [text]: 0 }, final_considerations: 'lost', comment: 'Explain chlorophyll.' })
    expect(back.status).toBe(200)
    const pending = (await back.json()) as Detail
    expect(pending).toMatchObject({ status: 'pending', scores: { [text]: 1.5 }, final_considerations: 'Good start.' })
    // Back with the student: no correction of a pending answer.
    await expectEnvelope(await correct(id, { action: 'save' }), 409, 'not_delivered')
    // The student edits and delivers again (a new answer id), within the task's window.
    const o = await opened(k.b.token, p.task.id)
    const answers = { [text]: { text: 'Chlorophyll turns light into sugar.' } }
    expect((await draft(k.b.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers })).status).toBe(200)
    expect(((await (await api(DEMO, `tms/answer/${id}`, { token: k.teacher.token })).json()) as Detail).status).toBe('pending')
    expect((await deliver(k.b.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers })).status).toBe(201)
    const done = await correct(id, { action: 'finalize', scores: { [text]: 2 }, final_considerations: 'Well done.' })
    expect(done.status, await done.clone().text()).toBe(200)
    const final = (await done.json()) as Detail
    expect(final).toMatchObject({ status: 'finished', score: 2, final_considerations: 'Well done.' })
    expect(final.history.map((h) => [h.action, h.status_before, h.status_after])).toEqual([
      ['save', 'submitted', 'review'],
      ['request_adjustments', 'review', 'pending'],
      ['finalize', 'submitted', 'finished'],
    ])
    expect(final.history[1].comment).toBe('Explain chlorophyll.')
    expect(final.history.every((h) => h.created_by === k.teacher.nick)).toBe(true)
    await expectEnvelope(await correct(id, { action: 'save', scores: { [text]: 1 } }), 409, 'correction_finalized')
    await expectEnvelope(await correct(id, { action: 'request_adjustments' }), 409, 'correction_finalized')
    // The student sees the correction of the finished answer.
    const mine = (await (await api(DEMO, `tms/answer-student/${p.task.id}/answer`, { token: k.b.token })).json()) as {
      answer: { status: string; correction: { score: number; final_considerations: string } | null }
    }
    expect(mine.answer).toMatchObject({ status: 'finished', correction: { score: 2, final_considerations: 'Well done.' } })
  })

  it('refuses correcting a draft', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.a.token, p.task.id)
    const res = await draft(k.a.token, p.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [p.byType('text').id]: { text: 'x' } } })
    const { id } = (await res.json()) as { id: string }
    await expectEnvelope(await correct(id, { action: 'save' }), 409, 'not_delivered')
    await expectEnvelope(await correct('unknown-id', { action: 'save' }), 404, 'not_found')
  })
})

describe('the AI comment and the student’s opinion', () => {
  it('finalizing with an AI comment waits for the student’s opinion, which cannot be changed once sent', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const s = await student()
    await env.DB.prepare('INSERT INTO room_member (realm, room_id, nick, added_at) VALUES (?, ?, ?, ?)')
      .bind('demo', k.roomA.id, s.nick, new Date().toISOString())
      .run()
    const id = await delivered(p, s)
    const opinion = (json: Record<string, unknown>) => api(DEMO, `tms/answer-student/${p.task.id}/opinion`, { method: 'POST', token: s.token, json })
    await expectEnvelope(await opinion({ opinion: 'agree' }), 409, 'opinion_not_open')
    const text = p.byType('text').id
    const res = await correct(id, { action: 'finalize', scores: { [text]: 1 }, ai_comment: 'Clear, but mention chlorophyll.' })
    expect(await res.json()).toMatchObject({ status: 'pending_agreement', ai_comment: 'Clear, but mention chlorophyll.' })
    await expectEnvelope(await opinion({ opinion: 'maybe' }), 400)
    const sent = await opinion({ opinion: 'disagree', comment: 'I did mention it.' })
    expect(sent.status, await sent.clone().text()).toBe(200)
    expect(await sent.json()).toMatchObject({
      status: 'finished',
      correction: { opinion: 'disagree', opinion_comment: 'I did mention it.', ai_comment: 'Clear, but mention chlorophyll.' },
    })
    await expectEnvelope(await opinion({ opinion: 'agree' }), 409, 'opinion_already_sent')
    const row = await env.DB.prepare('SELECT opinion, status FROM tms_answer WHERE id = ?').bind(id).first()
    expect(row).toMatchObject({ opinion: 'disagree', status: 'finished' })
  })

  it('keeps the correction from the student until the display-answer date', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id], {}, { display_answer_at: new Date(Date.now() + 86_400_000).toISOString() })
    const id = await delivered(p, k.a)
    expect((await correct(id, { action: 'finalize', scores: { [p.byType('text').id]: 2 } })).status).toBe(200)
    const mine = (await (await api(DEMO, `tms/answer-student/${p.task.id}/answer`, { token: k.a.token })).json()) as {
      answer: { status: string; correction: unknown }
    }
    expect(mine.answer).toMatchObject({ status: 'finished', correction: null })
  })
})

describe('restoring a student’s timer (DELETE /tms/answer/task/{taskId}/start/{nick})', () => {
  it('forgets the first open (old receipts stop counting, the next open starts anew); not once delivered', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id], { max_execution_time: 10 })
    const restore = (nick: string, token = k.teacher.token) => api(DEMO, `tms/answer/task/${p.task.id}/start/${nick}`, { method: 'DELETE', token })
    await expectEnvelope(await restore(k.a.nick), 404, 'not_found')
    const first = await opened(k.a.token, p.task.id)
    await env.DB.prepare('UPDATE tms_answer_start SET opened_at = ? WHERE task_id = ? AND nick = ?')
      .bind(new Date(Date.now() - 30 * 60_000).toISOString(), p.task.id, k.a.nick)
      .run()
    await expectEnvelope(await restore(k.a.nick, k.a.token), 403)
    expect((await restore(k.a.nick)).status).toBe(204)
    const answers = { [p.byType('text').id]: { text: 'Light.' } }
    await expectEnvelope(await deliver(k.a.token, p.task.id, { answer_id: answerId(), receipt: first.receipt, answers }), 400, 'receipt_invalid')
    const again = await opened(k.a.token, p.task.id)
    expect(Date.parse(again.opened_at)).toBeGreaterThan(Date.parse(first.opened_at))
    expect((await deliver(k.a.token, p.task.id, { answer_id: answerId(), receipt: again.receipt, answers })).status).toBe(201)
    await expectEnvelope(await restore(k.a.nick), 409, 'already_submitted')
    const audit = await env.DB.prepare("SELECT actor FROM audit_log WHERE action = 'restore_timer' AND entity_id = ?").bind(`${p.task.id}/${k.a.nick}`).all()
    expect(audit.results).toEqual([{ actor: k.teacher.nick }])
  })
})
