import { env } from 'cloudflare:test'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import type { AiStatus } from '#shared/schemas/ai'
import { monthOf, textFor } from '../../worker/ai'
import { LocalEngine } from '../../worker/ai/local'
import { DidAnimation, ElevenlabsVoiceClone } from '../../worker/ai/media'
import { OpenAiEngine } from '../../worker/ai/openai'
import { paidOperation } from '../../worker/ai/paid'
import { Bm25Index, bestPassages, tokenize, type Chunk } from '../../worker/ai/retrieval'
import { AiError, type StreamEvent } from '../../worker/ai/types'
import { WorkersAiEngine } from '../../worker/ai/workers-ai'
import { creditsUsed } from '../../worker/db/ai'
import { ApiError } from '../../worker/lib/errors'
import { aiRealm, fund } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'
import { expectInvariants } from './ledger-helpers'

const PROVIDERS = () => env.TEST_AI_PROVIDERS
const script = (model: string, replies: unknown[]) =>
  fetch(`${PROVIDERS()}/__script`, { method: 'POST', body: JSON.stringify({ model, replies }) }).then((r) => r.json())
type Received = {
  path: string
  auth: string | null
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: unknown; source_url?: string; name?: string }
}
const requests = async (filter: (r: Received) => boolean) => ((await (await fetch(`${PROVIDERS()}/__requests`)).json()) as Received[]).filter(filter)
const ofModel = (model: string) => requests((r) => r.body?.model === model)
const unique = (p: string) => `${p}-${crypto.randomUUID().slice(0, 8)}`
const engine = (model: string, o: { key?: string; timeoutMs?: number } = {}) =>
  new OpenAiEngine({ endpoint: `${PROVIDERS()}/v1`, model, apiKey: o.key ?? 'test-ai-key', timeoutMs: o.timeoutMs })

async function collect(events: AsyncIterable<StreamEvent>) {
  const deltas: string[] = []
  let done: Extract<StreamEvent, { type: 'done' }> | null = null
  for await (const e of events) {
    if (e.type === 'delta') deltas.push(e.text)
    else done = e
  }
  return { deltas, done }
}

async function failure(p: Promise<unknown> | (() => Promise<unknown>)): Promise<unknown> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (err) {
    return err
  }
  throw new Error('expected a failure')
}

const Summary = v.object({ title: v.pipe(v.string(), v.minLength(3)), points: v.pipe(v.array(v.string()), v.minLength(2)) })

const CORPUS: Chunk[] = [
  {
    id: 'c1',
    source: 'k1',
    title: 'Fotossíntese.pdf',
    text: 'A fotossíntese acontece nos cloroplastos. As plantas usam luz, água e gás carbônico para produzir glicose.',
  },
  { id: 'c2', source: 'k1', title: 'Fotossíntese.pdf', text: 'A respiração celular libera energia. Ela acontece nas mitocôndrias de quase todas as células.' },
  {
    id: 'c3',
    source: 'k2',
    title: 'Water cycle.txt',
    text: 'Water evaporates from the oceans. Clouds form when vapour condenses, and rain returns water to the ground.',
  },
]

describe('retrieval (BM25, no embeddings)', () => {
  it('folds accents and case, drops stopwords and trims plurals', () => {
    expect(tokenize('O que é a Fotossíntese das PLANTAS?')).toEqual(['fotossintese', 'planta'])
  })

  it('ranks the passage that holds the question’s words first, and the same way every time', () => {
    const index = new Bm25Index(CORPUS)
    const first = index.search('Onde acontece a fotossintese?')
    // c2 matches by its title and "acontece"; c1 holds both terms in its text as well.
    expect(first.map((h) => h.chunk.id)).toEqual(['c1', 'c2'])
    expect(first[0].score).toBeGreaterThan(first[1].score)
    expect(index.search('onde acontece a respiração celular').map((h) => h.chunk.id)[0]).toBe('c2')
    expect(index.search('how do clouds form').map((h) => h.chunk.id)).toEqual(['c3'])
    expect(index.search('Onde acontece a fotossintese?')).toEqual(first)
    expect(index.search('astronomia galáxias')).toEqual([])
  })

  it('quotes the best sentences of the hits, never one without a query term', () => {
    const index = new Bm25Index(CORPUS)
    const quotes = bestPassages('onde acontece a fotossíntese', index.search('onde acontece a fotossíntese'))
    expect(quotes[0]).toMatchObject({ id: 'c1', source: 'k1', title: 'Fotossíntese.pdf', quote: 'A fotossíntese acontece nos cloroplastos.' })
    expect(quotes.every((q) => /fotoss|acontece/i.test(q.quote))).toBe(true)
  })
})

