import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import type { AiStatus, ImageCheck } from '#shared/schemas/ai'
import { monthOf } from '../../worker/ai'
import { DEFAULT_WORKERS_AI_VISION_MODEL, WorkersAiVision } from '../../worker/ai/vision'
import { FaceAnswer } from '../../worker/ai/face-check'
import { creditsUsed } from '../../worker/db/ai'
import { aiRealm } from './factories'
import { api, expectEnvelope, userWith } from './helpers'

/**
 * The server's check of a persona image (issue 16: "check again on the server when a vision provider is configured;
 * a celebrity check runs when a provider is configured"), against the local OpenAI chat-completions server
 * (tests/support/ai-providers.ts) with image parts: a face found, no face, a celebrity, a malformed JSON answer, a
 * provider 500, and a realm without a vision provider; what the persona keeps; the Workers AI adapter's inputs.
 */
const PROVIDERS = () => env.TEST_AI_PROVIDERS
const script = (model: string, replies: unknown[]) =>
  fetch(`${PROVIDERS()}/__script`, { method: 'POST', body: JSON.stringify({ model, replies }) }).then((r) => r.json())
type Part = { type: string; text?: string; image_url?: { url: string } }
type Received = {
  path: string
  auth: string | null
  body: { model?: string; messages?: { role: string; content: string | Part[] }[]; response_format?: unknown }
}
const ofModel = async (model: string) =>
  ((await (await fetch(`${PROVIDERS()}/__requests`)).json()) as Received[]).filter((r) => r.path === '/v1/chat/completions' && r.body?.model === model)

/** A small PNG's bytes (a 1×1 image; what the provider sees is its data URL). */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'), (ch) => ch.charCodeAt(0))
const PNG_URL = `data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`

async function setup(options: Parameters<typeof aiRealm>[0] = {}) {
  const model = `vision-${crypto.randomUUID().slice(0, 8)}`
  const realm = await aiRealm({ vision: 'openai', visionModel: model, ...options })
  const editor = await userWith(realm.code, [
    'dashboard_dashboard_access',
    'persona_persona_list',
    'persona_persona_create',
    'persona_persona_get',
    'persona_persona_edit',
  ])
  return { ...realm, ...editor, visionModel: model }
}
type Ctx = Awaited<ReturnType<typeof setup>>

