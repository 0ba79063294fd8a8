/**
 * The student's visualize screens' API (issue 17, seed 001 §2 `mobile/tms/task/{taskId}/{answerId}/visualize`, §4
 * "Student opinion on an AI comment, once sent, cannot be changed"): only the student's own answer, nothing of the
 * correction before the display-answer date, the opinion once, bad input answered with the envelope, realm scoping.
 */
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'
import { answerId, classroom, deliver, opened, publishedTask } from './answer-helpers'

let k: Awaited<ReturnType<typeof classroom>>
beforeAll(async () => {
  k = await classroom()
})

type Published = Awaited<ReturnType<typeof publishedTask>>
type Student = { token: string; nick: string }

/** The single question answered right and the text question written; returns the stored answer's id. */
async function delivered(p: Published, s: Student, text = 'Plants turn light into sugar.') {
  const o = await opened(s.token, p.task.id)
  const single = p.byType('single').options as { id: string; answer: boolean }[]
  const res = await deliver(s.token, p.task.id, {
    answer_id: answerId(),
    receipt: o.receipt,
    answers: { [p.byType('single').id]: { option: single.find((x) => x.answer)!.id }, [p.byType('text').id]: { text } },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

/** The teacher finalizes with a score for the text question, comments and an AI comment (the answer waits for the opinion). */
async function finalize(p: Published, id: string) {
  const text = p.byType('text').id
  const res = await api(DEMO, `tms/answer/${id}/correction`, {
    method: 'PUT',
    token: k.teacher.token,
    json: {
      action: 'finalize',
      scores: { [text]: 1.5 },
      comments: { [text]: 'Mention chlorophyll.' },
      final_considerations: 'Good work overall.',
      ai_comment: 'Clear answer, a little short.',
    },
  })
  expect(res.status, await res.clone().text()).toBe(200)
}

const view = (token: string, taskId: string, id: string, host = DEMO) => api(host, `tms/answer-student/${taskId}/answer/${id}`, { token })
const opinion = (token: string, taskId: string, json: unknown, host = DEMO) =>
  api(host, `tms/answer-student/${taskId}/opinion`, { method: 'POST', token, json })
const row = (id: string) => env.DB.prepare('SELECT status, opinion, opinion_comment, opinion_at FROM tms_answer WHERE id = ?').bind(id).first()

interface View {
  task: { id: string; kind: string; display_answer_at: string | null }
  questions: { id: string; type: string; options?: unknown }[]
  answer: {
    id: string
    status: string
    answers: Record<string, unknown>
    correction: null | {
      score: number
      max_score: number
      scores: Record<string, number>
      comments: Record<string, string>
      final_considerations: string
      ai_comment: string
      opinion: string | null
      marks: Record<string, { category: string; excerpt: string; explanation: string }[]>
    }
  }
}

describe('GET /tms/answer-student/{taskId}/answer/{answerId}', () => {
  it('answers the student’s own answer only: another student’s answer id is 404, a malformed one the envelope', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const idA = await delivered(p, k.a)
    const mine = await view(k.a.token, p.task.id, idA)
    expect(mine.status, await mine.clone().text()).toBe(200)
    const body = (await mine.json()) as View
    expect(body.answer).toMatchObject({ id: idA, status: 'submitted', correction: null })
    // The questions come without their keys (the correct flags stay on the server).
    expect(JSON.stringify(body.questions)).not.toContain('"answer":true')
    // Classmate b has no answer: a's id shows nothing; once b delivers, a's id still answers 404 for b.
    await expectEnvelope(await view(k.b.token, p.task.id, idA), 404, 'not_found')
    const idB = await delivered(p, k.b)
    await expectEnvelope(await view(k.b.token, p.task.id, idA), 404, 'not_found')
    expect((await view(k.b.token, p.task.id, idB)).status).toBe(200)
    // A student the task does not reach, and the teacher (not the answer's student), see nothing either.
    await expectEnvelope(await view(k.c.token, p.task.id, idA), 404, 'not_found')
    await expectEnvelope(await view(k.teacher.token, p.task.id, idA), 404, 'not_found')
    // Bad input: the envelope, never a 500.
    const bad = await expectEnvelope(await view(k.a.token, p.task.id, 'not%20an%20id'), 400)
    expect(bad.errors[0]).toMatchObject({ field: 'answer_id' })
    await expectEnvelope(await view(k.a.token, 'no such task', idA), 400)
    await expectEnvelope(
      await view(
        k.a.token,
        p.task.id,
        idA.replace(/.$/, (ch) => (ch === 'x' ? 'y' : 'x')),
      ),
      404,
      'not_found',
    )
  })

  it('is scoped by realm: a student of another realm reaches nothing of this realm’s answers', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const id = await delivered(p, k.a)
    const { token } = await userWith('escola', [])
    await expectEnvelope(await view(token, p.task.id, id, ESCOLA), 404, 'not_found')
    await expectEnvelope(await opinion(token, p.task.id, { opinion: 'agree' }, ESCOLA), 404, 'not_found')
    expect(await row(id)).toMatchObject({ opinion: null })
    // The demo student's own session is refused by the other realm's host.
    expect((await view(k.a.token, p.task.id, id, ESCOLA)).status).not.toBe(200)
  })
})

describe('the display-answer date', () => {
  it('keeps the score, comments, AI comment and marks from the view and the list until then; no opinion before it', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id], {}, { display_answer_at: new Date(Date.now() + 86_400_000).toISOString() })
    const id = await delivered(p, k.a, 'plants turn light into sugar.')
    await finalize(p, id)
    const text = p.byType('text').id
    const marks = { questions: [{ question_id: text, score: 1, errors: [{ category: 'orthography', excerpt: 'plants', explanation: 'Capital letter.' }] }] }
    await env.DB.prepare('UPDATE tms_answer SET ai_result = ? WHERE id = ?')
      .bind(JSON.stringify({ ...marks, comment: 'Clear answer.' }), id)
      .run()

    const before = await view(k.a.token, p.task.id, id)
    const raw = await before.text()
    expect(JSON.parse(raw) as View).toMatchObject({ answer: { status: 'pending_agreement', correction: null } })
    for (const secret of ['Mention chlorophyll', 'Good work overall', 'Clear answer', 'Capital letter', '"score":2.5', '"scores"'])
      expect(raw, `leaked ${secret}`).not.toContain(secret)
    const list = async () => {
      const res = await api(DEMO, 'tms/answer-student?filter=delivered', { token: k.a.token })
      return ((await res.json()) as { items: { id: string; score: number | null; max_score: number | null }[] }).items.find((x) => x.id === p.task.id)!
    }
    expect((await list()).score).toBeNull()
    await expectEnvelope(await opinion(k.a.token, p.task.id, { opinion: 'agree' }), 409, 'opinion_not_open')
    expect(await row(id)).toMatchObject({ status: 'pending_agreement', opinion: null, opinion_at: null })

    // The date passes: everything shows.
    await env.DB.prepare('UPDATE tms_task SET display_answer_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), p.task.id)
      .run()
    const after = (await (await view(k.a.token, p.task.id, id)).json()) as View
    expect(after.answer.correction).toMatchObject({
      score: 2.5,
      max_score: 9,
      final_considerations: 'Good work overall.',
      ai_comment: 'Clear answer, a little short.',
      comments: { [text]: 'Mention chlorophyll.' },
      opinion: null,
      marks: { [text]: [{ category: 'orthography', excerpt: 'plants', explanation: 'Capital letter.' }] },
    })
    expect(after.answer.correction!.scores[text]).toBe(1.5)
    expect((await list()).score).toBe(2.5)
  })

  it('shows nothing of a correction not finalized yet (saved for review), whatever the date', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const id = await delivered(p, k.b)
    const text = p.byType('text').id
    const saved = await api(DEMO, `tms/answer/${id}/correction`, {
      method: 'PUT',
      token: k.teacher.token,
      json: { action: 'save', scores: { [text]: 0.5 }, comments: { [text]: 'Draft note.' } },
    })
    expect(saved.status, await saved.clone().text()).toBe(200)
    const raw = await (await view(k.b.token, p.task.id, id)).text()
    expect(JSON.parse(raw) as View).toMatchObject({ answer: { status: 'review', correction: null } })
    expect(raw).not.toContain('Draft note')
  })
})

