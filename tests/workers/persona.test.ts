import { env } from 'cloudflare:test'
import { describe, expect, inject, it } from 'vitest'
import type { KnowledgeItem, KnowledgeUploadResult, Persona, PersonaDialog } from '#shared/schemas/persona'
import { KNOWLEDGE_FILE_MAX, isRestrictedVideoUrl } from '#shared/schemas/persona'
import { processKnowledge, STALE_MS } from '../../worker/ai/knowledge'
import { extractiveAnswer } from '../../worker/ai/local'
import { Bm25Index, bestPassages } from '../../worker/ai/retrieval'
import { knowledgeCorpus } from '../../worker/db/personas'
import { aiRealm } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'

/** Personas (issue 16 item 2): every rule of seed 002 §5 "Persona", the item stages of §4, knowledge limits and processing. */

const ALL = [
  'persona_persona_list',
  'persona_persona_get',
  'persona_persona_create',
  'persona_persona_edit',
  'persona_persona_delete',
  'persona_dialog_list',
  'persona_dialog_get',
  'persona_dialog_create',
  'persona_dialog_edit',
  'persona_dialog_delete',
]

const fixture = (name: string) => Uint8Array.from(atob(inject('knowledgeFixtures')[name]), (c) => c.charCodeAt(0))

async function setup() {
  const realm = await aiRealm({ provider: 'local' })
  const staff = await userWith(realm.code, ALL)
  return { ...realm, token: staff.token, nick: staff.nick }
}

type Ctx = Awaited<ReturnType<typeof setup>>

async function createPersona(ctx: Ctx, body: Record<string, unknown> = {}): Promise<Persona & { terms_accepted: boolean }> {
  const res = await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name: 'Professora Ana', ...body } })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Persona & { terms_accepted: boolean }
}

const dialogs = async (ctx: Ctx, personaId: string) =>
  (await (await api(ctx.host, `personai/persona/${personaId}/dialog`, { token: ctx.token })).json()) as { items: PersonaDialog[]; problems: number }

async function addDialog(ctx: Ctx, personaId: string, body: Record<string, unknown>): Promise<PersonaDialog> {
  const res = await api(ctx.host, `personai/persona/${personaId}/dialog`, { method: 'POST', token: ctx.token, json: body })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as PersonaDialog
}

const save = (ctx: Ctx, personaId: string) => api(ctx.host, `personai/persona/${personaId}/save`, { method: 'POST', token: ctx.token })

function upload(ctx: Ctx, personaId: string, files: { name: string; bytes: Uint8Array; type?: string }[]) {
  const form = new FormData()
  for (const f of files) form.append('files', new File([new Uint8Array(f.bytes)], f.name, { type: f.type ?? '' }))
  return api(ctx.host, `personai/persona/${personaId}/knowledge`, { method: 'POST', token: ctx.token, body: form })
}

const knowledge = async (ctx: Ctx, personaId: string) =>
  (await (await api(ctx.host, `personai/persona/${personaId}/knowledge`, { token: ctx.token })).json()) as {
    items: KnowledgeItem[]
    counted: number
    max: number
  }

const count = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .first<{ n: number }>()
  )?.n