/** An uploaded image of the realm, its bytes in the bucket. */
async function image(ctx: Ctx) {
  const id = `f${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
  const key = `${ctx.code}/${id}.png`
  await env.DB.prepare(
    'INSERT INTO file (id, realm, key, name, ext, kind, content_type, size, width, height, uploaded_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?)',
  )
    .bind(id, ctx.code, key, 'rosto.png', 'png', 'image', 'image/png', PNG.length, 'test', new Date().toISOString())
    .run()
  await env.FILES.put(key, PNG)
  return id
}

const check = (ctx: Ctx, image_file_id: string) => api(ctx.host, 'personai/persona/image-check', { method: 'POST', token: ctx.token, json: { image_file_id } })
const create = (ctx: Ctx, json: Record<string, unknown>) => api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json })
const reply = (answer: unknown) => ({ content: JSON.stringify(answer) })
const month = () => monthOf('America/Sao_Paulo')

describe('POST /personai/persona/image-check and the persona save', () => {
  it('sends the image as a data URL part in JSON mode; a face is checked, kept, and the save does not ask again', async () => {
    const ctx = await setup()
    const id = await image(ctx)
    await script(ctx.visionModel, [reply({ faces: 1, celebrity: null })])
    const res = await check(ctx, id)
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as ImageCheck
    expect(body).toMatchObject({ status: 'checked', provider: 'openai', model: ctx.visionModel, faces: 1 })

    const [sent] = await ofModel(ctx.visionModel)
    expect(sent.auth).toBe('Bearer test-ai-key')
    expect(sent.body.response_format).toEqual({ type: 'json_object' })
    const user = sent.body.messages?.find((m) => m.role === 'user')
    expect(Array.isArray(user?.content)).toBe(true)
    const parts = user?.content as Part[]
    expect(parts.find((p) => p.type === 'image_url')?.image_url?.url).toBe(PNG_URL)
    expect(parts.find((p) => p.type === 'text')?.text).toMatch(/faces/i)

    // The persona saved with it keeps the check (by whom and when); the provider was asked once.
    const saved = await create(ctx, { name: 'Professora Ana', image_file_id: id })
    expect(saved.status, await saved.clone().text()).toBe(201)
    const persona = (await saved.json()) as { id: string; image_check: ImageCheck }
    expect(persona.image_check).toEqual(body)
    expect(await ofModel(ctx.visionModel)).toHaveLength(1)
    // Metered against the realm's month like a text call (the provider's usage settled).
    expect(await creditsUsed(env.DB, ctx.code, month())).toBeGreaterThan(0)

    // Removing the image clears the check.
    const cleared = await api(ctx.host, `personai/persona/${persona.id}`, {
      method: 'PUT',
      token: ctx.token,
      json: { name: 'Professora Ana', image_file_id: '' },
    })
    expect(cleared.status, await cleared.clone().text()).toBe(200)
    expect(((await cleared.json()) as { image_check: unknown }).image_check).toEqual({})
  })

  it('refuses an image without a face, at the check and at the save (nothing created)', async () => {
    const ctx = await setup()
    const id = await image(ctx)
    await script(ctx.visionModel, [reply({ faces: 0, celebrity: null })])
    const err = await expectEnvelope(await check(ctx, id), 422, 'no_face')
    expect(err.errors[0]).toMatchObject({ field: 'image_file_id', message: 'validation.persona.image_no_face' })
    await expectEnvelope(await create(ctx, { name: 'Sem rosto', image_file_id: id }), 422, 'no_face')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM persona WHERE realm = ?').bind(ctx.code).first('n')).toBe(0)
    expect(await ofModel(ctx.visionModel)).toHaveLength(1)
  })

  it('refuses a recognised celebrity with its name, also when the save is the first check', async () => {
    const ctx = await setup()
    const id = await image(ctx)
    await script(ctx.visionModel, [reply({ faces: 1, celebrity: { name: 'Pessoa Famosa', confidence: 0.93 } })])
    const err = await expectEnvelope(await create(ctx, { name: 'Famosa', image_file_id: id }), 422, 'celebrity')
    expect(err.errors[0]).toMatchObject({
      field: 'image_file_id',
      message: 'validation.persona.image_celebrity',
      value: { name: 'Pessoa Famosa', confidence: 0.93 },
    })
    await expectEnvelope(await check(ctx, id), 422, 'celebrity')
    expect(await ofModel(ctx.visionModel)).toHaveLength(1)

    // A low-confidence guess is not a recognition: the image is checked.
    const other = await image(ctx)
    await script(ctx.visionModel, [reply({ faces: 1, celebrity: { name: 'Talvez', confidence: 0.2 } })])
    expect(await (await check(ctx, other)).json()).toMatchObject({ status: 'checked', faces: 1 })
  })

  it('records the check as not run when the answer is malformed JSON twice (one retry with the errors), and saves', async () => {
    const ctx = await setup()
    const id = await image(ctx)
    await script(ctx.visionModel, [{ content: 'I see a person.' }, reply({ faces: 'one' }), { content: '{"faces": -1' }, reply({ celebrity: null })])
    expect(await (await check(ctx, id)).json()).toMatchObject({ status: 'not_run', provider: 'openai', reason: 'ai_failed' })
    const calls = await ofModel(ctx.visionModel)
    expect(calls).toHaveLength(2)
    // The retry carries the image again, the first answer and what was wrong with it.
    expect(calls[1].body.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(calls[1].body.messages?.[3].content).toContain('not JSON')

    // Not kept: the save asks again, fails the same way, and saves the persona with the check not run.
    const saved = await create(ctx, { name: 'Malformada', image_file_id: id })
    expect(saved.status, await saved.clone().text()).toBe(201)
    expect(((await saved.json()) as { image_check: ImageCheck }).image_check).toMatchObject({ status: 'not_run', reason: 'ai_failed' })
    expect(await ofModel(ctx.visionModel)).toHaveLength(4)

    // One malformed answer then a valid one: checked on the retry.
    const retried = await image(ctx)
    await script(ctx.visionModel, [{ content: 'not json' }, reply({ faces: 2, celebrity: null })])
    expect(await (await check(ctx, retried)).json()).toMatchObject({ status: 'checked', faces: 2 })
  })

  it('saves the persona with the check not run when the provider answers 500, and gives the credits back', async () => {
    const ctx = await setup()
    const id = await image(ctx)
    await script(ctx.visionModel, [{ status: 500 }, { status: 500 }])
    expect(await (await check(ctx, id)).json()).toMatchObject({ status: 'not_run', provider: 'openai', reason: 'provider_failed' })
    const saved = await create(ctx, { name: 'Sem provedor', image_file_id: id })
    expect(saved.status, await saved.clone().text()).toBe(201)
    const persona = (await saved.json()) as { id: string; image_check: ImageCheck; image_url: string }
    expect(persona.image_check).toMatchObject({ status: 'not_run', provider: 'openai', reason: 'provider_failed', at: expect.any(String) })
    expect(persona.image_url).not.toBe('')
    expect(await creditsUsed(env.DB, ctx.code, month())).toBe(0)
    // Read back as stored.
    const read = (await (await api(ctx.host, `personai/persona/${persona.id}`, { token: ctx.token })).json()) as { image_check: ImageCheck }
    expect(read.image_check).toEqual(persona.image_check)
  })

  it('does not run without a vision provider (and says why), nor past the monthly cap', async () => {
    const ctx = await setup({ vision: 'none' })
    const id = await image(ctx)
    expect(await (await check(ctx, id)).json()).toMatchObject({ status: 'not_run', provider: 'none', reason: 'not_configured' })
    const saved = (await (await create(ctx, { name: 'Local', image_file_id: id })).json()) as { image_check: ImageCheck }
    expect(saved.image_check).toMatchObject({ status: 'not_run', reason: 'not_configured' })
    expect(await ofModel(ctx.visionModel)).toHaveLength(0)
    const status = (await (await api(ctx.host, 'ai/status', { token: ctx.token })).json()) as AiStatus
    expect(status.vision).toEqual({ provider: 'none', engine: 'none', problem: null, model: '' })

    // Workers AI chosen where the binding is absent (these tests): not run, binding missing.
    const workers = await setup({ vision: 'workers_ai' })
    expect(await (await check(workers, await image(workers))).json()).toMatchObject({ status: 'not_run', reason: 'binding_missing' })

    // A realm at its cap: not run, the provider not called.
    const capped = await setup({ cap: 0 })
    expect(await (await check(capped, await image(capped))).json()).toMatchObject({ status: 'not_run', provider: 'openai', reason: 'cap_reached' })
    expect(await ofModel(capped.visionModel)).toHaveLength(0)
  })

  it('validates the request, and needs the persona create or edit permission', async () => {
    const ctx = await setup()
    await expectEnvelope(await check(ctx, 'not an id!'), 400, undefined)
    await expectEnvelope(await check(ctx, 'fmissing000'), 422, 'not_found')
    const reader = await userWith(ctx.code, ['dashboard_dashboard_access', 'persona_persona_get'])
    const res = await api(ctx.host, 'personai/persona/image-check', { method: 'POST', token: reader.token, json: { image_file_id: await image(ctx) } })
    expect(res.status).toBe(403)
  })

  it('has labels for its causes in the three languages', () => {
    for (const lang of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const c = catalogues[lang]
      for (const key of ['errors.no_face', 'errors.celebrity', 'validation.persona.image_no_face', 'validation.persona.image_celebrity'])
        expect(c[key as keyof typeof c], `${lang} ${key}`).toBeTruthy()
    }
  })
})

describe('the Workers AI vision adapter (the AI binding’s documented inputs)', () => {
  it('runs the multimodal model with the image as a data URL part and JSON mode, and validates the answer', async () => {
    // No HTTP protocol to serve here: the binding is Cloudflare's; this stand-in answers as `env.AI.run` documents.
    const calls: { model: string; inputs: Record<string, unknown> }[] = []
    const answers: unknown[] = [
      { response: 'no json here' },
      { response: { faces: 1, celebrity: null }, usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912 } },
    ]
    const binding = {
      run: async (model: string, inputs: Record<string, unknown>) => {
        calls.push({ model, inputs })
        return answers.shift()
      },
    }
    const vision = new WorkersAiVision(binding)
    const seen = await vision.ask({ schema: FaceAnswer, shape: '{faces, celebrity}', question: 'How many faces?', image: { bytes: PNG, type: 'image/png' } })
    expect(seen).toMatchObject({ data: { faces: 1, celebrity: null }, engine: 'workers_ai', model: DEFAULT_WORKERS_AI_VISION_MODEL, attempts: 2 })
    expect(calls[0].model).toBe('@cf/meta/llama-4-scout-17b-16e-instruct')
    expect(calls[0].inputs.response_format).toEqual({ type: 'json_object' })
    const user = (calls[0].inputs.messages as { role: string; content: Part[] }[]).find((m) => m.role === 'user')
    expect(user?.content).toEqual([
      { type: 'text', text: 'How many faces?' },
      { type: 'image_url', image_url: { url: PNG_URL } },
    ])
  })
})