describe('the local engine (offline, deterministic, says what it is)', () => {
  const sources = bestPassages('clouds form', new Bm25Index(CORPUS).search('clouds form'))

  it('answers by quoting the retrieved passages word for word, citing each, as engine local', async () => {
    const { deltas, done } = await collect(new LocalEngine().stream({ messages: [{ role: 'user', content: 'clouds form?' }], sources, language: 'en-US' }))
    expect(done?.engine).toBe('local')
    expect(done?.text).toBe('From “Water cycle.txt”: Clouds form when vapour condenses, and rain returns water to the ground. [1]')
    expect(deltas.join('')).toBe(done?.text)
    expect(done?.sources.map((s) => s.id)).toEqual(['c3'])
    expect(done?.usage.total_tokens).toBe(0)
  })

  it('generates structured data only from a feature’s template, validated by the same schema', async () => {
    const local = new LocalEngine()
    const out = await local.generate({
      schema: Summary,
      shape: '',
      prompt: '',
      sources,
      local: (s) => ({ title: s[0].title, points: s.map((x) => x.quote).concat('—') }),
    })
    expect(out).toMatchObject({ engine: 'local', attempts: 1, data: { title: 'Water cycle.txt' } })
    expect(await failure(local.generate({ schema: Summary, shape: '', prompt: 'x' }))).toMatchObject({ code: 'ai_unsupported' })
    expect(await failure(local.generate({ schema: Summary, shape: '', prompt: '', local: () => ({ title: 'no' }) }))).toMatchObject({ code: 'ai_failed' })
  })
})

describe('the OpenAI-compatible adapter, against the local chat-completions server', () => {
  it('asks for JSON with the realm’s key and model, and validates the answer with the caller’s schema', async () => {
    const model = unique('m')
    await script(model, [{ content: JSON.stringify({ title: 'Ciclo da água', points: ['evaporação', 'chuva'] }) }])
    const out = await engine(model).generate({ schema: Summary, shape: '{ title, points[] }', prompt: 'Resuma' })
    expect(out).toMatchObject({ engine: 'openai', attempts: 1, data: { title: 'Ciclo da água', points: ['evaporação', 'chuva'] } })
    expect(out.usage.total_tokens).toBeGreaterThan(0)
    const [sent] = await ofModel(model)
    expect(sent.auth).toBe('Bearer test-ai-key')
    expect(sent.body.response_format).toEqual({ type: 'json_object' })
    expect(sent.body.messages?.[0].content).toContain('{ title, points[] }')
  })

  it('retries once with the validation errors, then fails with the seed’s “failed to generate”', async () => {
    const model = unique('m')
    await script(model, [{ content: '{"title":"ok"}' }, { content: JSON.stringify({ title: 'Fixed', points: ['a', 'b'] }) }])
    const out = await engine(model).generate({ schema: Summary, shape: '{ title, points[] }', prompt: 'Resuma' })
    expect(out.attempts).toBe(2)
    const [, retry] = await ofModel(model)
    expect(retry.body.messages?.at(-1)?.content).toContain('points')
    expect(retry.body.messages?.at(-2)).toEqual({ role: 'assistant', content: '{"title":"ok"}' })

    const broken = unique('m')
    await script(broken, [{ content: 'not json at all' }, { content: '{"title":"x"}' }])
    const err = await failure(engine(broken).generate({ schema: Summary, shape: '', prompt: 'Resuma' }))
    expect(err).toBeInstanceOf(AiError)
    expect(err).toMatchObject({ code: 'ai_failed', message: 'ai.error.failed_to_generate' })
    expect(await ofModel(broken)).toHaveLength(2)
  })

  it('reports a failing provider, a refused key and a stalled one as provider failures', async () => {
    const model = unique('m')
    await script(model, [{ status: 500 }])
    expect(await failure(engine(model).generate({ schema: Summary, shape: '', prompt: 'x' }))).toMatchObject({ code: 'ai_provider_failed' })
    expect(await failure(engine(model, { key: 'wrong' }).generate({ schema: Summary, shape: '', prompt: 'x' }))).toMatchObject({ code: 'ai_provider_auth' })
    const stalled = unique('m')
    // The one deliberate stall of this file: the adapter gives up after its timeout (300 ms here) instead of hanging.
    await script(stalled, [{ stall: true }])
    expect(await failure(engine(stalled, { timeoutMs: 300 }).generate({ schema: Summary, shape: '', prompt: 'x' }))).toMatchObject({
      code: 'ai_provider_failed',
      detail: 'timeout',
    })
  })

  it('streams the answer as it is generated, with the usage the server reports and the passages it cites', async () => {
    const model = unique('m')
    const sources = bestPassages('clouds form', new Bm25Index(CORPUS).search('clouds form'))
    const content = 'Clouds form when vapour condenses [1].'
    await script(model, [{ content, usage: { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 } }])
    const { deltas, done } = await collect(engine(model).stream({ messages: [{ role: 'user', content: 'How do clouds form?' }], sources }))
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.join('')).toBe(content)
    expect(done).toMatchObject({ engine: 'openai', text: content, usage: { total_tokens: 50 } })
    expect(done?.sources.map((s) => s.id)).toEqual(['c3'])
    const [sent] = await ofModel(model)
    expect(sent.body.messages?.[0].content).toContain('[1] (Water cycle.txt) Clouds form')
  })

  it('fails a stream that stops in the middle', async () => {
    const model = unique('m')
    await script(model, [{ content: 'A long answer that never ends', stall: true }])
    const seen: string[] = []
    const err = await failure(async () => {
      for await (const e of engine(model, { timeoutMs: 300 }).stream({ messages: [{ role: 'user', content: 'x' }] })) if (e.type === 'delta') seen.push(e.text)
    })
    expect(err).toMatchObject({ code: 'ai_provider_failed' })
    expect(seen.join('')).toBe('A lon')
  })
})

