import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { PersonaAnimation } from '#shared/schemas/persona-media'
import { monthOf } from '../../worker/ai'
import { creditsUsed } from '../../worker/db/ai'
import { aiRealm, fund } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'
import { expectInvariants } from './ledger-helpers'

/**
 * The persona's paid media (issue 16): POST …/animation and …/voice/clone as paid operations against the local D-ID
 * and ElevenLabs servers (tests/support/ai-providers.ts): one debit per idempotency key, the refund when the provider
 * fails (at once, or later for a D-ID talk that ends in error), a short wallet, a price the user did not confirm, a
 * realm without the provider, and a talk finished on read (pending → done).
 */
const PROVIDERS = () => env.TEST_AI_PROVIDERS
const unique = (p: string) => `${p}-${crypto.randomUUID().slice(0, 8)}`
type Received = { path: string; body: { source_url?: string; name?: string } | null }
const requests = async (filter: (r: Received) => boolean) => ((await (await fetch(`${PROVIDERS()}/__requests`)).json()) as Received[]).filter(filter)

async function setup(options: Parameters<typeof aiRealm>[0] = {}, funds = 1000) {
  const realm = await aiRealm(options)
  const editor = await userWith(realm.code, ['dashboard_dashboard_access', 'persona_persona_create', 'persona_persona_get', 'persona_persona_edit'])
  if (funds) await fund(realm.code, funds, editor.nick)
  return { ...realm, ...editor }
}
type Ctx = Awaited<ReturnType<typeof setup>>

/** A stored file row of the realm (and its bytes in the bucket when given); `tag` goes into its URL (the D-ID server reads it). */
async function file(ctx: Ctx, kind: string, ext: string, tag = '', bytes?: Uint8Array) {
  const id = `f${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
  const key = `${ctx.code}/${tag}${id}.${ext}`
  const type = ext === 'png' ? 'image/png' : ext === 'wav' ? 'audio/wav' : 'application/pdf'
  await env.DB.prepare(
    'INSERT INTO file (id, realm, key, name, ext, kind, content_type, size, width, height, uploaded_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 100, 400, 400, ?, ?)',
  )
    .bind(id, ctx.code, key, `voz.${ext}`, ext, kind, type, 'test', new Date().toISOString())
    .run()
  if (bytes) await env.FILES.put(key, bytes)
  return id
}

async function persona(ctx: Ctx, tag = '', body: Record<string, unknown> = {}) {
  const image = await file(ctx, 'image', 'png', tag)
  const res = await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name: 'Professora Ana', image_file_id: image, ...body } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string; image_url: string }
}

const animate = (ctx: Ctx, id: string, json: Record<string, unknown>) =>
  api(ctx.host, `personai/persona/${id}/animation`, { method: 'POST', token: ctx.token, json })
const animations = async (ctx: Ctx, id: string) =>
  (await (await api(ctx.host, `personai/persona/${id}/animation`, { token: ctx.token })).json()) as { items: PersonaAnimation[]; provider: string | null }
const wallet = (ctx: Ctx) => env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${ctx.code}:${ctx.nick}`).first<number>('balance')
const month = () => monthOf('America/Sao_Paulo')