describe('persona API', () => {
  it('creates a persona with its identification, voice and messages; derives the speech type; lists, searches, reads, updates, deletes', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx, {
      bio: 'Ensina ciências.',
      tags: ['ciências', 'ciências', 'biologia'],
      language: 'es-ES',
      is_public: true,
      fluid_conversation: true,
      synchronized_speech: true,
      humanized: true,
      voice: { provider: 'google', code: 'pt-BR-Neural2-A', language: 'pt-BR', settings: { pitch: -7.8, speaking_rate: 0.05, volume_gain: 16 } },
      messages: { greeting: 'Olá!', unknown_answer: 'Não sei.', call_helper: 'Chamando alguém.' },
    })
    expect(p).toMatchObject({ name: 'Professora Ana', tags: ['ciências', 'biologia'], language: 'es-ES', is_public: true, speech_type: 'chromakey' })
    expect(p.voice).toMatchObject({ provider: 'google', settings: { pitch: -7.8, speaking_rate: 0.05, volume_gain: 16 } })
    expect(p.messages).toEqual({ greeting: 'Olá!', unknown_answer: 'Não sei.', call_helper: 'Chamando alguém.' })
    expect(p.terms_accepted).toBe(false)
    await createPersona(ctx, { name: 'Bruno', synchronized_speech: true })
    await createPersona(ctx, { name: 'Carla' })

    const list = (await (await api(ctx.host, 'personai/persona?order=-name&limit=2', { token: ctx.token })).json()) as { items: Persona[]; total: number }
    expect(list.items.map((x) => x.name)).toEqual(['Professora Ana', 'Carla'])
    expect(list.total).toBe(3)
    const found = (await (await api(ctx.host, 'personai/persona?like=brun', { token: ctx.token })).json()) as { items: Persona[] }
    expect(found.items.map((x) => [x.name, x.speech_type])).toEqual([['Bruno', 'sync']])
    const animation = (await (await api(ctx.host, 'personai/persona?speech_type=animation', { token: ctx.token })).json()) as { items: Persona[] }
    expect(animation.items.map((x) => x.name)).toEqual(['Carla'])

    const put = await api(ctx.host, `personai/persona/${p.id}`, { method: 'PUT', token: ctx.token, json: { name: 'Ana', synchronized_speech: false } })
    expect(put.status, await put.clone().text()).toBe(200)
    expect(await put.json()).toMatchObject({ name: 'Ana', speech_type: 'animation', is_public: false })
    expect((await api(ctx.host, `personai/persona/${p.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}`, { token: ctx.token }), 404, 'not_found')
  })

  it('takes an uploaded image of the realm as the persona’s image, and refuses another file', async () => {
    const ctx = await setup()
    const file = async (kind: string, ext: string) => {
      const id = `f${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
      await env.DB.prepare(
        "INSERT INTO file (id, realm, key, name, ext, kind, content_type, size, width, height, uploaded_by, created_at) VALUES (?, ?, ?, ?, ?, ?, 'x', 100, 400, 400, 'test', ?)",
      )
        .bind(id, ctx.code, `${ctx.code}/${id}.${ext}`, `x.${ext}`, ext, kind, new Date().toISOString())
        .run()
      return id
    }
    const image = await file('image', 'png')
    const p = await createPersona(ctx, { image_file_id: image })
    expect(p.image_file_id).toBe(image)
    expect(p.image_url).toContain(`${image}.png`)
    await expectEnvelope(
      await api(ctx.host, `personai/persona/${p.id}`, { method: 'PUT', token: ctx.token, json: { name: 'X', image_file_id: await file('document', 'pdf') } }),
      422,
      'not_found',
    )
    const cleared = await api(ctx.host, `personai/persona/${p.id}`, { method: 'PUT', token: ctx.token, json: { name: 'X', image_file_id: '' } })
    expect(await cleared.json()).toMatchObject({ image_file_id: '', image_url: '' })
  })

  it('refuses voice settings outside the seed’s ranges and bad fields, changing nothing', async () => {
    const ctx = await setup()
    for (const voice of [
      { provider: 'minimax', code: 'x', language: 'pt-BR', settings: { pitch: 8.2 } },
      { provider: 'minimax', code: 'x', language: 'pt-BR', settings: { pitch: 0.3 } },
      { provider: 'google', code: 'x', language: 'pt-BR', settings: { speaking_rate: 4.05 } },
      { provider: 'minimax', code: 'x', language: 'pt-BR', voice_index: 5 },
      { provider: 'nobody', code: 'x', language: 'pt-BR' },
    ]) {
      await expectEnvelope(await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name: 'X', voice } }), 400)
    }
    await expectEnvelope(await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name: '' } }), 400)
    await expectEnvelope(await api(ctx.host, 'personai/persona', { method: 'POST', token: ctx.token, json: { name: 'X', language: 'fr-FR' } }), 400)
    expect(await count('SELECT COUNT(*) AS n FROM persona WHERE realm = ?', ctx.code)).toBe(0)
  })

  it('needs persona_enabled and the persona permissions; another realm’s persona is not found', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx)
    const reader = await userWith(ctx.code, ['persona_persona_list'])
    await expectEnvelope(await api(ctx.host, 'personai/persona', { method: 'POST', token: reader.token, json: { name: 'X' } }), 403)
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/dialog`, { token: reader.token }), 403)
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/knowledge`, { token: reader.token }), 403)
    const other = await setup()
    await expectEnvelope(await api(other.host, `personai/persona/${p.id}`, { token: other.token }), 404)
    await expectEnvelope(await api(other.host, `personai/persona/${p.id}/dialog`, { token: other.token }), 404)
    await env.DB.prepare('UPDATE realm SET persona_enabled = 0 WHERE code = ?').bind(ctx.code).run()
    const off = await userWith(ctx.code, ALL)
    await expectEnvelope(await api(ctx.host, 'personai/persona', { token: off.token }), 403, 'disabled')
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/save`, { method: 'POST', token: off.token }), 403, 'disabled')
  })

  it('records the terms agreement, which must be an explicit acceptance', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx)
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/terms`, { method: 'POST', token: ctx.token, json: { accept: false } }), 400)
    const res = await api(ctx.host, `personai/persona/${p.id}/terms`, { method: 'POST', token: ctx.token, json: { accept: true } })
    expect(res.status).toBe(200)
    const got = (await (await api(ctx.host, `personai/persona/${p.id}`, { token: ctx.token })).json()) as Persona & { terms_accepted: boolean }
    expect(got).toMatchObject({ terms_accepted: true, terms_accepted_by: ctx.nick })
  })
})

describe('persona list CSV', () => {
  it('exports the persona list as CSV under its search and order, with the translated columns', async () => {
    const ctx = await setup()
    await createPersona(ctx, { name: 'Zeca', synchronized_speech: true })
    await createPersona(ctx, { name: 'Alice', is_public: true })
    await createPersona(ctx, { name: 'Outro' })
    const { cookie } = await userWith(ctx.code, ['dashboard_dashboard_access', 'persona_persona_list'])
    const res = await call(ctx.host, '/export/persona?order=-name&like=e', { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    expect(lines[0]).toContain('Nome')
    expect(lines[0]).toContain('Tipo de fala')
    expect(lines.slice(1).map((l) => l.split(/[,;]/)[0].replace(/"/g, ''))).toEqual(['Zeca', 'Alice'])
    expect(lines[1]).toContain('Fala sincronizada')
    await env.DB.prepare('UPDATE realm SET persona_enabled = 0 WHERE code = ?').bind(ctx.code).run()
    const off = await userWith(ctx.code, ['dashboard_dashboard_access', 'persona_persona_list', 'persona_persona_get'])
    expect((await call(ctx.host, '/export/persona', { headers: { cookie: off.cookie } })).status).not.toBe(200)
  })
})

describe('persona dialogs (seed 002 §5)', () => {
  it('refuses questions under 3 characters, unknown dialog and answer types', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx, { synchronized_speech: true })
    const post = (json: unknown) => api(ctx.host, `personai/persona/${p.id}/dialog`, { method: 'POST', token: ctx.token, json })
    await expectEnvelope(await post({ type: 'conversation', questions: ['oi'], answers: [{ type: 'text', text: 'Olá' }] }), 400)
    await expectEnvelope(await post({ type: 'chat' }), 400)
    await expectEnvelope(await post({ type: 'conversation', questions: ['Quem é você?'], answers: [{ type: 'gif', url: 'http://x' }] }), 400)
    for (const type of ['unknown', 'welcome', 'call_helper'] as const) await addDialog(ctx, p.id, { type, answers: [{ type: 'text', text: 'Oi' }] })
    expect(await count('SELECT COUNT(*) AS n FROM persona_dialog WHERE persona_id = ?', p.id)).toBe(3)
  })

  it('url answers need a url, text answers need text (and an animation for an animation persona)', async () => {
    const ctx = await setup()
    const sync = await createPersona(ctx, { synchronized_speech: true })
    const post = (personaId: string, answer: unknown) =>
      api(ctx.host, `personai/persona/${personaId}/dialog`, {
        method: 'POST',
        token: ctx.token,
        json: { type: 'conversation', questions: ['Onde estudar?'], answers: [answer] },
      })
    for (const type of ['pdf', 'link', 'pptx', 'img', 'video', 'audio', 'youtube', 'document', 'presentation'])
      expect((await expectEnvelope(await post(sync.id, { type }), 422, 'url_required')).errors[0].field).toBe('answers.0.url')
    await expectEnvelope(await post(sync.id, { type: 'text' }), 422, 'text_required')
    expect((await post(sync.id, { type: 'link', url: 'https://exemplo.org' })).status).toBe(201)
    expect((await post(sync.id, { type: 'text', text: 'Na biblioteca.' })).status).toBe(201)
    const animated = await createPersona(ctx, { name: 'Animada' })
    await expectEnvelope(await post(animated.id, { type: 'text', text: 'Na biblioteca.' }), 422, 'animation_required')
    expect((await post(animated.id, { type: 'text', text: 'Na biblioteca.', animation: { provider: 'browser' } })).status).toBe(201)
  })

  it('option answers need a non-deleted option with text, each leading to a dialog of the persona', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx, { synchronized_speech: true })
    const target = await addDialog(ctx, p.id, { type: 'conversation', questions: ['Qual o horário?'], answers: [{ type: 'text', text: 'Das 8h às 12h.' }] })
    const other = await createPersona(ctx, { name: 'Outra', synchronized_speech: true })
    const foreign = await addDialog(ctx, other.id, { type: 'conversation', questions: ['Qual o horário?'], answers: [{ type: 'text', text: 'Sempre.' }] })
    const post = (options: unknown[]) =>
      api(ctx.host, `personai/persona/${p.id}/dialog`, { method: 'POST', token: ctx.token, json: { type: 'welcome', answers: [{ type: 'options', options }] } })
    await expectEnvelope(await post([]), 422, 'options_required')
    await expectEnvelope(await post([{ text: 'Horário', dialog_id: target.id, deleted: true }]), 422, 'options_required')
    await expectEnvelope(await post([{ text: '', dialog_id: target.id }]), 422, 'option_text')
    await expectEnvelope(await post([{ text: 'Horário' }]), 422, 'option_dialog')
    await expectEnvelope(await post([{ text: 'Horário', dialog_id: foreign.id }]), 422, 'option_dialog')
    const ok = await post([
      { text: 'Horário', dialog_id: target.id },
      { text: '', deleted: true },
    ])
    expect(ok.status, await ok.clone().text()).toBe(201)
    // An answer whose type changes from options keeps no options (seed 002 §4: they are discarded).
    const menu = (await ok.json()) as PersonaDialog
    const changed = await api(ctx.host, `personai/persona/${p.id}/dialog/${menu.id}`, {
      method: 'PUT',
      token: ctx.token,
      json: { type: 'welcome', answers: [{ type: 'text', text: 'Bem-vindo!', options: [{ text: 'Horário', dialog_id: target.id }] }] },
    })
    expect(((await changed.json()) as PersonaDialog).answers[0].options).toEqual([])
  })

  it('shows an unreachable conversation dialog on the list and refuses the save until an option leads to it', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx, { synchronized_speech: true })
    const orphan = await addDialog(ctx, p.id, { type: 'conversation', name: 'Detalhes', answers: [{ type: 'text', text: 'Mais detalhes.' }] })
    const listed = await dialogs(ctx, p.id)
    expect(listed.items.find((d) => d.id === orphan.id)?.problems.map((x) => x.cause)).toEqual(['unreachable'])
    expect(listed.problems).toBe(1)
    const refused = await expectEnvelope(await save(ctx, p.id), 422, 'unreachable')
    expect(refused.errors[0].field).toBe(`dialogs.${orphan.id}.id`)
    expect(await count("SELECT COUNT(*) AS n FROM persona_dialog WHERE persona_id = ? AND stage = 'draft'", p.id)).toBe(1)
    const menu = await addDialog(ctx, p.id, { type: 'welcome', answers: [{ type: 'options', options: [{ text: 'Detalhes', dialog_id: orphan.id }] }] })
    expect((await dialogs(ctx, p.id)).problems).toBe(0)
    expect((await save(ctx, p.id)).status).toBe(200)
    // Removing the dialog that led to it makes it unreachable again; its option's dialog going is reported too.
    expect((await api(ctx.host, `personai/persona/${p.id}/dialog/${menu.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect((await dialogs(ctx, p.id)).items.find((d) => d.id === orphan.id)?.problems.map((x) => x.cause)).toEqual(['unreachable'])
    await expectEnvelope(await save(ctx, p.id), 422, 'unreachable')
    const menu2 = await addDialog(ctx, p.id, { type: 'welcome', answers: [{ type: 'options', options: [{ text: 'Detalhes', dialog_id: orphan.id }] }] })
    expect((await api(ctx.host, `personai/persona/${p.id}/dialog/${orphan.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    const broken = await dialogs(ctx, p.id)
    expect(broken.items.find((d) => d.id === menu2.id)?.problems.map((x) => x.cause)).toEqual(['option_dialog'])
    await expectEnvelope(await save(ctx, p.id), 422, 'option_dialog')
  })
})

describe('persona chat test (ask)', () => {
  it('needs the terms agreement, then answers from the dialog tree, then the knowledge with its citation, then the unknown-answer message', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx, { synchronized_speech: true, messages: { unknown_answer: 'Ainda não sei responder isso.' } })
    const ask = (question: string) => api(ctx.host, `personai/persona/${p.id}/ask`, { method: 'POST', token: ctx.token, json: { question } })
    await expectEnvelope(await ask('Quando abre a escola?'), 409, 'terms_required')
    expect((await api(ctx.host, `personai/persona/${p.id}/terms`, { method: 'POST', token: ctx.token, json: { accept: true } })).status).toBe(200)
    const d = await addDialog(ctx, p.id, { type: 'conversation', questions: ['Quando abre a escola?'], answers: [{ type: 'text', text: 'Às 7h.' }] })
    expect((await upload(ctx, p.id, [{ name: 'ciclo-da-agua.txt', bytes: fixture('ciclo-da-agua.txt') }])).status).toBe(201)

    expect(await (await ask('A escola abre quando?')).json()).toEqual({
      source: 'dialog',
      dialog_id: d.id,
      question: 'Quando abre a escola?',
      answers: [{ type: 'text', text: 'Às 7h.', url: '', options: [], animation: null }],
    })
    const known = (await (await ask('O que acontece quando a água evapora?')).json()) as {
      source: string
      text: string
      engine: string
      sources: { title: string; quote: string }[]
    }
    expect(known).toMatchObject({ source: 'knowledge', engine: 'local' })
    expect(known.sources[0].title).toBe('ciclo-da-agua.txt')
    expect(known.text.split('\n')[0]).toBe(`De “ciclo-da-agua.txt”: ${known.sources[0].quote} [1]`)
    expect(known.sources[0].quote.toLowerCase()).toContain('evapora')
    expect(await (await ask('Qual a capital da Mongólia?')).json()).toEqual({ source: 'unknown', text: 'Ainda não sei responder isso.' })
    // New knowledge is answered from at once (the isolate's index follows the persona's knowledge version).
    expect((await upload(ctx, p.id, [{ name: 'biologia.pdf', bytes: fixture('biologia.pdf') }])).status).toBe(201)
    const fresh = (await (await ask('Onde acontece a respiração celular?')).json()) as { source: string; sources: { title: string; quote: string }[] }
    expect(fresh.sources[0].title).toBe('biologia.pdf (p. 2)')
    expect(fresh.sources[0].quote).toContain('A respiração celular acontece nas mitocôndrias.')
    await expectEnvelope(await ask(''), 400)
  })

  it('grounds a model’s answer in the retrieved passages (OpenAI-compatible protocol server) and returns them as its sources', async () => {
    const realm = await aiRealm({ provider: 'openai' })
    const staff = await userWith(realm.code, ALL)
    const ctx = { ...realm, token: staff.token, nick: staff.nick }
    const p = await createPersona(ctx)
    await api(ctx.host, `personai/persona/${p.id}/terms`, { method: 'POST', token: ctx.token, json: { accept: true } })
    await upload(ctx, p.id, [{ name: 'biologia.pdf', bytes: fixture('biologia.pdf') }])
    const res = await api(ctx.host, `personai/persona/${p.id}/ask`, {
      method: 'POST',
      token: ctx.token,
      json: { question: 'Onde acontece a respiração celular?' },
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const answer = (await res.json()) as { source: string; text: string; engine: string; sources: { title: string; quote: string }[] }
    expect(answer).toMatchObject({ source: 'knowledge', engine: 'openai', text: 'Echo: Onde acontece a respiração celular?' })
    expect(answer.sources[0]).toMatchObject({ title: 'biologia.pdf (p. 2)' })
    expect(answer.sources[0].quote).toContain('A respiração celular acontece nas mitocôndrias.')
  })
})

describe('persona item stages (seed 002 §4)', () => {
  it('a new dialog is a draft until save; a change is to_update; a removal is to_delete; save applies them in one batch', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx, { synchronized_speech: true })
    const question = { type: 'conversation', questions: ['Quando abre?'], answers: [{ type: 'text', text: 'Às 8h.' }] }
    const a = await addDialog(ctx, p.id, question)
    const b = await addDialog(ctx, p.id, { ...question, questions: ['Quando fecha?'] })
    expect([a.stage, b.stage]).toEqual(['draft', 'draft'])
    // A draft changed stays a draft (its content changes in place); a draft removed simply goes.
    const changedDraft = await api(ctx.host, `personai/persona/${p.id}/dialog/${a.id}`, {
      method: 'PUT',
      token: ctx.token,
      json: { ...question, answers: [{ type: 'text', text: 'Às 7h.' }] },
    })
    expect(await changedDraft.json()).toMatchObject({ stage: 'draft', answers: [{ text: 'Às 7h.' }] })
    const c = await addDialog(ctx, p.id, { ...question, questions: ['Tem estacionamento?'] })
    expect((await api(ctx.host, `personai/persona/${p.id}/dialog/${c.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect(await count('SELECT COUNT(*) AS n FROM persona_dialog WHERE id = ?', c.id)).toBe(0)

    expect(await (await save(ctx, p.id)).json()).toMatchObject({ applied: { added: 2, updated: 0, deleted: 0 } })
    expect((await dialogs(ctx, p.id)).items.map((d) => d.stage)).toEqual(['none', 'none'])

    // A saved dialog's change is staged: the editor sees it, what the chat reads (content) keeps the saved one.
    const put = await api(ctx.host, `personai/persona/${p.id}/dialog/${a.id}`, {
      method: 'PUT',
      token: ctx.token,
      json: { ...question, questions: ['Que horas abre?'] },
    })
    expect(await put.json()).toMatchObject({ stage: 'to_update', questions: ['Que horas abre?'] })
    const stored = await env.DB.prepare('SELECT content FROM persona_dialog WHERE id = ?').bind(a.id).first<{ content: string }>()
    expect(JSON.parse(stored!.content).questions).toEqual(['Quando abre?'])
    expect((await api(ctx.host, `personai/persona/${p.id}/dialog/${b.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect((await dialogs(ctx, p.id)).items.map((d) => [d.id, d.stage])).toEqual([
      [a.id, 'to_update'],
      [b.id, 'to_delete'],
    ])
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/dialog/${b.id}`, { method: 'PUT', token: ctx.token, json: question }), 409, 'to_delete')
    expect(await (await api(ctx.host, `personai/persona/${p.id}/stages`, { token: ctx.token })).json()).toEqual({
      none: 0,
      draft: 0,
      to_update: 1,
      to_delete: 1,
    })

    expect(await (await save(ctx, p.id)).json()).toMatchObject({ applied: { added: 0, updated: 1, deleted: 1 } })
    const after = await dialogs(ctx, p.id)
    expect(after.items.map((d) => [d.id, d.stage, d.questions])).toEqual([[a.id, 'none', ['Que horas abre?']]])
    const row = await env.DB.prepare('SELECT content, staged FROM persona_dialog WHERE id = ?').bind(a.id).first<{ content: string; staged: string | null }>()
    expect(JSON.parse(row!.content).questions).toEqual(['Que horas abre?'])
    expect(row!.staged).toBeNull()
  })
})

describe('persona knowledge', () => {
  const files = () => [
    { name: 'biologia.pdf', bytes: fixture('biologia.pdf'), type: 'application/pdf' },
    { name: 'sistema-solar.pptx', bytes: fixture('sistema-solar.pptx') },
    { name: 'ciclo-da-agua.txt', bytes: fixture('ciclo-da-agua.txt'), type: 'text/plain' },
  ]

  it('processes real PDF, PPTX and TXT files into chunks, and retrieval over them answers with a citation', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx)
    const res = await upload(ctx, p.id, files())
    expect(res.status, await res.clone().text()).toBe(201)
    const created = (await res.json()) as KnowledgeUploadResult
    expect(created.items.map((i) => [i.type, i.stage])).toEqual([
      ['pdf', 'draft'],
      ['pptx', 'draft'],
      ['txt', 'draft'],
    ])
    expect(created.warnings).toEqual([])
    // The job ran in the background of the upload (ctx.waitUntil; the test helper awaits it).
    const { items } = await knowledge(ctx, p.id)
    expect(items.map((i) => [i.source, i.status, i.reason])).toEqual([
      ['biologia.pdf', 'processed', null],
      ['sistema-solar.pptx', 'processed', null],
      ['ciclo-da-agua.txt', 'processed', null],
    ])
    for (const i of items) {
      expect(i.chunk_count).toBeGreaterThan(0)
      expect(await count('SELECT COUNT(*) AS n FROM persona_knowledge_chunk WHERE item_id = ?', i.id)).toBe(i.chunk_count)
    }
    // Drafts are not what the public chat knows until the save; the editor's test chat reads them.
    expect(await knowledgeCorpus(env.DB, ctx.code, p.id)).toEqual([])
    expect((await save(ctx, p.id)).status).toBe(200)
    const corpus = await knowledgeCorpus(env.DB, ctx.code, p.id)
    expect(new Set(corpus.map((c) => c.source))).toEqual(new Set(items.map((i) => i.id)))

    const index = new Bm25Index(corpus)
    const question = 'Onde acontece a fotossíntese?'
    const passages = bestPassages(question, index.search(question), 1)
    // The page's heading runs into its first sentence in the PDF's text (pdf.js joins them on one line).
    expect(passages[0]).toMatchObject({ title: 'biologia.pdf (p. 1)', source: items[0].id })
    expect(passages[0].quote).toContain('A fotossíntese acontece nos cloroplastos das células das folhas.')
    expect(extractiveAnswer(passages)).toBe(`De “biologia.pdf (p. 1)”: ${passages[0].quote} [1]`)
    const slide = bestPassages('Qual é a estrela do sistema solar?', index.search('Qual é a estrela do sistema solar?'), 1)
    expect(slide[0]).toMatchObject({ title: 'sistema-solar.pptx (slide 1)', quote: 'O Sol é a estrela do sistema solar.' })

    // Deleting the persona takes its items, their chunks and their files.
    const keys = (await env.DB.prepare('SELECT file_key FROM persona_knowledge WHERE persona_id = ?').bind(p.id).all<{ file_key: string }>()).results
    expect(keys).toHaveLength(3)
    expect((await api(ctx.host, `personai/persona/${p.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect(await count('SELECT COUNT(*) AS n FROM persona_knowledge WHERE persona_id = ?', p.id)).toBe(0)
    expect(await count('SELECT COUNT(*) AS n FROM persona_knowledge_chunk WHERE persona_id = ?', p.id)).toBe(0)
    for (const k of keys) expect(await env.FILES.get(k.file_key)).toBeNull()
  })

  it('rejects duplicates with a warning, invalid types and going past 5 items; lessons are not counted', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx)
    expect((await upload(ctx, p.id, files())).status).toBe(201)

    // Same name and type again (and twice in one upload): skipped with a warning; the new one is added.
    const again = await upload(ctx, p.id, [
      { name: 'BIOLOGIA.pdf', bytes: fixture('biologia.pdf') },
      { name: 'notas.txt', bytes: new TextEncoder().encode('Notas de aula sobre a célula.') },
      { name: 'notas.txt', bytes: new TextEncoder().encode('Outra cópia.') },
    ])
    expect(again.status).toBe(201)
    const body = (await again.json()) as KnowledgeUploadResult
    expect(body.items.map((i) => i.source)).toEqual(['notas.txt'])
    expect(body.warnings.map((w) => [w.field, w.cause, w.value])).toEqual([
      ['files.0', 'duplicate', 'BIOLOGIA.pdf'],
      ['files.2', 'duplicate', 'notas.txt'],
    ])
    const onlyDup = await upload(ctx, p.id, [{ name: 'notas.txt', bytes: new TextEncoder().encode('x') }])
    expect(onlyDup.status).toBe(200)
    expect(((await onlyDup.json()) as KnowledgeUploadResult).warnings.map((w) => w.cause)).toEqual(['duplicate'])

    // Invalid types: another extension, a content type of another kind, a file that is not what its extension says.
    for (const bad of [
      { name: 'texto.docx', bytes: fixture('sistema-solar.pptx') },
      { name: 'foto.png', bytes: fixture('biologia.pdf') },
      { name: 'slides.pptx', bytes: fixture('biologia.pdf') },
      { name: 'resumo.txt', bytes: new TextEncoder().encode('oi'), type: 'image/png' },
    ]) {
      const refused = await expectEnvelope(await upload(ctx, p.id, [bad]), 422, 'invalid_type')
      expect(refused.errors[0]).toMatchObject({ field: 'files.0', value: bad.name })
    }
    await expectEnvelope(await upload(ctx, p.id, [{ name: 'grande.txt', bytes: new Uint8Array(KNOWLEDGE_FILE_MAX + 1).fill(97) }]), 422, 'max_size')
    await expectEnvelope(await upload(ctx, p.id, [{ name: 'nada.txt', bytes: new Uint8Array(0) }]), 422, 'empty')
    // Lessons are not counted: the persona holds 4 counted items and takes a lesson, then one more file, then no more.
    const lesson = await api(ctx.host, `personai/persona/${p.id}/knowledge/lesson`, {
      method: 'POST',
      token: ctx.token,
      json: { lesson_id: 'lesson-1', title: 'Aula 1' },
    })
    expect(lesson.status, await lesson.clone().text()).toBe(201)
    const two = [
      { name: 'a.txt', bytes: new TextEncoder().encode('Primeiro texto.') },
      { name: 'b.txt', bytes: new TextEncoder().encode('Segundo texto.') },
    ]
    const tooMany = await expectEnvelope(await upload(ctx, p.id, two), 422, 'max_items')
    expect(tooMany.errors[0].value).toEqual({ max: 5, current: 4, adding: 2 })
    expect((await upload(ctx, p.id, two.slice(0, 1))).status).toBe(201)
    await expectEnvelope(await upload(ctx, p.id, two.slice(1)), 422, 'max_items')
    await expectEnvelope(
      await api(ctx.host, `personai/persona/${p.id}/knowledge/url`, {
        method: 'POST',
        token: ctx.token,
        json: { url: `${env.TEST_AI_PROVIDERS}/pages/vulcoes.html` },
      }),
      422,
      'max_items',
    )
    const listed = await knowledge(ctx, p.id)
    expect(listed).toMatchObject({ counted: 5, max: 5 })
    expect(listed.items.map((i) => i.type).sort()).toEqual(['lesson', 'pdf', 'pptx', 'txt', 'txt', 'txt'])

    // An item to delete no longer counts: one removed (after a save, so it is to_delete) makes room for another.
    expect((await save(ctx, p.id)).status).toBe(200)
    const txt = listed.items.find((i) => i.source === 'a.txt')!
    expect((await api(ctx.host, `personai/persona/${p.id}/knowledge/${txt.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect((await upload(ctx, p.id, two.slice(1))).status).toBe(201)
  })

  it('reads a web page in the Worker; refuses the five restricted video sites, also behind a redirect; fails an unreachable page with its reason', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx)
    const url = (u: string) => api(ctx.host, `personai/persona/${p.id}/knowledge/url`, { method: 'POST', token: ctx.token, json: { url: u } })
    for (const video of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://vimeo.com/123456789',
      'https://www.dailymotion.com/video/x7',
      'https://www.tiktok.com/@a/video/1',
      'https://www.twitch.tv/videos/1',
    ]) {
      expect(isRestrictedVideoUrl(video)).toBe(true)
      await expectEnvelope(await url(video), 400)
    }
    expect(isRestrictedVideoUrl('https://notyoutube.com/x')).toBe(false)
    await expectEnvelope(await url('ftp://exemplo.org/a.txt'), 400)

    const page = await url(`${env.TEST_AI_PROVIDERS}/pages/vulcoes.html`)
    expect(page.status, await page.clone().text()).toBe(201)
    const dup = await url(`${env.TEST_AI_PROVIDERS}/pages/vulcoes.html`)
    expect(((await dup.json()) as KnowledgeUploadResult).warnings.map((w) => w.cause)).toEqual(['duplicate'])
    expect((await url(`${env.TEST_AI_PROVIDERS}/pages/to-video`)).status).toBe(201)
    expect((await url(`${env.TEST_AI_PROVIDERS}/pages/missing`)).status).toBe(201)
    const { items } = await knowledge(ctx, p.id)
    expect(items.map((i) => [i.source.replace(env.TEST_AI_PROVIDERS, ''), i.status, i.reason])).toEqual([
      ['/pages/vulcoes.html', 'processed', null],
      ['/pages/to-video', 'failed', 'restricted_video_site'],
      ['/pages/missing', 'failed', 'fetch_failed'],
    ])
    const { results } = await env.DB.prepare('SELECT text FROM persona_knowledge_chunk WHERE item_id = ? ORDER BY position')
      .bind(items[0].id)
      .all<{ text: string }>()
    const text = results.map((r) => r.text).join(' ')
    expect(text).toContain('O magma sobe pela chaminé do vulcão até a cratera.')
    expect(text).toContain('lava & forma rochas ígneas')
    expect(text).not.toContain('não é conteúdo')
    expect(text).not.toContain('Contato')
  })

  it('a pending item cannot be deleted; a stale attempt is run again; a failed item can be processed again', async () => {
    const ctx = await setup()
    const p = await createPersona(ctx)
    const at = new Date(Date.now() - STALE_MS - 1000).toISOString()
    const key = `${ctx.code}/knowledge/${p.id}/kpending.txt`
    await env.FILES.put(key, 'O ciclo da água tem evaporação, condensação e precipitação.')
    await env.DB.prepare(
      "INSERT INTO persona_knowledge (id, realm, persona_id, type, source, title, file_key, size, status, started_at, attempts, stage, created_at, updated_at) VALUES ('kpending', ?, ?, 'txt', 'agua.txt', 'agua.txt', ?, 10, 'pending', ?, 1, 'none', ?, ?)",
    )
      .bind(ctx.code, p.id, key, new Date().toISOString(), at, at)
      .run()
    // Its attempt is running (started now): pending, so neither it nor its persona can be deleted.
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/knowledge/kpending`, { method: 'DELETE', token: ctx.token }), 409, 'pending')
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}`, { method: 'DELETE', token: ctx.token }), 409, 'pending')
    // Another runner does not take over a running attempt…
    await processKnowledge(env, ctx.code, p.id, 'kpending')
    expect((await knowledge(ctx, p.id)).items[0].status).toBe('pending')
    // …but one that died: its start is older than STALE_MS, and the list runs it again.
    await env.DB.prepare('UPDATE persona_knowledge SET started_at = ? WHERE id = ?').bind(at, 'kpending').run()
    await knowledge(ctx, p.id)
    const [item] = (await knowledge(ctx, p.id)).items
    expect(item).toMatchObject({ status: 'processed', chunk_count: 1 })
    expect((await env.DB.prepare('SELECT attempts FROM persona_knowledge WHERE id = ?').bind('kpending').first<{ attempts: number }>())?.attempts).toBe(2)

    // A file that is not what it says fails with the reason; sent back, it is processed again (and fails again).
    const broken = await upload(ctx, p.id, [{ name: 'vazio.txt', bytes: new TextEncoder().encode('   \n  ') }])
    const brokenId = ((await broken.json()) as KnowledgeUploadResult).items[0].id
    expect((await knowledge(ctx, p.id)).items.find((i) => i.id === brokenId)).toMatchObject({ status: 'failed', reason: 'empty' })
    const retry = await api(ctx.host, `personai/persona/${p.id}/knowledge/${brokenId}/process`, { method: 'POST', token: ctx.token })
    expect(retry.status).toBe(202)
    expect((await knowledge(ctx, p.id)).items.find((i) => i.id === brokenId)).toMatchObject({ status: 'failed', reason: 'empty' })
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/knowledge/kpending/process`, { method: 'POST', token: ctx.token }), 409, 'not_failed')

    // A failed draft goes at once (its file with it); a saved item is to_delete until the save removes it and its chunks.
    expect((await api(ctx.host, `personai/persona/${p.id}/knowledge/${brokenId}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect(await count('SELECT COUNT(*) AS n FROM persona_knowledge WHERE id = ?', brokenId)).toBe(0)
    const retitle = await api(ctx.host, `personai/persona/${p.id}/knowledge/kpending`, { method: 'PUT', token: ctx.token, json: { title: 'Água' } })
    expect(await retitle.json()).toMatchObject({ title: 'Água', stage: 'to_update' })
    expect((await api(ctx.host, `personai/persona/${p.id}/knowledge/kpending`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    expect((await knowledge(ctx, p.id)).items[0]).toMatchObject({ stage: 'to_delete', title: 'agua.txt' })
    expect((await save(ctx, p.id)).status).toBe(200)
    expect(await count('SELECT COUNT(*) AS n FROM persona_knowledge_chunk WHERE item_id = ?', 'kpending')).toBe(0)
    expect(await count('SELECT COUNT(*) AS n FROM persona_knowledge WHERE persona_id = ?', p.id)).toBe(0)
    expect(await env.FILES.get(key)).toBeNull()
  })
})
