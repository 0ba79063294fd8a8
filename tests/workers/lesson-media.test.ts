import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { Voice } from '#shared/schemas/ai'
import type { LessonModel } from '#shared/schemas/lesson/lesson'
import type { LessonMediaState, StudentSlideMedia } from '#shared/schemas/lesson/media'
import type { Slide } from '#shared/schemas/lesson/slide'
import { lessonSlide, textObject } from '../support/lesson-fixtures'
import { aiRealm, fund, room } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'
import { expectInvariants } from './ledger-helpers'

/**
 * Lesson narration and persona videos (issue 18): narration synthesized per slide with the persona's voice through the
 * local TTS server (tests/support/ai-providers.ts), one paid operation a slide (priced per started 1,000 characters),
 * content-addressed audio in R2, stale detection; the persona's talking video per "voice and image" slide through the
 * local D-ID server (audio script), finished on read; the persona switch refused without `discard_media`, and its
 * deletion with it; publication copies the media and the student's lesson names the current ones.
 */
const PROVIDERS = () => env.TEST_AI_PROVIDERS
const unique = (p: string) => `${p}-${crypto.randomUUID().slice(0, 8)}`
type Received = { path: string; body: { input?: { text?: string }; source_url?: string; script?: { type?: string; audio_url?: string } } | null }
const requests = async (filter: (r: Received) => boolean) => ((await (await fetch(`${PROVIDERS()}/__requests`)).json()) as Received[]).filter(filter)
const PRICES = { 'lesson.narration_audio': 2, 'lesson.persona_video': 80 }
const EDITOR = [
  'lesson_model_list',
  'lesson_model_get',
  'lesson_model_create',
  'lesson_model_edit',
  'lesson_model_delete',
  'lesson_lesson_create',
  'lesson_lesson_edit',
  'lesson_lesson_get',
]
const GOOGLE = v.parse(Voice, { provider: 'google', code: 'pt-BR-Neural2-A', language: 'pt-BR', settings: {} })

async function setup(options: Parameters<typeof aiRealm>[0] = {}, funds = 1000) {
  const realm = await aiRealm({ prices: PRICES, ...options })
  const editor = await userWith(realm.code, EDITOR)
  if (funds) await fund(realm.code, funds, editor.nick)
  return { ...realm, ...editor }
}
type Ctx = Awaited<ReturnType<typeof setup>>

