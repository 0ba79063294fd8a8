/**
 * The student's own uploads and the essay transcription of the student API (issue 17): `POST …/{taskId}/file`,
 * `DELETE …/{taskId}/file/{fileId}` and `POST …/{taskId}/transcribe`, with real R2 and D1, the student holding no
 * permission at all; the transcription against the local chat-completions server (tests/support/ai-providers.ts).
 */
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { UploadedFile } from '#shared/schemas/file'
import { monthOf } from '../../worker/ai'
import { creditsUsed } from '../../worker/db/ai'
import { pngBytes } from '../support/images'
import { validQuestion } from '../support/tms-fixtures'
import { TEACHER, answerId, deliver, draft, expireAt, open, opened, publishedTask, student } from './answer-helpers'
import { room } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

const PAGE = pngBytes(320, 240)
const WAV = new Uint8Array([...new TextEncoder().encode('RIFF'), 36, 0, 0, 0, ...new TextEncoder().encode('WAVEfmt '), ...new Array<number>(24).fill(0)])

type Who = { token: string; nick: string }
let a: Who, b: Who, outsider: Who
let task: Awaited<ReturnType<typeof publishedTask>>
let media: string, essay: string, text: string

const essayQuestion = () => ({ ...validQuestion('essay'), options: { ...(validQuestion('essay').options as object), min_word_count: 1 } })

beforeAll(async () => {
  const teacher = await userWith('demo', TEACHER)
  ;[a, b, outsider] = [await student(), await student(), await student()]
  const r = await room('demo', { members: [a.nick, b.nick] })
  await room('demo', { members: [outsider.nick] })
  task = await publishedTask(teacher.token, [r.id], {
    essay_transcription: true,
    questions: [
      { ...validQuestion('media'), options: { accept: ['image', 'audio'] } },
      essayQuestion(),
      { type: 'text', statement: '<p>Explain.</p>', score: 1, options: { min_text_count: 1, max_text_count: 100 } },
    ],
  })
  ;[media, essay, text] = [task.byType('media').id, task.byType('essay').id, task.byType('text').id]
  await opened(a.token, task.task.id)
})

function form(question: string, name: string, bytes: Uint8Array<ArrayBuffer> | string) {
  const f = new FormData()
  f.set('data', new File([bytes], name))
  f.set('question_id', question)
  return f
}
const upload = (who: Who, taskId: string, body: FormData | string, host = DEMO) =>
  api(host, `tms/answer-student/${taskId}/file`, { method: 'POST', token: who.token, body })
const remove = (who: Who, taskId: string, fileId: string) => api(DEMO, `tms/answer-student/${taskId}/file/${fileId}`, { method: 'DELETE', token: who.token })
const transcribe = (who: Who, taskId: string, json: unknown) => api(DEMO, `tms/answer-student/${taskId}/transcribe`, { method: 'POST', token: who.token, json })

async function uploaded(who: Who, question: string, name = 'page.png', bytes: Uint8Array<ArrayBuffer> | string = PAGE, taskId = task.task.id) {
  const res = await upload(who, taskId, form(question, name, bytes))
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as UploadedFile
}
const fileRow = (id: string) =>
  env.DB.prepare('SELECT realm, uploaded_by, persist, expires_at, kind FROM file WHERE id = ?')
    .bind(id)
    .first<{ realm: string; uploaded_by: string; persist: number; expires_at: string | null; kind: string }>()
const fileCount = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM file').first<{ n: number }>())!.n