describe('the opinion on the AI comment (POST /tms/answer-student/{taskId}/opinion)', () => {
  it('is sent once: bad input answers the envelope and changes nothing; a second send is refused and changes nothing', async () => {
    const p = await publishedTask(k.teacher.token, [k.roomA.id])
    const id = await delivered(p, k.a)
    await finalize(p, id)
    for (const body of [{ opinion: 'maybe' }, {}, { opinion: 'agree', comment: 'x'.repeat(2001) }, { opinion: 'agree', comment: 42 }, 'agree']) {
      const res = await opinion(k.a.token, p.task.id, body)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      await expectEnvelope(res, res.status)
    }
    expect(await row(id)).toMatchObject({ status: 'pending_agreement', opinion: null, opinion_comment: '' })

    const sent = await opinion(k.a.token, p.task.id, { opinion: 'disagree', comment: '  I did mention it.  ' })
    expect(sent.status, await sent.clone().text()).toBe(200)
    expect(await sent.json()).toMatchObject({ status: 'finished', correction: { opinion: 'disagree', opinion_comment: 'I did mention it.' } })
    const first = await row(id)

    await expectEnvelope(await opinion(k.a.token, p.task.id, { opinion: 'agree', comment: 'Changed my mind.' }), 409, 'opinion_already_sent')
    expect(await row(id)).toEqual(first)
    const shown = (await (await view(k.a.token, p.task.id, id)).json()) as View
    expect(shown.answer.correction).toMatchObject({ opinion: 'disagree' })
    // A classmate without an answer to the task cannot send one for it.
    const other = await publishedTask(k.teacher.token, [k.roomA.id])
    await expectEnvelope(await opinion(k.b.token, other.task.id, { opinion: 'agree' }), 404, 'not_found')
  })
})