describe('POST /personai/persona/{id}/animation', () => {
  it('debits once for a retried key, calls D-ID once, and finishes the talk on read (pending → done)', async () => {
    const ctx = await setup()
    const p = await persona(ctx, 'slow-', { messages: { greeting: 'Olá, turma!' } })
    const key = unique('anim')
    const first = await animate(ctx, p.id, { kind: 'talk', confirm_points: 60, idempotency_key: key })
    expect(first.status, await first.clone().text()).toBe(201)
    const body = (await first.json()) as { animation: PersonaAnimation; operation: { id: string; points: number; replayed: boolean } }
    expect(body).toMatchObject({ animation: { kind: 'talk', provider: 'did', status: 'pending', url: '' }, operation: { points: 60, replayed: false } })
    const again = await animate(ctx, p.id, { kind: 'talk', confirm_points: 60, idempotency_key: key })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ operation: { id: body.operation.id, replayed: true } })
    const talks = await requests((r) => r.path === '/talks' && r.body?.source_url === p.image_url)
    expect(talks).toHaveLength(1)
    expect(await wallet(ctx)).toBe(940)
    expect(await creditsUsed(env.DB, ctx.code, month())).toBe(60)

    // The local D-ID answers `started` on the first read of a slow talk, then `done` with its result.
    expect((await animations(ctx, p.id)).items).toMatchObject([{ kind: 'talk', status: 'pending' }])
    const done = await animations(ctx, p.id)
    expect(done.provider).toBe('did')
    expect(done.items).toEqual([expect.objectContaining({ kind: 'talk', status: 'done', url: expect.stringMatching(/\/results\/tlk_\d+\.mp4$/) })])
    // A replay after it finished leaves the finished animation as it is.
    await animate(ctx, p.id, { kind: 'talk', confirm_points: 60, idempotency_key: key })
    expect((await animations(ctx, p.id)).items[0]).toMatchObject({ status: 'done' })
    await expectInvariants()
  })

  it('refunds by reversal when D-ID refuses the talk, and again answers the refund for the same key', async () => {
    const ctx = await setup({}, 100)
    const p = await persona(ctx, 'fail-')
    const key = unique('anim')
    const err = await expectEnvelope(await animate(ctx, p.id, { kind: 'idle', confirm_points: 60, idempotency_key: key }), 502, 'ai_provider_failed')
    expect(err.errors[0]).toMatchObject({ message: 'ai.error.provider_failed_refunded', value: { refunded: true } })
    expect(await wallet(ctx)).toBe(100)
    expect(await creditsUsed(env.DB, ctx.code, month())).toBe(0)
    await expectEnvelope(await animate(ctx, p.id, { kind: 'idle', confirm_points: 60, idempotency_key: key }), 502, 'ai_provider_failed')
    expect(await requests((r) => r.path === '/talks' && r.body?.source_url === p.image_url)).toHaveLength(1)
    expect((await animations(ctx, p.id)).items).toEqual([])
    await expectInvariants()
  })

  it('refunds a talk D-ID accepted but ended in error, once, and marks the animation failed', async () => {
    const ctx = await setup({}, 100)
    const p = await persona(ctx, 'broken-')
    const res = await animate(ctx, p.id, { kind: 'enter', confirm_points: 60, idempotency_key: unique('anim') })
    expect(res.status, await res.clone().text()).toBe(201)
    expect(await wallet(ctx)).toBe(40)
    const [failed] = (await animations(ctx, p.id)).items
    expect(failed).toMatchObject({ kind: 'enter', status: 'failed', url: '', error: expect.stringContaining('No face detected') })
    expect(await wallet(ctx)).toBe(100)
    expect(await creditsUsed(env.DB, ctx.code, month())).toBe(0)
    const op = await env.DB.prepare('SELECT status, debit_transaction, reversal_transaction FROM ai_operation WHERE id = ?')
      .bind(failed.operation_id)
      .first<Record<string, string>>()
    expect(op).toMatchObject({ status: 'refunded' })
    expect(await env.DB.prepare('SELECT reverses FROM ledger_transaction WHERE id = ?').bind(op?.reversal_transaction).first('reverses')).toBe(
      op?.debit_transaction,
    )
    await animations(ctx, p.id)
    expect(await wallet(ctx)).toBe(100)
    await expectInvariants()
  })

  it('refuses a short wallet with “insufficient credits to generate an animation”, before D-ID', async () => {
    const ctx = await setup({}, 59)
    const p = await persona(ctx)
    const err = await expectEnvelope(
      await animate(ctx, p.id, { kind: 'leave', confirm_points: 60, idempotency_key: unique('anim') }),
      422,
      'insufficient_credits',
    )
    expect(err.errors[0]).toMatchObject({ message: 'persona.error.insufficient_credits_animation', value: { required: 60, available: 59 } })
    expect(await requests((r) => r.path === '/talks' && r.body?.source_url === p.image_url)).toHaveLength(0)
    expect(await wallet(ctx)).toBe(59)
  })

  it('refuses a price the user did not confirm, bad input, a persona without image, and a realm without D-ID', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const stale = await expectEnvelope(await animate(ctx, p.id, { kind: 'idle', confirm_points: 50, idempotency_key: unique('anim') }), 409, 'price_changed')
    expect(stale.errors[0].value).toEqual({ points: 60 })
    await expectEnvelope(await animate(ctx, p.id, { kind: 'video', confirm_points: 60, idempotency_key: unique('anim') }), 400)
    await expectEnvelope(await animate(ctx, p.id, { kind: 'idle', confirm_points: 60, idempotency_key: 'short' }), 400)
    const bare = await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name: 'Sem foto' } })
    const bareId = ((await bare.json()) as { id: string }).id
    await expectEnvelope(await animate(ctx, bareId, { kind: 'idle', confirm_points: 60, idempotency_key: unique('anim') }), 422, 'image_required')
    expect(await wallet(ctx)).toBe(1000)

    const none = await setup({ did: '' })
    const q = await persona(none)
    const refused = await expectEnvelope(
      await animate(none, q.id, { kind: 'idle', confirm_points: 60, idempotency_key: unique('anim') }),
      409,
      'provider_required',
    )
    expect(refused.errors[0]).toMatchObject({ message: 'ai.error.provider_required', value: 'did' })
    expect((await animations(none, q.id)).provider).toBeNull()
    expect(await wallet(none)).toBe(1000)
  })

  it('needs the persona edit permission and persona_enabled', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const reader = await userWith(ctx.code, ['dashboard_dashboard_access', 'persona_persona_get'])
    await expectEnvelope(
      await api(ctx.host, `personai/persona/${p.id}/animation`, {
        method: 'POST',
        token: reader.token,
        json: { kind: 'idle', confirm_points: 60, idempotency_key: unique('anim') },
      }),
      403,
    )
    expect((await api(ctx.host, `personai/persona/${p.id}/animation`, { token: reader.token })).status).toBe(200)
    await env.DB.prepare('UPDATE realm SET persona_enabled = 0 WHERE code = ?').bind(ctx.code).run()
    await expectEnvelope(await animate(ctx, p.id, { kind: 'idle', confirm_points: 60, idempotency_key: unique('anim') }), 403, 'disabled')
  })
})