describe('POST /tms/answer-student/{taskId}/file', () => {
  it('stores the student’s own temporary upload of a kind the question takes (no upload permission needed)', async () => {
    const photo = await uploaded(a, media)
    expect(photo).toMatchObject({ kind: 'image', persist: false, width: 320, height: 240 })
    expect(photo.cdn_full_url).toMatch(new RegExp(`/demo/\\d{4}/\\d{2}/${photo.id}\\.png$`))
    expect(await fileRow(photo.id)).toMatchObject({ realm: 'demo', uploaded_by: a.nick, persist: 0, kind: 'image' })
    expect((await fileRow(photo.id))!.expires_at).not.toBeNull()
    expect(await env.FILES.head(`demo/${photo.cdn_full_url.split('/demo/')[1]}`)).not.toBeNull()
    expect(await uploaded(a, media, 'voice.wav', WAV)).toMatchObject({ kind: 'audio' })
    // An essay's page photo (the model transcribes essays).
    expect(await uploaded(a, essay, 'page-1.png')).toMatchObject({ kind: 'image' })
  })

  it('refuses kinds the question does not take, sizes and dimensions beyond the rules; nothing is stored', async () => {
    const before = await fileCount()
    const cases: [string, string, Uint8Array<ArrayBuffer> | string, number, string, string][] = [
      [media, 'notes.txt', 'my notes', 400, 'type', 'data'], // not an image nor audio
      [media, 'book.pdf', '%PDF-1.4 x', 400, 'type', 'data'],
      [essay, 'voice.wav', WAV, 400, 'type', 'data'], // an essay's pages are photos
      [essay, 'tiny.png', pngBytes(64, 48), 400, 'dimensions', 'data'], // below ESSAY_PAGE_MIN_PX
      [media, 'huge.png', pngBytes(320, 240, 5_000_001), 400, 'max_size', 'data'],
      [media, 'fake.png', 'not a png at all', 400, 'content_mismatch', 'data'],
      [media, 'empty.png', '', 400, 'empty', 'data'],
      [text, 'page.png', PAGE, 422, 'file_kind', 'question_id'], // a text question takes no files
      ['q-unknown-1', 'page.png', PAGE, 422, 'unknown_question', 'question_id'],
    ]
    for (const [question, name, bytes, status, cause, field] of cases) {
      const body = await expectEnvelope(await upload(a, task.task.id, form(question, name, bytes)), status, cause)
      expect(body.errors[0].field, `${name} on ${question}`).toBe(field)
    }
    expect(await fileCount()).toBe(before)
  })

  it('takes no essay photos when the model does not transcribe essays', async () => {
    const teacher = await userWith('demo', TEACHER)
    const r = await room('demo', { members: [a.nick] })
    const typed = await publishedTask(teacher.token, [r.id], { questions: [essayQuestion()] })
    await opened(a.token, typed.task.id)
    await expectEnvelope(await upload(a, typed.task.id, form(typed.byType('essay').id, 'page.png', PAGE)), 422, 'file_kind')
    const o = (await (await open(a.token, typed.task.id)).json()) as { task: { essay_transcription: boolean; transcription: string | null } }
    expect(o.task).toMatchObject({ essay_transcription: false, transcription: null })
  })

  it('only for a task reaching the student, opened, not delivered, not expired, in the caller’s realm', async () => {
    const before = await fileCount()
    // Another class's student: the task is not revealed.
    await expectEnvelope(await upload(outsider, task.task.id, form(media, 'page.png', PAGE)), 404, 'task_not_found')
    // A user of another realm naming this realm's task.
    const foreign = await userWith('escola', [])
    await expectEnvelope(await upload(foreign, task.task.id, form(media, 'page.png', PAGE), ESCOLA), 404, 'task_not_found')
    // A classmate who never opened the task.
    await expectEnvelope(await upload(b, task.task.id, form(media, 'page.png', PAGE)), 409, 'task_not_opened')

    const teacher = await userWith('demo', TEACHER)
    const r = await room('demo', { members: [a.nick] })
    const late = await publishedTask(teacher.token, [r.id], { questions: [{ ...validQuestion('media'), options: { accept: ['image'] } }] })
    await opened(a.token, late.task.id)
    await expireAt(late.task.id, Date.now() - 120_000)
    await expectEnvelope(await upload(a, late.task.id, form(late.byType('media').id, 'page.png', PAGE)), 422, 'deadline_ended')

    const done = await publishedTask(teacher.token, [r.id], { questions: [{ ...validQuestion('media'), options: { accept: ['image'] } }] })
    const o = await opened(a.token, done.task.id)
    const q = done.byType('media').id
    const photo = await uploaded(a, q, 'page.png', PAGE, done.task.id)
    const res = await deliver(a.token, done.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [q]: { files: [photo.id] } } })
    expect(res.status, await res.clone().text()).toBe(201)
    const after = await fileCount()
    await expectEnvelope(await upload(a, done.task.id, form(q, 'page.png', PAGE)), 409, 'already_submitted')
    expect(await fileCount()).toBe(after)
    expect(after).toBe(before + 1)
  })

  it('answers the envelope to bad input', async () => {
    const before = await fileCount()
    expect((await expectEnvelope(await upload(a, task.task.id, 'not multipart'), 400)).errors.map((e) => e.field)).toContain('data')
    const noFile = new FormData()
    noFile.set('question_id', media)
    expect((await expectEnvelope(await upload(a, task.task.id, noFile), 400)).errors[0].field).toBe('data')
    const badQuestion = form('a b', 'page.png', PAGE)
    expect((await expectEnvelope(await upload(a, task.task.id, badQuestion), 400)).errors[0].field).toBe('question_id')
    const unsafe = form(media, 'page\u202Egnp.png', PAGE)
    await expectEnvelope(await upload(a, task.task.id, unsafe), 400, 'file_name')
    await expectEnvelope(await upload(a, 'not a task!', form(media, 'page.png', PAGE)), 400)
    expect(await fileCount()).toBe(before)
  })
})

