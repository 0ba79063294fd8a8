import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ASSISTANT_VOICE, type Assistant, type AssistantDefaults } from '#shared/schemas/assistant'
import type { ListPage } from '#shared/schemas/common'
import { aiRealm } from './factories'
import { api, expectEnvelope, userWith } from './helpers'

/** Assistants (issue 16 "Assistants"; seed 002 §3 "Assistant", §4): every rule of the API. */

const ALL = [
  'persona_persona_create',
  'persona_persona_delete',
  'persona_assistant_list',
  'persona_assistant_get',
  'persona_assistant_create',
  'persona_assistant_edit',
  'persona_assistant_delete',
]

async function setup() {
  const realm = await aiRealm({ provider: 'local' })
  const staff = await userWith(realm.code, ALL)
  return { ...realm, token: staff.token }
}
type Ctx = Awaited<ReturnType<typeof setup>>

async function persona(ctx: Ctx, name = 'Professora Ana'): Promise<string> {
  const res = await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name } })
  expect(res.status, await res.clone().text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

async function create(ctx: Ctx, body: Record<string, unknown>): Promise<Assistant> {
  const res = await api(ctx.host, 'personai/assistant', { method: 'POST', token: ctx.token, json: body })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Assistant
}

const put = (ctx: Ctx, id: string, json: Record<string, unknown>) => api(ctx.host, `personai/assistant/${id}`, { method: 'PUT', token: ctx.token, json })

describe('assistant API', () => {
  it('creates an assistant on a persona of the realm with the default female voice and did animations; lists, reads, updates, deletes', async () => {
    const ctx = await setup()
    const personaId = await persona(ctx)
    const a = await create(ctx, { name: 'Tutora', persona_id: personaId, avatar: 'ana', helper: 'tutor' })
    expect(a).toMatchObject({ name: 'Tutora', persona_id: personaId, persona_name: 'Professora Ana', avatar: 'ana', helper: 'tutor', standard: false })
    expect(a.voice).toEqual(DEFAULT_ASSISTANT_VOICE)
    expect(a.animations.provider).toBe('did')
    const page = (await (await api(ctx.host, 'personai/assistant?like=Tut', { token: ctx.token })).json()) as ListPage<Assistant>
    expect(page.items.map((x) => [x.id, x.persona_name])).toEqual([[a.id, 'Professora Ana']])
    const changed = await put(ctx, a.id, {
      name: 'Tutora Bia',
      avatar: 'bia',
      voice: { provider: 'google', code: 'pt-BR-Neural2-A', language: 'pt-BR', settings: { pitch: 1.4, speaking_rate: 1.05 } },
      animations: { provider: 'browser', idle: 'https://cdn.example/idle.mp4' },
    })
    expect(changed.status, await changed.clone().text()).toBe(200)
    expect(await changed.json()).toMatchObject({
      name: 'Tutora Bia',
      avatar: 'bia',
      voice: { provider: 'google', settings: { pitch: 1.4 } },
      animations: { provider: 'browser', idle: 'https://cdn.example/idle.mp4' },
    })
    expect((await api(ctx.host, `personai/assistant/${a.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    await expectEnvelope(await api(ctx.host, `personai/assistant/${a.id}`, { token: ctx.token }), 404, 'not_found')
  })

  it('never changes the persona behind an assistant (§4): the same persona may be sent back, another is 409', async () => {
    const ctx = await setup()
    const first = await persona(ctx, 'Primeira')
    const second = await persona(ctx, 'Segunda')
    const a = await create(ctx, { name: 'Guia', persona_id: first })
    const same = await put(ctx, a.id, { name: 'Guia 2', persona_id: first })
    expect(same.status).toBe(200)
    const env409 = await expectEnvelope(await put(ctx, a.id, { name: 'Guia 3', persona_id: second }), 409, 'persona_locked')
    expect(env409.errors[0]).toMatchObject({ field: 'persona_id', value: first })
    const row = (await (await api(ctx.host, `personai/assistant/${a.id}`, { token: ctx.token })).json()) as Assistant
    expect(row).toMatchObject({ name: 'Guia 2', persona_id: first })
  })

  it('refuses a persona of another realm or none, and a bad voice, avatar, helper or animation address; nothing is stored', async () => {
    const ctx = await setup()
    const other = await setup()
    const foreign = await persona(other)
    await expectEnvelope(
      await api(ctx.host, 'personai/assistant', { method: 'POST', token: ctx.token, json: { name: 'X', persona_id: foreign } }),
      422,
      'not_found',
    )
    await expectEnvelope(await api(ctx.host, 'personai/assistant', { method: 'POST', token: ctx.token, json: { name: 'X' } }), 400)
    const personaId = await persona(ctx)
    for (const bad of [
      { voice: { provider: 'minimax', code: 'x', language: 'pt-BR', settings: { pitch: 9 } } },
      { voice: { provider: 'minimax', code: 'x', language: 'pt-BR', settings: { pitch: 0.3 } } },
      { avatar: 'zeca' },
      { helper: 'wizard' },
      { animations: { talk: 'http://insecure.example/talk.mp4' } },
      { name: '' },
    ]) {
      const res = await api(ctx.host, 'personai/assistant', { method: 'POST', token: ctx.token, json: { name: 'X', persona_id: personaId, ...bad } })
      await expectEnvelope(res, 400)
    }
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM assistant WHERE realm = ?').bind(ctx.code).first<{ n: number }>()
    expect(n?.n).toBe(0)
  })

  it('keeps one standard assistant a realm: marking one unmarks the other, in the same write', async () => {
    const ctx = await setup()
    const personaId = await persona(ctx)
    const a = await create(ctx, { name: 'A', persona_id: personaId, standard: true })
    const b = await create(ctx, { name: 'B', persona_id: personaId })
    expect((await put(ctx, b.id, { name: 'B', standard: true })).status).toBe(200)
    const page = (await (await api(ctx.host, 'personai/assistant?standard=true', { token: ctx.token })).json()) as ListPage<Assistant>
    expect(page.items.map((x) => x.id)).toEqual([b.id])
    expect(((await (await api(ctx.host, `personai/assistant/${a.id}`, { token: ctx.token })).json()) as Assistant).standard).toBe(false)
  })

  it('refuses deleting a persona an assistant is built on (409 in_use); deletable once the assistant is gone', async () => {
    const ctx = await setup()
    const personaId = await persona(ctx)
    const a = await create(ctx, { name: 'A', persona_id: personaId })
    await expectEnvelope(await api(ctx.host, `personai/persona/${personaId}`, { method: 'DELETE', token: ctx.token }), 409, 'in_use')
    expect((await api(ctx.host, `personai/assistant/${a.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect((await api(ctx.host, `personai/persona/${personaId}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
  })

  it('lists the default voices (the first female, the default), avatars and helpers', async () => {
    const ctx = await setup()
    const res = await api(ctx.host, 'personai/assistant/defaults', { token: ctx.token })
    expect(res.status).toBe(200)
    const d = (await res.json()) as AssistantDefaults
    const first = d.voices.find((x) => x.id === d.default_voice)
    expect(first).toMatchObject({ gender: 'female', voice: DEFAULT_ASSISTANT_VOICE })
    expect(first?.voice.provider).toBe('minimax')
    expect(d.avatars.map((x) => x.id)).toEqual(['ana', 'bia', 'caio', 'davi'])
    for (const h of d.helpers) {
      expect(d.avatars.some((x) => x.id === h.avatar)).toBe(true)
      expect(d.voices.some((x) => x.id === h.voice)).toBe(true)
    }
  })

  it('needs persona_enabled and the assistant permissions; another realm’s assistant is not found', async () => {
    const ctx = await setup()
    const personaId = await persona(ctx)
    const a = await create(ctx, { name: 'A', persona_id: personaId })
    const reader = await userWith(ctx.code, ['persona_assistant_list'])
    await expectEnvelope(await api(ctx.host, 'personai/assistant', { method: 'POST', token: reader.token, json: { name: 'X', persona_id: personaId } }), 403)
    await expectEnvelope(await put({ ...ctx, token: reader.token }, a.id, { name: 'X' }), 403)
    expect((await api(ctx.host, 'personai/assistant', { token: reader.token })).status).toBe(200)
    const other = await setup()
    await expectEnvelope(await api(other.host, `personai/assistant/${a.id}`, { token: other.token }), 404)
    await env.DB.prepare('UPDATE realm SET persona_enabled = 0 WHERE code = ?').bind(ctx.code).run()
    const off = await userWith(ctx.code, ALL)
    await expectEnvelope(await api(ctx.host, 'personai/assistant', { token: off.token }), 403, 'disabled')
    await expectEnvelope(await api(ctx.host, 'personai/assistant/defaults', { token: off.token }), 403, 'disabled')
  })
})