describe('the Workers AI adapter (the AI binding’s documented answers)', () => {
  // No HTTP protocol to serve here: the binding is Cloudflare's; this stand-in answers exactly as `env.AI.run` documents.
  const binding = {
    calls: [] as { model: string; inputs: Record<string, unknown> }[],
    async run(model: string, inputs: Record<string, unknown>) {
      this.calls.push({ model, inputs })
      if (inputs.stream) {
        const events = [
          '{"response":"Olá"}',
          '{"response":", mundo"}',
          '{"response":"","usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}',
          '[DONE]',
        ]
        return new Response(events.map((e) => `data: ${e}\n\n`).join('')).body
      }
      return { response: { title: 'Workers', points: ['a', 'b'] } }
    },
  }

  it('generates validated data and streams the response events', async () => {
    const ai = new WorkersAiEngine(binding, '@cf/meta/llama-3.1-8b-instruct')
    expect((await ai.generate({ schema: Summary, shape: '', prompt: 'x' })).data).toEqual({ title: 'Workers', points: ['a', 'b'] })
    const { deltas, done } = await collect(ai.stream({ messages: [{ role: 'user', content: 'oi' }] }))
    expect(deltas).toEqual(['Olá', ', mundo'])
    expect(done).toMatchObject({ engine: 'workers_ai', text: 'Olá, mundo', usage: { total_tokens: 8 } })
    expect(binding.calls[0].model).toBe('@cf/meta/llama-3.1-8b-instruct')
  })
})

