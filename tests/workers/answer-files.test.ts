/**
 * The files of an answer are the student's own uploads of the realm (issue 17): media answers and essays from photos,
 * in drafts and deliveries. Files go through the real upload API (R2 and D1) and answers through the student API.
 */
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { UploadedFile } from '#shared/schemas/file'
import { pngBytes } from '../support/images'
import { validQuestion } from '../support/tms-fixtures'
import { TEACHER, answerId, deliver, draft, opened, publishedTask } from './answer-helpers'
import { essayRefs, questionOf, room } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

/** A 64 × 48 PNG: what the upload API sniffs. */
const png = pngBytes(64, 48)

async function upload(host: string, token: string, name = 'page.png', bytes: Uint8Array<ArrayBuffer> | string = png): Promise<UploadedFile> {
  const form = new FormData()
  form.set('data', new File([bytes], name))
  const res = await api(host, 'mas/file', { method: 'POST', token, body: form })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as UploadedFile
}

type Who = { token: string; nick: string }
let student: Who, classmate: Who, elsewhere: Who
let task: Awaited<ReturnType<typeof publishedTask>>
let media: string, essay: string

beforeAll(async () => {
  const teacher = await userWith('demo', TEACHER)
  // Students who may upload (the web client's upload; the student API has no upload of its own yet).
  student = await userWith('demo', ['mas_file_upload'])
  classmate = await userWith('demo', ['mas_file_upload', 'tms_task_get'])
  elsewhere = await userWith('escola', ['mas_file_upload'])
  const r = await room('demo', { members: [student.nick, classmate.nick] })
  const refs = await essayRefs('demo')
  task = await publishedTask(teacher.token, [r.id], {
    questions: [{ ...validQuestion('media'), options: { accept: ['image'] } }, questionOf('essay', refs)],
  })
  media = task.byType('media').id
  essay = task.byType('essay').id
})

const fileRow = (id: string) =>
  env.DB.prepare('SELECT persist, expires_at FROM file WHERE id = ?').bind(id).first<{ persist: number; expires_at: string | null }>()
const answerRow = (nick: string) =>
  env.DB.prepare('SELECT status, answers FROM tms_answer WHERE task_id = ? AND nick = ?').bind(task.task.id, nick).first<{ status: string; answers: string }>()

/**
 * `who` sends each refused reference: 422 with its cause on the question's field, and their stored answer stays as it
 * was. `other` is a user of the same realm whose upload is not `who`'s.
 */
async function refusals(who: Who, other: Who, send: (files: string[]) => Promise<Response>) {
  const before = await answerRow(who.nick)
  const foreign = await upload(ESCOLA, elsewhere.token)
  const theirs = await upload(DEMO, other.token)
  const notes = await upload(DEMO, who.token, 'notes.txt', 'my notes')
  const cases: [string, string][] = [
    ['n0tAnUpl0adedFile1234', 'file_not_found'], // missing: no such upload
    [`https://files.example.org/demo/2026/01/n0tAnUpl0adedFile1234.png`, 'file_not_found'], // missing, given as an address
    [foreign.cdn_full_url, 'file_not_found'], // another realm's upload, by address
    [foreign.id, 'file_not_found'], // … and by id
    [theirs.cdn_full_url, 'file_not_own'], // a classmate's upload of the same realm
    [notes.id, 'file_kind'], // the student's own, but the media question takes images only
  ]
  for (const [ref, cause] of cases) {
    const body = await expectEnvelope(await send([ref]), 422, cause)
    expect(body.errors).toEqual([expect.objectContaining({ field: `answers.${media}`, cause, value: ref })])
  }
  expect(await answerRow(who.nick)).toEqual(before)
  // Refused, the other user's temporary upload was not persisted by the attempt.
  expect((await fileRow(theirs.id))?.persist).toBe(0)
}

describe('answer files are the student’s own uploads of the realm', () => {
  it('a draft: another realm’s, a missing or another user’s file is refused on the question’s field; an own file is kept', async () => {
    const o = await opened(student.token, task.task.id)
    const id = answerId()
    const save = (files: string[], essayFiles?: string[]) =>
      draft(student.token, task.task.id, {
        answer_id: id,
        receipt: o.receipt,
        answers: { [media]: { files }, ...(essayFiles ? { [essay]: { files: essayFiles } } : {}) },
      })
    await refusals(student, classmate, (files) => save(files))
    expect(await answerRow(student.nick)).toBeNull()

    // Own uploads: by address for the media question, by id for the essay's page; both stored as their addresses.
    const photo = await upload(DEMO, student.token)
    const page = await upload(DEMO, student.token, 'page-1.png')
    expect(photo.persist).toBe(false)
    const res = await save([photo.cdn_full_url], [page.id])
    expect(res.status, await res.clone().text()).toBe(200)
    const stored = JSON.parse((await answerRow(student.nick))!.answers) as Record<string, { files: string[] }>
    expect(stored[media].files).toEqual([photo.cdn_full_url])
    expect(stored[essay].files).toEqual([page.cdn_full_url])
    // Kept with the answer: no longer a temporary upload that the cleanup would remove.
    expect(await fileRow(photo.id)).toEqual({ persist: 1, expires_at: null })
    expect(await fileRow(page.id)).toEqual({ persist: 1, expires_at: null })
  })

  it('a delivery: the same refusals change nothing; the own file is delivered', async () => {
    const o = await opened(classmate.token, task.task.id)
    const id = answerId()
    const send = (files: string[]) => deliver(classmate.token, task.task.id, { answer_id: id, receipt: o.receipt, answers: { [media]: { files } } })
    const first = await draft(classmate.token, task.task.id, {
      answer_id: answerId(),
      receipt: o.receipt,
      answers: { [essay]: { text: 'Um rascunho.' } },
    })
    expect(first.status, await first.clone().text()).toBe(200)
    await refusals(classmate, student, send)
    expect((await answerRow(classmate.nick))?.status).toBe('draft')
    const count = async () =>
      (await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_answer_delivery WHERE nick = ?').bind(classmate.nick).first<{ n: number }>())?.n ?? 0
    expect(await count()).toBe(0)

    const own = await upload(DEMO, classmate.token)
    const res = await send([own.cdn_full_url])
    expect(res.status, await res.clone().text()).toBe(201)
    const row = (await answerRow(classmate.nick))!
    expect(row.status).toBe('submitted')
    expect((JSON.parse(row.answers) as Record<string, { files: string[] }>)[media].files).toEqual([own.cdn_full_url])
    expect(await count()).toBe(1)
    expect((await fileRow(own.id))?.persist).toBe(1)
    // Delivered, a later save is refused (already submitted) and keeps nothing of it: its new upload stays temporary.
    const late = await upload(DEMO, classmate.token)
    await expectEnvelope(
      await draft(classmate.token, task.task.id, { answer_id: answerId(), receipt: o.receipt, answers: { [media]: { files: [late.id] } } }),
      409,
      'already_submitted',
    )
    expect((await fileRow(late.id))?.persist).toBe(0)
  })
})