describe('POST /personai/persona/{id}/voice/clone', () => {
  const WAV = new TextEncoder().encode('RIFF....WAVEfmt ')
  const clone = (ctx: Ctx, id: string, json: Record<string, unknown>) =>
    api(ctx.host, `personai/persona/${id}/voice/clone`, { method: 'POST', token: ctx.token, json })
  const voiceOf = async (ctx: Ctx, id: string) =>
    ((await (await api(ctx.host, `personai/persona/${id}`, { token: ctx.token })).json()) as { voice: Record<string, unknown> | null }).voice

  it('clones the uploaded voice once per key and stores it as the persona’s custom ElevenLabs voice', async () => {
    const ctx = await setup()
    const p = await persona(ctx, '', { voice: { provider: 'minimax', code: 'female-1', language: 'pt-BR' } })
    const sample = await file(ctx, 'audio', 'wav', '', WAV)
    const key = unique('clone')
    const res = await clone(ctx, p.id, { file_id: sample, name: 'Voz da Ana', confirm_points: 100, idempotency_key: key })
    expect(res.status, await res.clone().text()).toBe(201)
    const body = (await res.json()) as { voice: { code: string } }
    expect(body.voice).toMatchObject({ provider: 'elevenlabs', code: expect.stringMatching(/^voice_\d+$/), custom: true, language: 'pt-BR' })
    expect(await voiceOf(ctx, p.id)).toMatchObject({ provider: 'elevenlabs', code: body.voice.code, custom: true })
    const again = await clone(ctx, p.id, { file_id: sample, name: 'Voz da Ana', confirm_points: 100, idempotency_key: key })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ voice: { code: body.voice.code }, operation: { replayed: true } })
    expect(await requests((r) => r.path === '/v1/voices/add' && r.body?.name === 'Voz da Ana')).toHaveLength(1)
    expect(await wallet(ctx)).toBe(900)
    await expectInvariants()
  })

  it('refunds when ElevenLabs fails and leaves the voice as it was', async () => {
    const ctx = await setup()
    const p = await persona(ctx, '', { voice: { provider: 'minimax', code: 'female-1', language: 'pt-BR' } })
    const sample = await file(ctx, 'audio', 'wav', '', WAV)
    await expectEnvelope(
      await clone(ctx, p.id, { file_id: sample, name: 'please fail', confirm_points: 100, idempotency_key: unique('clone') }),
      502,
      'ai_provider_failed',
    )
    expect(await wallet(ctx)).toBe(1000)
    expect(await voiceOf(ctx, p.id)).toMatchObject({ provider: 'minimax', code: 'female-1' })
    await expectInvariants()
  })

  it('refuses insufficient credits, another price, a file that is not a voice, and a realm without ElevenLabs', async () => {
    const short = await setup({}, 99)
    const p = await persona(short)
    const sample = await file(short, 'audio', 'wav', '', WAV)
    await expectEnvelope(await clone(short, p.id, { file_id: sample, confirm_points: 100, idempotency_key: unique('clone') }), 422, 'insufficient_credits')
    await expectEnvelope(await clone(short, p.id, { file_id: sample, confirm_points: 10, idempotency_key: unique('clone') }), 409, 'price_changed')
    const pdf = await file(short, 'document', 'pdf')
    await expectEnvelope(await clone(short, p.id, { file_id: pdf, confirm_points: 100, idempotency_key: unique('clone') }), 422, 'invalid_type')
    expect(await wallet(short)).toBe(99)

    const none = await setup({ elevenlabs: '' })
    const q = await persona(none)
    const voice = await file(none, 'audio', 'wav', '', WAV)
    const refused = await expectEnvelope(
      await clone(none, q.id, { file_id: voice, confirm_points: 100, idempotency_key: unique('clone') }),
      409,
      'provider_required',
    )
    expect(refused.errors[0]).toMatchObject({ message: 'ai.error.provider_required', value: 'elevenlabs' })
  })
})

