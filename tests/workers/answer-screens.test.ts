import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { DEMO, api, call } from './helpers'
import { answerId, classroom, deliver, draft, opened, publishedTask } from './answer-helpers'

/** The teachers' answer screens (issue 17) through the Worker as a browser reaches them: list, deliveries, correction. */

let k: Awaited<ReturnType<typeof classroom>>
let p: Awaited<ReturnType<typeof publishedTask>>
let delivered = ''
beforeAll(async () => {
  k = await classroom()
  p = await publishedTask(k.teacher.token, [k.roomA.id])
  // Student a delivers (the single question right, the text written); student b keeps a draft.
  const o = await opened(k.a.token, p.task.id)
  const single = p.byType('single').options as { id: string; answer: boolean }[]
  const res = await deliver(k.a.token, p.task.id, {
    answer_id: answerId(),
    receipt: o.receipt,
    answers: { [p.byType('single').id]: { option: single.find((x) => x.answer)!.id }, [p.byType('text').id]: { text: 'Plants turn light into sugar.' } },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  delivered = ((await res.json()) as { id: string }).id
  const ob = await opened(k.b.token, p.task.id)
  expect((await draft(k.b.token, p.task.id, { answer_id: answerId(), receipt: ob.receipt, answers: { [p.byType('text').id]: { text: 'x' } } })).status).toBe(
    200,
  )
})

const pt = catalogues['pt-BR']
const page = async (path: string) => {
  const res = await call(DEMO, path, { headers: { cookie: k.teacher.cookie } })
  expect(res.status, path).toBe(200)
  return res.text()
}
function post(path: string, fields: Record<string, string>) {
  const f = new FormData()
  for (const [key, value] of Object.entries(fields)) f.set(key, value)
  return call(DEMO, path, { method: 'POST', body: f, headers: { cookie: k.teacher.cookie, origin: `http://${DEMO}` } })
}
const stored = () =>
  env.DB.prepare('SELECT status, scores, comments, final_considerations FROM tms_answer WHERE id = ?')
    .bind(delivered)
    .first<{ status: string; scores: string; comments: string; final_considerations: string }>()

describe('tms/answer and the task’s deliveries', () => {
  it('lists the answers of a task with their state and delivery, links the delivered one to its correction, and exports CSV', async () => {
    const html = await page(`/tms/answer?task_id=${p.task.id}`)
    expect(html).toContain(k.a.nick)
    expect(html).toContain(k.b.nick)
    expect(html).toContain(pt['correct.status.submitted'])
    expect(html).toContain(pt['correct.status.draft'])
    expect(html).toContain(pt['correct.delivery.on_time'])
    expect(html).toContain(`/tms/task/${p.task.id}/${delivered}/correct`)
    // The draft has no correction link (it is still the student's).
    expect(html.match(/\/correct"/g)?.length).toBe(1)
    const filtered = await page(`/tms/answer?task_id=${p.task.id}&status=draft`)
    expect(filtered).toContain(k.b.nick)
    expect(filtered).not.toContain(`/tms/task/${p.task.id}/${delivered}/correct`)
    const csv = await call(DEMO, `/export/tms_answer?task_id=${p.task.id}&delivery=on_time`, { headers: { cookie: k.teacher.cookie } })
    expect(csv.status).toBe(200)
    const text = await csv.text()
    expect(text).toContain(k.a.nick)
    expect(text).not.toContain(k.b.nick)
    expect(text).toContain(pt['correct.delivery.on_time'])
  })

  it('refuses the list to a student (no tms_answer_list)', async () => {
    const res = await call(DEMO, '/tms/answer', { headers: { cookie: `dash_session=${k.a.token}` } })
    expect(res.status).not.toBe(200)
  })

  it('shows the task’s deliveries with the correction link and restores a student’s timer', async () => {
    const html = await page(`/tms/task/detail/${p.task.id}`)
    expect(html).toContain(pt['correct.deliveries.title'])
    expect(html).toContain(`/tms/task/${p.task.id}/${delivered}/correct`)
    expect(html).toContain(pt['correct.restore_timer_of'].replace('{{name}}', ''))
    const restored = await post(`/tms/task/detail/${p.task.id}`, { intent: 'restore_timer', nick: k.b.nick })
    expect(restored.status, await restored.clone().text()).toBe(200)
    const start = await env.DB.prepare('SELECT 1 FROM tms_answer_start WHERE task_id = ? AND nick = ?').bind(p.task.id, k.b.nick).first()
    expect(start).toBeNull()
    // A delivered student's timer cannot be restored: the API's refusal comes back, nothing changes.
    const refused = await post(`/tms/task/detail/${p.task.id}`, { intent: 'restore_timer', nick: k.a.nick })
    expect(refused.status).toBe(409)
  })

  it('changes the expiry typed in the page language’s format, read in the realm’s zone; refuses 31/02 and changes nothing', async () => {
    const html = await page(`/tms/task/detail/${p.task.id}`)
    // A text field in the language's format, not the browser's date-time input (which follows the browser's language).
    expect(html).toMatch(/id="new-expiry"[^>]*type="text"|type="text"[^>]*id="new-expiry"/)
    expect(html).toContain('placeholder="dd/mm/aaaa hh:mm"')
    const zone = (await env.DB.prepare("SELECT time_zone FROM realm WHERE code = 'demo'").first<{ time_zone: string }>())!.time_zone
    const shown = (iso: string) => new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: zone }).format(new Date(iso))
    const expiry = async () => ((await (await api(DEMO, `tms/task/${p.task.id}`, { token: k.teacher.token })).json()) as { expire_at: string }).expire_at
    const saved = await post(`/tms/task/detail/${p.task.id}`, { intent: 'expire', expire_at: '10/05/2099 18:30', _locale: 'pt-BR' })
    expect(saved.status, await saved.clone().text()).toBe(200)
    expect(shown(await expiry())).toBe('10/05/2099, 18:30')
    // en-US pages type the month first.
    expect((await post(`/tms/task/detail/${p.task.id}`, { intent: 'expire', expire_at: '05/11/2099 08:15', _locale: 'en-US' })).status).toBe(200)
    expect(shown(await expiry())).toBe('11/05/2099, 08:15')
    const refused = await post(`/tms/task/detail/${p.task.id}`, { intent: 'expire', expire_at: '31/02/2099 10:00', _locale: 'pt-BR' })
    expect(refused.status).toBe(400)
    // The action's answer (in the page's data; the screen shows it in a toast) names the date rule.
    expect(await refused.text()).toContain('validation.date')
    expect(shown(await expiry())).toBe('11/05/2099, 08:15')
  })
})

describe('tms/task/{taskId}/{answerId}/correct', () => {
  const path = () => `/tms/task/${p.task.id}/${delivered}/correct`

  it('shows the student’s answer, the automatic score and the score fields; 404 for an answer of another task', async () => {
    const html = await page(path())
    expect(html).toContain(pt['correct.title'])
    expect(html).toContain('Plants turn light into sugar.')
    expect(html).toContain(`scores.${p.byType('text').id}`)
    expect(html).toContain(pt['correct.right_option'])
    const other = await publishedTask(k.teacher.token, [k.roomA.id])
    const res = await call(DEMO, `/tms/task/${other.task.id}/${delivered}/correct`, { headers: { cookie: k.teacher.cookie } })
    expect(res.status).toBe(404)
  })

  it('refuses a score above the question’s or off its step on the field, and changes nothing', async () => {
    const text = p.byType('text').id
    for (const bad of ['2,5', '1,005', '-1', 'abc']) {
      const res = await post(path(), { action: 'save', [`scores.${text}`]: bad, final_considerations: 'Nope' })
      expect(res.status, bad).toBe(400)
      const reply = await res.text()
      expect(reply, bad).toContain(`scores.${text}`)
    }
    expect((await stored())!.status).toBe('submitted')
    expect((await stored())!.final_considerations).toBe('')
  })

  it('saves, then finalizes with scores on step and comments; the student sees the result', async () => {
    const text = p.byType('text').id
    const saved = await post(path(), { action: 'save', [`scores.${text}`]: '1,5', [`comments.${text}`]: 'Good start.', final_considerations: 'Keep going.' })
    expect(saved.status, await saved.clone().text()).toBe(302)
    expect(saved.headers.get('location')).toBe(path())
    let row = (await stored())!
    expect(row.status).toBe('review')
    expect(JSON.parse(row.scores)).toMatchObject({ [text]: 1.5 })
    expect(JSON.parse(row.comments)).toMatchObject({ [text]: 'Good start.' })
    // The history shows the step; the saved values come back in the fields.
    const html = await page(path())
    expect(html).toContain(pt['correct.action.save'])
    expect(html).toContain('Good start.')
    // A comment emptied is cleared, not kept.
    const done = await post(path(), { action: 'finalize', [`scores.${text}`]: '2', [`comments.${text}`]: '', final_considerations: 'Well done.' })
    expect(done.status, await done.clone().text()).toBe(302)
    row = (await stored())!
    expect(row.status).toBe('finished')
    expect(JSON.parse(row.comments)[text]).toBe('')
    const mine = (await (await api(DEMO, `tms/answer-student/${p.task.id}/answer`, { token: k.a.token })).json()) as {
      answer: { status: string; correction: { score: number; final_considerations: string } | null }
    }
    expect(mine.answer).toMatchObject({ status: 'finished', correction: { score: 3, final_considerations: 'Well done.' } })
    // Finalized: the screen says so and offers no button to change it.
    const closed = await page(path())
    expect(closed).toContain(pt['correct.closed_finalized'])
    expect(closed).not.toContain(pt['correct.finalize'] + '</button>')
  })

  it('requests adjustments with a comment (needed), discarding the scores sent with it', async () => {
    const q = await publishedTask(k.teacher.token, [k.roomA.id])
    const o = await opened(k.a.token, q.task.id)
    const res = await deliver(k.a.token, q.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [q.byType('text').id]: { text: 'Short.' } } })
    const id = ((await res.json()) as { id: string }).id
    const at = `/tms/task/${q.task.id}/${id}/correct`
    const empty = await post(at, { action: 'request_adjustments', comment: '  ' })
    expect(empty.status).toBe(400)
    const sent = await post(at, { action: 'request_adjustments', comment: 'Explain the role of chlorophyll.', [`scores.${q.byType('text').id}`]: '2' })
    expect(sent.status, await sent.clone().text()).toBe(302)
    const row = await env.DB.prepare('SELECT status, scores FROM tms_answer WHERE id = ?').bind(id).first<{ status: string; scores: string }>()
    expect(row).toMatchObject({ status: 'pending', scores: '{}' })
    const html = await page(at)
    expect(html).toContain('Explain the role of chlorophyll.')
    expect(html).toContain(pt['correct.closed_student'])
  })
})