describe('DELETE /tms/answer-student/{taskId}/file/{fileId}', () => {
  it('removes the student’s own temporary upload, object and row', async () => {
    const photo = await uploaded(a, media)
    const key = photo.cdn_full_url.slice(photo.cdn_full_url.indexOf('/demo/') + 1)
    const res = await remove(a, task.task.id, photo.id)
    expect(res.status).toBe(204)
    expect(await fileRow(photo.id)).toBeNull()
    expect(await env.FILES.head(key)).toBeNull()
    await expectEnvelope(await remove(a, task.task.id, photo.id), 404, 'file_not_found')
  })

  it('refuses another student’s file, a file kept with a saved answer, and bad ids; nothing is removed', async () => {
    const photo = await uploaded(a, media)
    await opened(b.token, task.task.id)
    await expectEnvelope(await remove(b, task.task.id, photo.id), 404, 'file_not_found')
    await expectEnvelope(await remove(outsider, task.task.id, photo.id), 404, 'task_not_found')
    expect(await fileRow(photo.id)).not.toBeNull()

    const o = await opened(a.token, task.task.id)
    const res = await draft(a.token, task.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [media]: { files: [photo.cdn_full_url] } } })
    expect(res.status, await res.clone().text()).toBe(200)
    await expectEnvelope(await remove(a, task.task.id, photo.id), 409, 'file_in_answer')
    expect(await fileRow(photo.id)).toMatchObject({ persist: 1 })
    expect((await expectEnvelope(await remove(a, task.task.id, 'bad id!'), 400)).errors[0].field).toBe('file_id')
  })
})