describe('the per-realm monthly cap', () => {
  it('meters remote calls in credits, and refuses work beyond the cap before calling the provider', async () => {
    const realm = await aiRealm({ cap: 3 })
    const month = monthOf('America/Sao_Paulo')
    // 2,400 tokens reported: 3 credits (one per started 1,000).
    await script(realm.model, [
      { content: JSON.stringify({ title: 'Uma', points: ['a', 'b'] }), usage: { prompt_tokens: 2000, completion_tokens: 400, total_tokens: 2400 } },
    ])
    const { engine: metered } = await textFor(env, realm.code)
    await metered.generate({ schema: Summary, shape: '', prompt: 'x', maxTokens: 100 })
    expect(await creditsUsed(env.DB, realm.code, month)).toBe(3)
    const before = (await ofModel(realm.model)).length
    const err = await failure(metered.generate({ schema: Summary, shape: '', prompt: 'x', maxTokens: 100 }))
    expect(err).toMatchObject({ code: 'ai_cap_reached' })
    expect(await ofModel(realm.model)).toHaveLength(before)
    expect(await creditsUsed(env.DB, realm.code, month)).toBe(3)
  })

  it('gives the reservation back when the provider fails, and never meters the local engine', async () => {
    const realm = await aiRealm({ cap: 10 })
    const month = monthOf('America/Sao_Paulo')
    await script(realm.model, [{ status: 503 }])
    const { engine: metered } = await textFor(env, realm.code)
    expect(await failure(metered.generate({ schema: Summary, shape: '', prompt: 'x', maxTokens: 100 }))).toMatchObject({ code: 'ai_provider_failed' })
    expect(await creditsUsed(env.DB, realm.code, month)).toBe(0)

    const local = await aiRealm({ provider: 'local', cap: 0 })
    const { engine: offline } = await textFor(env, local.code)
    expect(offline.kind).toBe('local')
    const { done } = await collect(offline.stream({ messages: [{ role: 'user', content: 'x' }], sources: [] }))
    expect(done?.engine).toBe('local')
  })

  it('counts a stream by the usage it reports', async () => {
    const realm = await aiRealm({ cap: 100 })
    await script(realm.model, [{ content: 'Resposta.', usage: { prompt_tokens: 1500, completion_tokens: 600, total_tokens: 2100 } }])
    const { engine: metered } = await textFor(env, realm.code)
    await collect(metered.stream({ messages: [{ role: 'user', content: 'x' }], maxTokens: 100 }))
    expect(await creditsUsed(env.DB, realm.code, monthOf('America/Sao_Paulo'))).toBe(3)
  })

  it('falls back to the local engine, and says why, when the chosen provider lacks a setting', async () => {
    const realm = await aiRealm({ model: '' })
    const chosen = await textFor(env, realm.code)
    expect(chosen.engine.kind).toBe('local')
    expect(chosen.problem).toBe('ai_not_configured')
    const workers = await aiRealm({ provider: 'workers_ai' })
    expect((await textFor(env, workers.code)).problem).toBe('ai_binding_missing')
  })
})