describe('the editor’s resource route /personai/media/{id}', () => {
  it('answers the animations and prices, and runs a confirmed generation with the API’s refusals passed on', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const reader = await userWith(ctx.code, ['dashboard_dashboard_access', 'persona_persona_get'])
    const get = async (cookie: string) => (await call(ctx.host, `/personai/media/${p.id}`, { headers: { cookie } })).json()
    expect(await get(ctx.cookie)).toMatchObject({
      state: 'ok',
      items: [],
      provider: 'did',
      voiceCloneReady: true,
      prices: { animation: 60, voice_clone: 100 },
      canEdit: true,
    })
    expect(await get(reader.cookie)).toMatchObject({ state: 'ok', canEdit: false })
    const post = (cookie: string, json: unknown) =>
      call(ctx.host, `/personai/media/${p.id}?intent=animation`, {
        method: 'POST',
        body: JSON.stringify(json),
        headers: { cookie, origin: `http://${ctx.host}`, 'content-type': 'application/json' },
      })
    const stale = await post(ctx.cookie, { kind: 'idle', confirm_points: 1, idempotency_key: unique('anim') })
    expect(stale.status).toBe(409)
    expect(await stale.json()).toMatchObject({ ok: false, errors: [{ cause: 'price_changed' }] })
    expect((await post(reader.cookie, { kind: 'idle', confirm_points: 60, idempotency_key: unique('anim') })).status).toBe(302)
    expect((await post(ctx.cookie, { kind: 'nope', confirm_points: 60, idempotency_key: unique('anim') })).status).toBe(400)
    expect(await wallet(ctx)).toBe(1000)
    const ok = await post(ctx.cookie, { kind: 'idle', confirm_points: 60, idempotency_key: unique('anim') })
    expect(ok.status, await ok.clone().text()).toBe(200)
    expect(await ok.json()).toMatchObject({ ok: true, animation: { kind: 'idle', status: 'pending' } })
    expect(await wallet(ctx)).toBe(940)
  })
})