async function persona(ctx: Ctx, voice: unknown = GOOGLE, image = 'https://img.test/ana.png') {
  const id = `p${crypto.randomUUID().slice(0, 8)}`
  const now = new Date().toISOString()
  await env.DB.prepare('INSERT INTO persona (id, realm, name, voice, image_url, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(id, ctx.code, 'Ana', JSON.stringify(voice), image, now, now)
    .run()
  return id
}

const slide = (id: string, narration: string, overlay: Slide['overlay'] = 'voice'): Slide =>
  lessonSlide(id, [textObject(`t${id}`, `<p>Slide ${id}</p>`)], narration, overlay)

async function lessonModel(ctx: Ctx, personaId: string | null, slides: Slide[]): Promise<LessonModel> {
  const res = await api(ctx.host, 'lesson/model', { method: 'POST', token: ctx.token, json: { title: unique('Aula'), persona_id: personaId, slides } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as LessonModel
}
const media = async (ctx: Ctx, id: string, token = ctx.token) => {
  const res = await api(ctx.host, `lesson/model/${id}/media`, { token })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as LessonMediaState
}
const generate = (ctx: Ctx, id: string, what: 'narration' | 'video', json: unknown, token = ctx.token) =>
  api(ctx.host, `lesson/model/${id}/media/${what}`, { method: 'POST', token, json })
const wallet = (ctx: Ctx) => env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${ctx.code}:${ctx.nick}`).first<number>('balance')
const rows = (ctx: Ctx, lessonId: string) =>
  env.DB.prepare('SELECT slide_id, kind, status FROM lesson_media WHERE realm = ? AND lesson_id = ? ORDER BY slide_id, kind')
    .bind(ctx.code, lessonId)
    .all<{ slide_id: string; kind: string; status: string }>()
    .then((r) => r.results)
const objectText = async (url: string) => {
  const key = decodeURIComponent(new URL(url).pathname.slice('/files/'.length))
  return (await env.FILES.get(key))?.text() ?? null
}
const update = (ctx: Ctx, m: LessonModel, patch: Record<string, unknown>) =>
  api(ctx.host, `lesson/model/${m.id}`, {
    method: 'PUT',
    token: ctx.token,
    json: { title: m.title, persona_id: m.persona_id, slides: m.slides, ...patch },
  })

describe('lesson narration through the persona’s voice', () => {
  it('synthesizes each slide once (priced per started 1,000 characters), stores it in R2, replays a key without paying, and marks changed text stale', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const long = `${'Frações equivalentes representam a mesma parte do todo. '.repeat(20)}`.trim()
    const m = await lessonModel(ctx, p, [slide('a1', 'Bom dia, classe! Hoje: frações.'), slide('a2', long), slide('a3', '')])
    const before = await media(ctx, m.id)
    expect(before).toMatchObject({ voice_provider: 'google', voice_reason: null, prices: { narration_audio: 2, persona_video: 80 } })
    expect(before.slides.map((s) => s.audio_points)).toEqual([2, 2 * Math.ceil(long.length / 1000), 0])
    const total = before.narration_points
    expect(total).toBe(2 + 4)
    expect(before.narration_slides).toBe(2)

    // A price the user did not see is refused before anything is paid or called.
    await expectEnvelope(await generate(ctx, m.id, 'narration', { confirm_points: total + 1, idempotency_key: unique('narr') }), 409, 'price_changed')
    expect(await wallet(ctx)).toBe(1000)

    const key = unique('narr')
    const res = await generate(ctx, m.id, 'narration', { confirm_points: total, idempotency_key: key })
    expect(res.status, await res.clone().text()).toBe(200)
    const after = (await res.json()) as LessonMediaState & { results: { slide_id: string; outcome: string }[] }
    expect(after.results).toEqual([
      { slide_id: 'a1', outcome: 'generated' },
      { slide_id: 'a2', outcome: 'generated' },
    ])
    expect(await wallet(ctx)).toBe(1000 - total)
    expect(after).toMatchObject({ narration_points: 0, narration_slides: 0 })
    const a1 = after.slides[0].audio!
    expect(a1).toMatchObject({ status: 'done', provider: 'google', stale: false })
    expect(a1.url).toMatch(new RegExp(`/files/${ctx.code}/lesson-media/[0-9a-f]{64}\\.mp3$`))
    expect(await objectText(a1.url!)).toBe('google:Bom dia, classe! Hoje: frações.')
    expect(after.slides[2].audio).toBeNull()
    // Served as any file of the realm.
    const served = await call(ctx.host, new URL(a1.url!).pathname)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('audio/mpeg')

    // The same key again pays nothing and calls nothing.
    const calls = (await requests((r) => r.path === '/v1/text:synthesize')).length
    const again = await generate(ctx, m.id, 'narration', { confirm_points: total, idempotency_key: key })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ replayed: true, results: [] })
    expect((await requests((r) => r.path === '/v1/text:synthesize')).length).toBe(calls)
    expect(await wallet(ctx)).toBe(1000 - total)

    // Changing a slide's narration makes its audio stale: only that slide costs again.
    const changed = await update(ctx, m, { slides: [slide('a1', 'Bom dia de novo, classe.'), slide('a2', long), slide('a3', '')] })
    expect(changed.status, await changed.clone().text()).toBe(200)
    const stale = await media(ctx, m.id)
    expect(stale.slides.map((s) => s.audio?.stale)).toEqual([true, false, undefined])
    expect(stale.narration_points).toBe(2)
    const second = await generate(ctx, m.id, 'narration', { confirm_points: 2, idempotency_key: unique('narr') })
    expect(((await second.json()) as { results: unknown[] }).results).toEqual([{ slide_id: 'a1', outcome: 'generated' }])
    expect((await requests((r) => r.path === '/v1/text:synthesize')).length).toBe(calls + 1)
    expect(await wallet(ctx)).toBe(1000 - total - 2)

    // Back to the first text: its audio is in R2 already (content-addressed), so it is linked without paying.
    const back = await update(ctx, m, { slides: [slide('a1', 'Bom dia, classe! Hoje: frações.'), slide('a2', long), slide('a3', '')] })
    expect(back.status).toBe(200)
    const again2 = await media(ctx, m.id)
    expect(again2.narration_points).toBe(2)
    const linked = await generate(ctx, m.id, 'narration', { confirm_points: 2, idempotency_key: unique('narr') })
    expect(((await linked.json()) as { results: unknown[] }).results).toEqual([{ slide_id: 'a1', outcome: 'reused' }])
    expect((await requests((r) => r.path === '/v1/text:synthesize')).length).toBe(calls + 1)
    expect(await wallet(ctx)).toBe(1000 - total - 2)
    await expectInvariants()
  })

  it('refunds a slide whose synthesis fails and keeps the others', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const m = await lessonModel(ctx, p, [slide('b1', 'Esta narração vai fail no provedor.'), slide('b2', 'Esta passa.')])
    const res = await generate(ctx, m.id, 'narration', { confirm_points: 4, idempotency_key: unique('narr') })
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as LessonMediaState & { results: unknown[] }
    expect(body.results).toEqual([
      { slide_id: 'b1', outcome: 'failed' },
      { slide_id: 'b2', outcome: 'generated' },
    ])
    expect(body.slides[0].audio).toMatchObject({ status: 'failed', url: null })
    expect(body.slides[0].audio_points).toBe(2)
    expect(await wallet(ctx)).toBe(998)
    const refunded = await env.DB.prepare("SELECT COUNT(*) AS n FROM ai_operation WHERE realm = ? AND status = 'refunded'").bind(ctx.code).first<number>('n')
    expect(refunded).toBe(1)
    await expectInvariants()
  })

  it('says the browser speaks when the voice has no provider key or is the browser’s, and refuses to generate', async () => {
    const ctx = await setup({ google: '' })
    const m = await lessonModel(ctx, await persona(ctx), [slide('c1', 'Olá.')])
    const state = await media(ctx, m.id)
    expect(state).toMatchObject({ voice_provider: null, voice_reason: 'ai_not_configured', narration_points: 0 })
    await expectEnvelope(await generate(ctx, m.id, 'narration', { confirm_points: 0, idempotency_key: unique('narr') }), 409, 'provider_required')
    const browser = await lessonModel(ctx, await persona(ctx, { provider: 'browser', code: '', language: 'pt-BR', settings: {} }), [slide('c2', 'Olá.')])
    expect(await media(ctx, browser.id)).toMatchObject({ voice_provider: null, voice_reason: 'browser_voice' })
    const none = await lessonModel(ctx, null, [slide('c3', 'Olá.', 'none')])
    expect(await media(ctx, none.id)).toMatchObject({ voice_reason: 'no_persona' })
    await expectEnvelope(await generate(ctx, none.id, 'narration', { confirm_points: 0, idempotency_key: unique('narr') }), 422, 'persona_required')
    expect(await rows(ctx, m.id)).toEqual([])
    expect(await wallet(ctx)).toBe(1000)
  })

  it('refuses bad input, other realms’ lessons and users without the permission, changing nothing', async () => {
    const ctx = await setup()
    const m = await lessonModel(ctx, await persona(ctx), [slide('d1', 'Olá.')])
    for (const json of [
      {},
      { confirm_points: -1, idempotency_key: unique('k') },
      { confirm_points: 2, idempotency_key: 'short' },
      { confirm_points: '2', idempotency_key: unique('k') },
      [],
    ])
      await expectEnvelope(await generate(ctx, m.id, 'narration', json), 400)
    const reader = await userWith(ctx.code, ['lesson_model_get'])
    expect((await media(ctx, m.id, reader.token)).slides).toHaveLength(1)
    await expectEnvelope(await generate(ctx, m.id, 'narration', { confirm_points: 2, idempotency_key: unique('k') }, reader.token), 403)
    const nobody = await userWith(ctx.code, ['lesson_model_list'])
    await expectEnvelope(await api(ctx.host, `lesson/model/${m.id}/media`, { token: nobody.token }), 403)
    const other = await setup()
    await expectEnvelope(await api(other.host, `lesson/model/${m.id}/media`, { token: other.token }), 404)
    await expectEnvelope(await generate(other, m.id, 'narration', { confirm_points: 2, idempotency_key: unique('k') }), 404)
    expect(await rows(ctx, m.id)).toEqual([])
    expect(await wallet(ctx)).toBe(1000)
  })
})

describe('persona videos', () => {
  it('makes a talking video per "voice and image" slide from the persona’s image and the slide’s audio, finished on read and stored in R2', async () => {
    const ctx = await setup()
    const p = await persona(ctx, GOOGLE, 'https://img.test/slow-ana.png')
    const m = await lessonModel(ctx, p, [slide('e1', 'Olá, eu sou a Ana.', 'voice_image'), slide('e2', 'Só a voz aqui.', 'voice')])
    const first = await media(ctx, m.id)
    expect(first).toMatchObject({ animation_provider: 'did', video_points: 0 })
    expect(first.slides.map((s) => s.wants_video)).toEqual([true, false])
    // Without its audio a slide's video cannot be made yet.
    await generate(ctx, m.id, 'narration', { confirm_points: first.narration_points, idempotency_key: unique('narr') })
    const ready = await media(ctx, m.id)
    expect(ready.video_points).toBe(80)
    expect(ready.slides.map((s) => s.video_points)).toEqual([80, 0])

    const res = await generate(ctx, m.id, 'video', { confirm_points: 80, idempotency_key: unique('vid') })
    expect(res.status, await res.clone().text()).toBe(200)
    const started = (await res.json()) as LessonMediaState
    expect(started.slides[0].video).toMatchObject({ status: 'pending', provider: 'did', url: null, stale: false })
    expect(started.video_points).toBe(0)
    const talk = (await requests((r) => r.path === '/talks' && r.body?.source_url === 'https://img.test/slow-ana.png')).at(-1)!
    expect(talk.body?.script).toEqual({ type: 'audio', audio_url: ready.slides[0].audio!.url })

    // The local D-ID answers `started` on the first read of a slow talk, then `done`: the video is downloaded and stored.
    expect((await media(ctx, m.id)).slides[0].video?.status).toBe('pending')
    const done = await media(ctx, m.id)
    expect(done.slides[0].video).toMatchObject({ status: 'done', stale: false, url: expect.stringMatching(/\/lesson-media\/[0-9a-f]{64}\.mp4$/) })
    const key = decodeURIComponent(new URL(done.slides[0].video!.url!).pathname.slice('/files/'.length))
    expect((await env.FILES.get(key))?.size).toBeGreaterThan(0)
    expect(await wallet(ctx)).toBe(1000 - 2 - 2 - 80)

    // Its narration changed: the audio and the video are stale.
    const changed = await update(ctx, m, { slides: [slide('e1', 'Bom dia, classe.', 'voice_image'), slide('e2', 'Só a voz aqui.', 'voice')] })
    expect(changed.status).toBe(200)
    expect((await media(ctx, m.id)).slides[0]).toMatchObject({ audio: { stale: true }, video: { stale: true }, video_points: 0 })
    await expectInvariants()
  })

  it('refunds a video whose talk ends in error, and says no provider is configured without a D-ID key', async () => {
    const ctx = await setup()
    const m = await lessonModel(ctx, await persona(ctx, GOOGLE, 'https://img.test/broken-ana.png'), [slide('f1', 'Olá.', 'voice_image')])
    await generate(ctx, m.id, 'narration', { confirm_points: 2, idempotency_key: unique('narr') })
    expect((await generate(ctx, m.id, 'video', { confirm_points: 80, idempotency_key: unique('vid') })).status).toBe(200)
    expect(await wallet(ctx)).toBe(1000 - 2 - 80)
    const read = await media(ctx, m.id)
    expect(read.slides[0].video).toMatchObject({ status: 'failed', url: null })
    expect(await wallet(ctx)).toBe(1000 - 2)
    expect(read.video_points).toBe(80)
    await expectInvariants()

    const bare = await setup({ did: '' })
    const n = await lessonModel(bare, await persona(bare), [slide('f2', 'Olá.', 'voice_image')])
    await generate(bare, n.id, 'narration', { confirm_points: 2, idempotency_key: unique('narr') })
    expect(await media(bare, n.id)).toMatchObject({ animation_provider: null, video_points: 0 })
    await expectEnvelope(await generate(bare, n.id, 'video', { confirm_points: 0, idempotency_key: unique('vid') }), 409, 'provider_required')
    expect(await wallet(bare)).toBe(998)
  })
})

describe('the persona is fixed once media exist', () => {
  it('refuses a persona switch without discard_media, deletes the media with it, and publishes the media with the lesson', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const q = await persona(ctx)
    const m = await lessonModel(ctx, p, [slide('g1', 'Bom dia, classe.')])
    // No media yet: the persona changes freely.
    expect((await update(ctx, m, { persona_id: q })).status).toBe(200)
    expect((await update(ctx, m, { persona_id: p })).status).toBe(200)
    await generate(ctx, m.id, 'narration', { confirm_points: 2, idempotency_key: unique('narr') })
    const url = (await media(ctx, m.id)).slides[0].audio!.url!

    // Published: the lesson carries the model's audio, and the student's lesson names it.
    const student = await userWith(ctx.code, [])
    const r = await room(ctx.code, { members: [student.nick] })
    const pub = await api(ctx.host, 'lesson/lesson', { method: 'POST', token: ctx.token, json: { model_id: m.id, rooms: [r.id] } })
    expect(pub.status, await pub.clone().text()).toBe(201)
    const lessonId = ((await pub.json()) as { id: string }).id
    const seen = (await (await api(ctx.host, `lesson/student/${lessonId}`, { token: student.token })).json()) as { media: StudentSlideMedia }
    expect(seen.media).toEqual({ g1: { audio: url } })

    const refused = await expectEnvelope(await update(ctx, m, { persona_id: q }), 409, 'persona_media')
    expect(refused.errors[0]).toMatchObject({ field: 'discard_media', value: { audio: 1, video: 0 } })
    expect((await api(ctx.host, `lesson/model/${m.id}`, { token: ctx.token }).then((x) => x.json())) as LessonModel).toMatchObject({ persona_id: p })
    expect(await rows(ctx, m.id)).toHaveLength(1)
    await expectEnvelope(await update(ctx, m, { persona_id: q, discard_media: 'yes' }), 400)

    const switched = await update(ctx, m, { persona_id: q, discard_media: true })
    expect(switched.status, await switched.clone().text()).toBe(200)
    expect(await rows(ctx, m.id)).toEqual([])
    expect((await media(ctx, m.id)).slides[0].audio).toBeNull()
    // The published lesson still uses the file: it stays.
    expect(await objectText(url)).toBe('google:Bom dia, classe.')

    // The published lesson's own persona switch follows the same rule; confirmed, the last user of the file removes it.
    const lessonBody = (await (await api(ctx.host, `lesson/lesson/${lessonId}`, { token: ctx.token })).json()) as LessonModel
    const put = (patch: Record<string, unknown>) =>
      api(ctx.host, `lesson/lesson/${lessonId}`, {
        method: 'PUT',
        token: ctx.token,
        json: { title: lessonBody.title, slides: lessonBody.slides, persona_id: q, ...patch },
      })
    await expectEnvelope(await put({}), 409, 'persona_media')
    expect((await put({ discard_media: true })).status).toBe(200)
    expect(await rows(ctx, lessonId)).toEqual([])
    expect(await objectText(url)).toBeNull()
  })
})