describe('paid operations (credits before cost)', () => {
  const did = () => new DidAnimation(PROVIDERS(), 'test-ai-key')
  const animate = (imageUrl: string) => async () => {
    const job = await did().start({ kind: 'talk', imageUrl, text: 'Olá!' })
    return { ref: job.ref, status: job.status }
  }
  const talksOf = (imageUrl: string) => requests((r) => r.path === '/talks' && r.body?.source_url === imageUrl)

  it('debits once per idempotency key and calls the provider once', async () => {
    const realm = await aiRealm()
    const staff = await userWith(realm.code, ['dashboard_dashboard_access'])
    await fund(realm.code, 200, staff.nick)
    const image = `https://cdn.example/${unique('img')}.png`
    const request = { kind: 'animation' as const, provider: 'did', idempotencyKey: unique('key'), confirmPoints: 60, request: { image } }
    const first = await paidOperation(env, { realm: realm.code, nick: staff.nick }, request, animate(image))
    expect(first).toMatchObject({ replayed: false, operation: { status: 'succeeded', points: 60, provider: 'did', result: { status: 'pending' } } })
    const again = await paidOperation(env, { realm: realm.code, nick: staff.nick }, request, animate(image))
    expect(again).toMatchObject({ replayed: true, operation: { id: first.operation.id, debit_transaction: first.operation.debit_transaction } })
    expect(await talksOf(image)).toHaveLength(1)
    const wallet = await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${realm.code}:${staff.nick}`).first<number>('balance')
    expect(wallet).toBe(140)
    expect(await creditsUsed(env.DB, realm.code, monthOf('America/Sao_Paulo'))).toBe(60)
    // The same key for another request is refused, not run.
    expect(
      await failure(paidOperation(env, { realm: realm.code, nick: staff.nick }, { ...request, request: { image: 'other' } }, animate(image))),
    ).toMatchObject({
      status: 422,
      errors: [{ cause: 'idempotency_mismatch' }],
    })
    await expectInvariants()
  })

  it('refunds by reversal when the provider fails, and answers the refund again for the same key', async () => {
    const realm = await aiRealm()
    const staff = await userWith(realm.code, ['dashboard_dashboard_access'])
    await fund(realm.code, 100, staff.nick)
    const image = `https://cdn.example/fail-${unique('img')}.png`
    const request = { kind: 'animation' as const, provider: 'did', idempotencyKey: unique('key'), confirmPoints: 60, request: { image } }
    const err = await failure(paidOperation(env, { realm: realm.code, nick: staff.nick }, request, animate(image)))
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({
      status: 502,
      errors: [{ cause: 'ai_provider_failed', message: 'ai.error.provider_failed_refunded', value: { refunded: true } }],
    })
    const op = await env.DB.prepare('SELECT * FROM ai_operation WHERE realm = ? AND idempotency_key = ?')
      .bind(realm.code, request.idempotencyKey)
      .first<Record<string, string>>()
    expect(op).toMatchObject({ status: 'refunded' })
    const reversal = await env.DB.prepare('SELECT reverses, type FROM ledger_transaction WHERE id = ?').bind(op?.reversal_transaction).first()
    expect(reversal).toEqual({ reverses: op?.debit_transaction, type: 'reversal' })
    const wallet = await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${realm.code}:${staff.nick}`).first<number>('balance')
    expect(wallet).toBe(100)
    expect(await creditsUsed(env.DB, realm.code, monthOf('America/Sao_Paulo'))).toBe(0)
    expect(await failure(paidOperation(env, { realm: realm.code, nick: staff.nick }, request, animate(image)))).toMatchObject({ status: 502 })
    expect(await talksOf(image)).toHaveLength(1)
    await expectInvariants()
  })

  it('refuses a short wallet with “insufficient credits to generate an animation”, before the provider', async () => {
    const realm = await aiRealm()
    const staff = await userWith(realm.code, ['dashboard_dashboard_access'])
    await fund(realm.code, 59, staff.nick)
    const image = `https://cdn.example/${unique('img')}.png`
    const err = await failure(
      paidOperation(
        env,
        { realm: realm.code, nick: staff.nick },
        { kind: 'animation', provider: 'did', idempotencyKey: unique('key'), confirmPoints: 60, request: { image } },
        animate(image),
      ),
    )
    expect(err).toMatchObject({
      status: 422,
      errors: [{ cause: 'insufficient_credits', message: 'persona.error.insufficient_credits_animation', value: { required: 60, available: 59 } }],
    })
    expect(await talksOf(image)).toHaveLength(0)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM ai_operation WHERE realm = ?').bind(realm.code).first<number>('n')).toBe(0)
    expect(await creditsUsed(env.DB, realm.code, monthOf('America/Sao_Paulo'))).toBe(0)
  })

  it('refuses a price the user did not confirm, and work beyond the monthly cap, debiting nothing', async () => {
    const realm = await aiRealm({ cap: 100 })
    const staff = await userWith(realm.code, ['dashboard_dashboard_access'])
    await fund(realm.code, 500, staff.nick)
    const actor = { realm: realm.code, nick: staff.nick }
    const clone = (name: string) => async () =>
      new ElevenlabsVoiceClone(PROVIDERS(), 'test-ai-key').clone({ name, sample: new Blob(['RIFF']), fileName: 'voz.wav' })
    expect(
      await failure(
        paidOperation(env, actor, { kind: 'voice_clone', provider: 'elevenlabs', idempotencyKey: unique('key'), confirmPoints: 60, request: {} }, clone('a')),
      ),
    ).toMatchObject({
      status: 409,
      errors: [{ cause: 'price_changed', value: { points: 100 } }],
    })
    const ok = await paidOperation(
      env,
      actor,
      { kind: 'voice_clone', provider: 'elevenlabs', idempotencyKey: unique('key'), confirmPoints: 100, request: { n: 1 } },
      clone('Minha voz'),
    )
    expect(ok.operation.result).toMatchObject({ voice_code: expect.stringMatching(/^voice_/) })
    expect(
      await failure(
        paidOperation(
          env,
          actor,
          { kind: 'voice_clone', provider: 'elevenlabs', idempotencyKey: unique('key'), confirmPoints: 100, request: { n: 2 } },
          clone('b'),
        ),
      ),
    ).toMatchObject({
      status: 429,
      errors: [{ cause: 'ai_cap_reached' }],
    })
    const wallet = await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${realm.code}:${staff.nick}`).first<number>('balance')
    expect(wallet).toBe(400)
  })
})

describe('speech synthesis (POST /api/ai/speech)', () => {
  const say = async (realm: { host: string }, token: string, text: string, voice: Record<string, unknown>) =>
    api(realm.host, 'ai/speech', { method: 'POST', token, json: { text, voice } })
  const decoded = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)))

  it('speaks with each provider’s protocol and the voice’s settings, metered against the cap', async () => {
    const realm = await aiRealm({ cap: 3 })
    const editor = await userWith(realm.code, ['dashboard_dashboard_access', 'persona_persona_edit'])
    const google = await say(realm, editor.token, 'Olá, turma', {
      provider: 'google',
      code: 'pt-BR-Wavenet-A',
      language: 'pt-BR',
      settings: { pitch: 1.2, speaking_rate: 1.5 },
    })
    expect(google.status).toBe(200)
    const g = (await google.json()) as { engine: string; audio: string; content_type: string }
    expect(g).toMatchObject({ engine: 'google', content_type: 'audio/mpeg' })
    expect(decoded(g.audio)).toBe('google:Olá, turma')
    const [sentGoogle] = await requests((r) => r.path === '/v1/text:synthesize' && JSON.stringify(r.body).includes('Olá, turma'))
    expect(sentGoogle.body).toMatchObject({
      voice: { languageCode: 'pt-BR', name: 'pt-BR-Wavenet-A' },
      audioConfig: { pitch: 1.2, speakingRate: 1.5, volumeGainDb: 0 },
    })

    const minimax = (await (
      await say(realm, editor.token, 'Bom dia', { provider: 'minimax', code: 'female-1', language: 'pt-BR', settings: { pitch: 1.4, speed: 0.5 } })
    ).json()) as { engine: string; audio: string }
    expect(minimax.engine).toBe('minimax')
    expect(decoded(minimax.audio)).toBe('minimax:Bom dia')
    const [sentMinimax] = await requests((r) => r.path === '/v1/t2a_v2' && JSON.stringify(r.body).includes('Bom dia'))
    expect(sentMinimax.body).toMatchObject({ voice_setting: { voice_id: 'female-1', speed: 0.5, pitch: 1, vol: 1 } })

    const eleven = (await (
      await say(realm, editor.token, 'Hi', { provider: 'elevenlabs', code: 'v123', language: 'en-US', settings: { stability: 0.3 } })
    ).json()) as { engine: string; audio: string }
    expect(decoded(eleven.audio)).toBe('elevenlabs:Hi')
    expect(await creditsUsed(env.DB, realm.code, monthOf('America/Sao_Paulo'))).toBe(3)
    await expectEnvelope(await say(realm, editor.token, 'Mais', { provider: 'google', code: '', language: 'pt-BR' }), 429, 'ai_cap_reached')
  })

  it('leaves speaking to the browser without a key or for a browser voice, and refunds a failed call', async () => {
    const realm = await aiRealm({ google: '', cap: 10 })
    const editor = await userWith(realm.code, ['dashboard_dashboard_access', 'persona_persona_create'])
    expect(await (await say(realm, editor.token, 'Oi', { provider: 'google', code: '', language: 'pt-BR' })).json()).toEqual({
      engine: 'browser',
      reason: 'ai_not_configured',
    })
    expect(await (await say(realm, editor.token, 'Oi', { provider: 'browser', code: '', language: 'pt-BR' })).json()).toEqual({
      engine: 'browser',
      reason: 'browser_voice',
    })
    await expectEnvelope(await say(realm, editor.token, 'please fail', { provider: 'elevenlabs', code: 'v1', language: 'pt-BR' }), 502, 'ai_provider_failed')
    await expectEnvelope(await say(realm, editor.token, 'please fail', { provider: 'minimax', code: 'v1', language: 'pt-BR' }), 502, 'ai_provider_failed')
    expect(await creditsUsed(env.DB, realm.code, monthOf('America/Sao_Paulo'))).toBe(0)
    const wrongKey = await aiRealm({ minimax: 'nope' })
    const other = await userWith(wrongKey.code, ['dashboard_dashboard_access', 'persona_persona_create'])
    await expectEnvelope(await say(wrongKey, other.token, 'Oi', { provider: 'minimax', code: 'v1', language: 'pt-BR' }), 502, 'ai_provider_auth')
  })

  it('refuses voice settings outside the seed’s ranges and steps, and callers without a persona permission', async () => {
    const realm = await aiRealm()
    const editor = await userWith(realm.code, ['dashboard_dashboard_access', 'persona_persona_edit'])
    await expectEnvelope(await say(realm, editor.token, 'Oi', { provider: 'google', code: '', language: 'pt-BR', settings: { pitch: 9 } }), 400)
    await expectEnvelope(await say(realm, editor.token, 'Oi', { provider: 'google', code: '', language: 'pt-BR', settings: { pitch: 0.3 } }), 400)
    await expectEnvelope(await say(realm, editor.token, 'Oi', { provider: 'minimax', code: '', language: 'pt-BR', settings: { speed: 4.05 } }), 400)
    await expectEnvelope(await say(realm, editor.token, 'Oi', { provider: 'minimax', code: '', language: 'pt-BR', voice_index: 5 }), 400)
    await expectEnvelope(await say(realm, editor.token, 'Oi', { provider: 'polly', code: '', language: 'pt-BR' }), 400)
    const ok = await say(realm, editor.token, 'Oi', {
      provider: 'minimax',
      code: 'v',
      language: 'pt-BR',
      settings: { pitch: -7.8, speed: 3.95 },
      voice_index: 4,
    })
    expect(ok.status).toBe(200)
    const reader = await userWith(realm.code, ['dashboard_dashboard_access', 'persona_persona_list'])
    await expectEnvelope(await say(realm, reader.token, 'Oi', { provider: 'browser', code: '', language: 'pt-BR' }), 403, 'forbidden')
  })
})

describe('GET /api/ai/status and the realm’s AI settings', () => {
  it('tells which providers have keys without ever answering a key', async () => {
    const realm = await aiRealm({ cap: 50, google: '', minimax: '' })
    const editor = await userWith(realm.code, ['dashboard_dashboard_access', 'persona_persona_list'])
    const res = await api(realm.host, 'ai/status', { token: editor.token })
    expect(res.status).toBe(200)
    const status = (await res.json()) as AiStatus
    expect(status).toMatchObject({
      text_provider: 'openai',
      text_engine: 'openai',
      text_problem: null,
      speech: { minimax: false, google: false, elevenlabs: true },
      animation: { did: true },
      cap: 50,
      used: 0,
      prices: { animation: 60, voice_clone: 100 },
    })
    expect(JSON.stringify(status)).not.toContain('test-ai-key')
    const stranger = await userWith(realm.code, ['dashboard_dashboard_access'])
    await expectEnvelope(await api(realm.host, 'ai/status', { token: stranger.token }), 403, 'forbidden')
  })

  it('keeps the provider keys write-only, audits changes masked, and refuses bad values changing nothing', async () => {
    const realm = await aiRealm({ provider: 'local' })
    const admin = await userWith(realm.code, ['dashboard_dashboard_access', 'mas_realm_get', 'mas_realm_edit'])
    const put = await api(realm.host, 'ai/settings', {
      method: 'PUT',
      token: admin.token,
      json: { did_api_key: 'did-secret-123456', monthly_credit_cap: 500, text_provider: 'openai', minimax_group_id: 'g-1' },
    })
    expect(put.status).toBe(200)
    const shown = await (await api(realm.host, 'ai/settings', { token: admin.token })).text()
    expect(shown).not.toContain('did-secret-123456')
    expect(JSON.parse(shown)).toMatchObject({ did_api_key: '********3456', monthly_credit_cap: 500, text_provider: 'openai', minimax_group_id: 'g-1' })
    // The mask sent back (a form saved as shown) and '' leave the secret as it was; null clears it.
    await api(realm.host, 'ai/settings', { method: 'PUT', token: admin.token, json: { did_api_key: '********3456', elevenlabs_api_key: '' } })
    expect((await textFor(env, realm.code)).settings).toMatchObject({ did: 'did-secret-123456', elevenlabs: 'test-ai-key', cap: 500 })
    await api(realm.host, 'ai/settings', { method: 'PUT', token: admin.token, json: { elevenlabs_api_key: null } })
    expect((await textFor(env, realm.code)).settings.elevenlabs).toBe('')
    const audit = await env.DB.prepare("SELECT changes FROM audit_log WHERE realm = ? AND entity = 'realm_ai' ORDER BY id")
      .bind(realm.code)
      .all<{ changes: string }>()
    expect(audit.results.length).toBeGreaterThan(0)
    expect(audit.results.map((r) => r.changes).join()).not.toContain('did-secret-123456')

    await expectEnvelope(await api(realm.host, 'ai/settings', { method: 'PUT', token: admin.token, json: { text_provider: 'gpt' } }), 400, 'picklist')
    await expectEnvelope(await api(realm.host, 'ai/settings', { method: 'PUT', token: admin.token, json: { monthly_credit_cap: -2 } }), 400)
    await expectEnvelope(await api(realm.host, 'ai/settings', { method: 'PUT', token: admin.token, json: { unknown_field: 1 } }), 400)
    expect(JSON.parse(await (await api(realm.host, 'ai/settings', { token: admin.token })).text())).toMatchObject({
      text_provider: 'openai',
      monthly_credit_cap: 500,
    })
    const reader = await userWith(realm.code, ['dashboard_dashboard_access', 'mas_realm_get'])
    await expectEnvelope(await api(realm.host, 'ai/settings', { method: 'PUT', token: reader.token, json: { monthly_credit_cap: 1 } }), 403, 'forbidden')
  })
})

describe('the AI settings screen (/realm/ai)', () => {
  const pt = catalogues['pt-BR']
  const post = (realm: { host: string }, cookie: string, values: Record<string, string>) => {
    const body = new FormData()
    for (const [k, value] of Object.entries(values)) body.set(k, value)
    return call(realm.host, '/realm/ai', { method: 'POST', headers: { cookie, origin: `http://${realm.host}` }, body })
  }

  it('shows the engine in use, the month’s use and which keys are set, never a key', async () => {
    const realm = await aiRealm({ cap: 40, did: 'did-secret-abcdef', google: '' })
    const admin = await userWith(realm.code, ['dashboard_dashboard_access', 'mas_realm_get', 'mas_realm_edit'])
    const res = await call(realm.host, '/realm/ai', { headers: { cookie: admin.cookie } })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(pt['pages.realm.ai'])
    expect(html).toContain(pt['ai.settings.provider.openai'])
    expect(html).toContain('0 de 40 créditos')
    expect(html).not.toContain('did-secret-abcdef')
    expect(html).toContain('********cdef')
  })

  it('saves a valid change and refuses a wrong one with the field’s error, changing nothing', async () => {
    const realm = await aiRealm({ provider: 'local', did: 'did-secret-abcdef' })
    const admin = await userWith(realm.code, ['dashboard_dashboard_access', 'mas_realm_get', 'mas_realm_edit'])
    const fields = {
      text_provider: 'openai',
      monthly_credit_cap: '250',
      minimax_group_id: 'grp-9',
      vision_provider: 'workers_ai',
      vision_model: '@cf/meta/llama-3.2-11b-vision-instruct',
      minimax_api_key: 'mm-secret-000111',
      google_api_key: '',
      elevenlabs_api_key: '********-key',
      did_api_key: '********cdef',
    }
    const saved = await post(realm, admin.cookie, fields)
    expect(saved.status).toBeLessThan(400)
    const after = (await textFor(env, realm.code)).settings
    expect(after).toMatchObject({
      textProvider: 'openai',
      cap: 250,
      minimaxGroup: 'grp-9',
      minimax: 'mm-secret-000111',
      did: 'did-secret-abcdef',
      elevenlabs: 'test-ai-key',
      visionProvider: 'workers_ai',
      visionModel: '@cf/meta/llama-3.2-11b-vision-instruct',
    })

    const refused = await post(realm, admin.cookie, { ...fields, monthly_credit_cap: '-5', text_provider: 'openai' })
    expect(refused.status).toBe(400)
    expect((await textFor(env, realm.code)).settings.cap).toBe(250)

    const reader = await userWith(realm.code, ['dashboard_dashboard_access', 'mas_realm_get'])
    const html = await (await call(realm.host, '/realm/ai', { headers: { cookie: reader.cookie } })).text()
    expect(html).toContain(pt['ai.settings.read_only'])
    // Without mas_realm_edit the action is refused as the route guard refuses (to the not-found page), saving nothing.
    const denied = await post(realm, reader.cookie, { ...fields, monthly_credit_cap: '7' })
    expect(denied.status).toBe(302)
    expect(denied.headers.get('location')).toContain('notfound')
    expect((await textFor(env, realm.code)).settings.cap).toBe(250)
  })
})