describe('essays from photos', () => {
  it('a delivery of a transcribed essay needs at least one image; with its page it is delivered and the page kept', async () => {
    const teacher = await userWith('demo', TEACHER)
    const who = await student()
    const r = await room('demo', { members: [who.nick] })
    const t = await publishedTask(teacher.token, [r.id], { essay_transcription: true, questions: [essayQuestion()] })
    const q = t.byType('essay').id
    const o = await opened(who.token, t.task.id)
    const id = answerId()
    const typed = await deliver(who.token, t.task.id, { answer_id: id, receipt: o.receipt, answers: { [q]: { text: 'Texto digitado.' } } })
    const body = await expectEnvelope(typed, 422, 'essay_image_required')
    expect(body.errors[0].field).toBe(`answers.${q}`)
    // A draft may hold the text alone (unfinished).
    const saved = await draft(who.token, t.task.id, { answer_id: id, receipt: o.receipt, answers: { [q]: { text: 'Texto digitado.' } } })
    expect(saved.status).toBe(200)
    const page = await uploaded(who, q, 'page.png', PAGE, t.task.id)
    const res = await deliver(who.token, t.task.id, { answer_id: id, receipt: o.receipt, answers: { [q]: { text: 'Texto transcrito.', files: [page.id] } } })
    expect(res.status, await res.clone().text()).toBe(201)
    expect(((await res.json()) as { answers: Record<string, { files: string[] }> }).answers[q].files).toEqual([page.cdn_full_url])
    expect(await fileRow(page.id)).toMatchObject({ persist: 1, expires_at: null })
  })

  it('the open says who transcribes: the device without a vision provider; the server endpoint then answers ai_not_configured', async () => {
    const o = (await (await open(a.token, task.task.id)).json()) as { task: { essay_transcription: boolean; transcription: string } }
    expect(o.task).toMatchObject({ essay_transcription: true, transcription: 'device' })
    const page = await uploaded(a, essay)
    await expectEnvelope(await transcribe(a, task.task.id, { question_id: essay, files: [page.id] }), 409, 'ai_not_configured')
  })

  describe('through the realm’s vision provider', () => {
    const model = `vision-${crypto.randomUUID().slice(0, 8)}`
    const script = (replies: unknown[]) => fetch(`${env.TEST_AI_PROVIDERS}/__script`, { method: 'POST', body: JSON.stringify({ model, replies }) })
    const requests = async () =>
      (
        (await (await fetch(`${env.TEST_AI_PROVIDERS}/__requests`)).json()) as { path: string; body?: { model?: string; messages?: { content: unknown }[] } }[]
      ).filter((r) => r.path === '/v1/chat/completions' && r.body?.model === model)
    beforeAll(async () => {
      await env.DB.batch([
        env.DB.prepare("UPDATE realm SET agent_endpoint_url = ?, agent_model = 'agent', agent_api_key = 'test-ai-key' WHERE code = 'demo'").bind(
          `${env.TEST_AI_PROVIDERS}/v1`,
        ),
        env.DB.prepare(
          "INSERT INTO realm_ai (realm, text_provider, vision_provider, vision_model) VALUES ('demo', 'local', 'openai', ?) ON CONFLICT (realm) DO UPDATE SET vision_provider = 'openai', vision_model = excluded.vision_model",
        ).bind(model),
      ])
    })

    it('transcribes the pages in order, metered against the realm’s cap', async () => {
      const o = (await (await open(a.token, task.task.id)).json()) as { task: { transcription: string } }
      expect(o.task.transcription).toBe('vision')
      const [p1, p2] = [await uploaded(a, essay, 'p1.png'), await uploaded(a, essay, 'p2.png')]
      await script([{ content: JSON.stringify({ text: 'Primeira página.' }) }, { content: JSON.stringify({ text: 'Segunda página.' }) }])
      const month = monthOf('America/Sao_Paulo')
      const used = await creditsUsed(env.DB, 'demo', month)
      const res = await transcribe(a, task.task.id, { question_id: essay, files: [p1.cdn_full_url, p2.id] })
      expect(res.status, await res.clone().text()).toBe(200)
      expect(await res.json()).toEqual({ text: 'Primeira página.\n\nSegunda página.', engine: 'vision' })
      const sent = await requests()
      expect(sent).toHaveLength(2)
      expect(JSON.stringify(sent[0].body?.messages)).toContain('Brazilian Portuguese')
      expect(JSON.stringify(sent[0].body?.messages)).toContain('data:image/png;base64,')
      expect(await creditsUsed(env.DB, 'demo', month)).toBeGreaterThan(used)
    })

    it('no text detected, transcription error, no page, another student’s page, a question that is not transcribed', async () => {
      const page = await uploaded(a, essay)
      await script([{ content: JSON.stringify({ text: '   ' }) }])
      await expectEnvelope(await transcribe(a, task.task.id, { question_id: essay, files: [page.id] }), 422, 'no_text_detected')
      await script([{ status: 500 }])
      const failed = await expectEnvelope(await transcribe(a, task.task.id, { question_id: essay, files: [page.id] }), 502, 'transcription_failed')
      expect(failed.errors[0].field).toBe('files')
      await expectEnvelope(await transcribe(a, task.task.id, { question_id: essay, files: [] }), 422, 'essay_image_required')
      await opened(b.token, task.task.id)
      const theirs = await uploaded(b, essay)
      await expectEnvelope(await transcribe(a, task.task.id, { question_id: essay, files: [theirs.id] }), 422, 'file_not_own')
      await expectEnvelope(await transcribe(a, task.task.id, { question_id: media, files: [page.id] }), 422, 'transcription_not_allowed')
      await expectEnvelope(await transcribe(outsider, task.task.id, { question_id: essay, files: [page.id] }), 404, 'task_not_found')
      // Bad input: the envelope, no provider call.
      const calls = (await requests()).length
      await expectEnvelope(await transcribe(a, task.task.id, { question_id: essay, files: 'page' }), 400)
      await expectEnvelope(await transcribe(a, task.task.id, { files: [page.id] }), 400)
      expect(await requests()).toHaveLength(calls)
    })
  })
})
