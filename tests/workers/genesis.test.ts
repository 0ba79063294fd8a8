import { env } from 'cloudflare:test'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { CLASS_PLAN_MINUTES, CONFIG_LENGTHS, NARRATION_WORDS, SUMMARY_DEPTHS, SUMMARY_SHAPE, wordCount } from '#shared/schemas/lesson/content'
import { OPTIONS_BY_TYPE, type AnyOptions, type GenesisJob, type GenesisJobSummary } from '#shared/schemas/lesson/genesis'
import { SlideDeck, slideHasContent, type SlideObject } from '#shared/schemas/lesson/slide'
import { createObject, emptySlide } from '~/components/slide-editor/deck'
import { Question } from '#shared/schemas/tms/question'
import { LocalEngine } from '../../worker/ai/local'
import { generateContent, type GenerationContext } from '../../worker/ai/generate'
import { plainOf, sectionsOfText, unwrapLines } from '../../worker/ai/generate/text'
import { lessonSections } from '../../worker/ai/generate/sources'
import { deckPptx } from '~/components/lesson/export.client'
import { zipSync } from 'fflate'
import { aiRealm, fund } from './factories'
import { api, expectEnvelope, userWith } from './helpers'
import SOURCE from '../fixtures/genesis/ciclo-da-agua.txt?raw'

/**
 * Content generation (issue 18): content-configuration rules, the local engine's §9 lengths for every option, and
 * lesson jobs — one debit per content, failures refunded by reversal (against the local chat-completions server),
 * cancel, insufficient credits, the error envelope and realm scoping.
 */
const PROVIDERS = () => env.TEST_AI_PROVIDERS
const script = (model: string, replies: unknown[]) =>
  fetch(`${PROVIDERS()}/__script`, { method: 'POST', body: JSON.stringify({ model, replies }) }).then((r) => r.json())

const PRICES = {
  'lesson.summary': 5,
  'lesson.class_plan': 10,
  'lesson.handout': 15,
  'lesson.slides': 20,
  'lesson.narration': 25,
  'lesson.tasks': 10,
  'lesson.qa_pairs': 5,
  'tms.model_generation': 15,
}
const PERMS = [
  'mas_file_upload',
  'genesis_lesson_model_generate',
  'genesis_model_generate',
  'cgs_content_config_list',
  'cgs_content_config_get',
  'cgs_content_config_create',
  'cgs_content_config_edit',
  'cgs_content_config_delete',
  'cgs_agent_list',
  'cgs_agent_create',
  'cgs_agent_edit',
]

async function setup(provider: 'local' | 'openai' = 'local', funds = 500) {
  const realm = await aiRealm({ provider, prices: PRICES })
  const teacher = await userWith(realm.code, PERMS)
  if (funds) await fund(realm.code, funds, teacher.nick)
  return { realm, teacher }
}
type Ctx = Awaited<ReturnType<typeof setup>>
const call = (ctx: Ctx, path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
  api(ctx.realm.host, path, { token: ctx.teacher.token, ...init })
const wallet = (ctx: Ctx) =>
  env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${ctx.realm.code}:${ctx.teacher.nick}`).first<number>('balance')
const debits = (ctx: Ctx) =>
  env.DB.prepare(`SELECT COUNT(*) AS n FROM ledger_transaction WHERE realm = ? AND type = 'debit'`).bind(ctx.realm.code).first<number>('n')
const reversals = (ctx: Ctx) =>
  env.DB.prepare(`SELECT COUNT(*) AS n FROM ledger_transaction WHERE realm = ? AND type = 'reversal'`).bind(ctx.realm.code).first<number>('n')

async function runToEnd(ctx: Ctx, id: string): Promise<GenesisJob> {
  for (let i = 0; i < 12; i++) {
    const res = await call(ctx, `genesis/job/${id}/run`, { method: 'POST' })
    expect(res.status, await res.clone().text()).toBe(200)
    const job = (await res.json()) as GenesisJob
    if (job.status !== 'running') return job
  }
  throw new Error('job did not end')
}
const start = (ctx: Ctx, contents: { kind: string; confirm_points: number; config_id?: string }[], extra: Record<string, unknown> = {}) =>
  call(ctx, 'genesis/lesson_model/job', {
    method: 'POST',
    json: { sources: [{ kind: 'text', text: SOURCE }], contents, idempotency_key: crypto.randomUUID(), ...extra },
  })

// ---------- the local engine and the §9 lengths ----------

/** The fixture's section headings, in order. */
const SECTION_TITLES = [
  'O ciclo da água',
  'Evaporação',
  'Condensação',
  'Precipitação',
  'Infiltração',
  'Escoamento superficial',
  'Transpiração das plantas',
  'Ciclo da água e clima',
]

const ctxOf = (options: AnyOptions, language = 'pt-BR'): GenerationContext => ({
  title: 'O ciclo da água',
  language,
  sections: sectionsOfText(SOURCE, 'Parte'),
  options,
  guideline: '',
  agent: null,
})
const engine = new LocalEngine()
const opts = (type: keyof typeof OPTIONS_BY_TYPE, o: Record<string, unknown>) => v.parse(OPTIONS_BY_TYPE[type], o) as AnyOptions

describe('the local engine respects seed 001 §9', () => {
  it.each(SUMMARY_DEPTHS)('summary depth %s: words and paragraphs in range, every sentence from the source', async (depth) => {
    const out = await generateContent(engine, 'summary', ctxOf(opts('summary', { depth })))
    if (out.output.kind !== 'summary') throw new Error('kind')
    const paragraphs = out.output.summary.match(/<p>[\s\S]*?<\/p>/g) ?? []
    const words = wordCount(plainOf(out.output.summary))
    const shape = SUMMARY_SHAPE[depth]
    expect(words).toBeGreaterThanOrEqual(shape.words[0])
    expect(words).toBeLessThanOrEqual(shape.words[1])
    expect(paragraphs.length).toBeGreaterThanOrEqual(shape.paragraphs[0])
    expect(paragraphs.length).toBeLessThanOrEqual(shape.paragraphs[1])
    // Extractive: each sentence (a cut one without its "…") is in the source.
    const flat = SOURCE.replace(/\s+/g, ' ')
    for (const s of plainOf(out.output.summary).split(/(?<=[.!?])\s+/)) expect(flat).toContain(s.replace(/…$/, ''))
    expect(out.engine).toBe('local')
    // Deterministic.
    expect((await generateContent(engine, 'summary', ctxOf(opts('summary', { depth })))).output).toEqual(out.output)
  })

  for (const cover of CONFIG_LENGTHS)
    for (const slide of CONFIG_LENGTHS)
      it(`narration cover ${cover}, slides ${slide}: every slide within its range`, async () => {
        const o = opts('narrative', { cover_length: cover, slide_length: slide, last_slide_length: slide })
        const out = await generateContent(engine, 'narrative', ctxOf(o))
        if (out.output.kind !== 'narrative') throw new Error('kind')
        const deck = v.parse(SlideDeck, out.output.slides)
        expect(deck.length).toBeGreaterThan(2)
        deck.forEach((s, i) => {
          const [min, max] = i === 0 ? NARRATION_WORDS.cover[cover] : NARRATION_WORDS.slide[slide]
          const n = wordCount(s.narration)
          expect(n, `slide ${i + 1}: ${s.narration}`).toBeGreaterThanOrEqual(min)
          expect(n).toBeLessThanOrEqual(max)
          expect(slideHasContent(s)).toBe(true)
        })
      })

  it.each([CLASS_PLAN_MINUTES.min, 45, 50, 90, CLASS_PLAN_MINUTES.max])('class plan of %i minutes: phases add up exactly', async (duration) => {
    for (const class_type of ['lecture', 'workshop', 'lab_session', 'group_work']) {
      const out = await generateContent(
        engine,
        'class_plan',
        ctxOf(opts('class_plan', { duration, class_type, homework: true, materials: 'Copo, água, gelo' })),
      )
      if (out.output.kind !== 'class_plan') throw new Error('kind')
      expect(out.output.class_plan.minutes).toBe(duration)
      const minutes = [...out.output.class_plan.html.matchAll(/\((\d+) min\)/g)].map((m) => Number(m[1]))
      expect(minutes.reduce((a, b) => a + b, 0)).toBe(duration)
      expect(minutes.every((m) => m >= 1)).toBe(true)
      expect(out.output.class_plan.html).toContain('Copo, água, gelo')
      expect(out.output.class_plan.html).toContain('Tarefa de casa')
    }
  })

  it('slides from sections, question pairs and questions in the task model’s format', async () => {
    const slides = await generateContent(engine, 'slide', ctxOf(opts('slide', { length: 'short' })))
    if (slides.output.kind !== 'slide') throw new Error('kind')
    expect(slides.output.slides.map((s) => plainOf((s.objects[0] as { html: string }).html))).toEqual(['O ciclo da água', ...SECTION_TITLES])
    const pairs = await generateContent(engine, 'question_pairs', ctxOf(opts('question_pairs', { length: 'long' })))
    if (pairs.output.kind !== 'question_pairs') throw new Error('kind')
    expect(pairs.output.question_pairs.length).toBe(8)
    const task = await generateContent(engine, 'task', ctxOf(opts('task', { length: 'very_long' }), 'en-US'))
    if (task.output.kind !== 'task') throw new Error('kind')
    expect(task.output.questions.map((q) => q.type).sort()).toEqual([
      ...Array(4).fill('fill_words'),
      ...Array(4).fill('single'),
      ...Array(4).fill('true_false'),
    ])
    for (const q of task.output.questions) expect(v.safeParse(Question, q).success).toBe(true)
  })
})

// ---------- content configurations and agents ----------

describe('cgs/content_config', () => {
  it('checks each type’s options, keeps one default per type, refuses a type change, checks the agent, and scopes by realm and visibility', async () => {
    const ctx = await setup()
    const bad = await call(ctx, 'cgs/content_config', { method: 'POST', json: { type: 'class_plan', title: 'Curta', options: { duration: 10 } } })
    const env1 = await expectEnvelope(bad, 400)
    expect(env1.errors[0].field).toBe('options.duration')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM cgs_content_config WHERE realm = ?').bind(ctx.realm.code).first('n')).toBe(0)
    await expectEnvelope(await call(ctx, 'cgs/content_config', { method: 'POST', json: { type: 'summary', title: 'Resumo', options: { depth: 'huge' } } }), 400)
    await expectEnvelope(await call(ctx, 'cgs/content_config', { method: 'POST', json: { type: 'video', title: 'Vídeo' } }), 400)
    await expectEnvelope(
      await call(ctx, 'cgs/content_config', { method: 'POST', json: { type: 'summary', title: 'Resumo', agent_id: 'nope' } }),
      422,
      'agent_not_found',
    )

    const agent = await call(ctx, 'cgs/agent', {
      method: 'POST',
      json: { name: 'Professor de ciências', tags: ['ciências'], is_public: true, target_audience: '6º ano' },
    })
    expect(agent.status, await agent.clone().text()).toBe(201)
    const agentId = ((await agent.json()) as { id: string }).id
    const first = await call(ctx, 'cgs/content_config', {
      method: 'POST',
      json: {
        type: 'summary',
        title: 'Resumo A',
        default_selected: true,
        agent_id: agentId,
        options: { depth: 'concise', focus: ['definitions', 'formulas'] },
      },
    })
    expect(first.status, await first.clone().text()).toBe(201)
    const a = (await first.json()) as { id: string; agent_name: string; options: AnyOptions }
    expect(a.agent_name).toBe('Professor de ciências')
    expect(a.options).toMatchObject({ depth: 'concise', style: 'engaging', length: 'medium', examples: 'none' })
    const second = await call(ctx, 'cgs/content_config', { method: 'POST', json: { type: 'summary', title: 'Resumo B', default_selected: true } })
    const b = (await second.json()) as { id: string }
    const defaults = await env.DB.prepare('SELECT id FROM cgs_content_config WHERE realm = ? AND type = ? AND default_selected = 1')
      .bind(ctx.realm.code, 'summary')
      .all()
    expect(defaults.results).toEqual([{ id: b.id }])
    await expectEnvelope(await call(ctx, `cgs/content_config/${a.id}`, { method: 'PUT', json: { type: 'handout', title: 'Outro' } }), 422, 'type_changed')

    // A private configuration is its author's; another realm sees nothing.
    const other = await userWith(ctx.realm.code, ['cgs_content_config_list', 'cgs_content_config_get'])
    const list = (await (await api(ctx.realm.host, 'cgs/content_config?type=summary', { token: other.token })).json()) as { items: { id: string }[] }
    expect(list.items).toEqual([])
    expect((await api(ctx.realm.host, `cgs/content_config/${a.id}`, { token: other.token })).status).toBe(404)
    const elsewhere = await setup()
    expect((await call(elsewhere, `cgs/content_config/${a.id}`)).status).toBe(404)
    // Permissions.
    const reader = await userWith(ctx.realm.code, ['cgs_content_config_list'])
    await expectEnvelope(await api(ctx.realm.host, 'cgs/content_config', { method: 'POST', token: reader.token, json: { type: 'summary', title: 'X y' } }), 403)
  })

  it('realm settings: defaults, partial update with mas_realm_edit only, deactivated contents refused', async () => {
    const ctx = await setup()
    const s = (await (await call(ctx, 'cgs/settings')).json()) as { activate: Record<string, boolean> }
    expect(s.activate).toMatchObject({ summary: true, video: false, persona: false, presentation: true })
    await expectEnvelope(await call(ctx, 'cgs/settings', { method: 'PUT', json: { activate: { summary: false } } }), 403)
    const admin = await userWith(ctx.realm.code, ['mas_realm_edit'])
    await expectEnvelope(await api(ctx.realm.host, 'cgs/settings', { method: 'PUT', token: admin.token, json: { max_intro_kbps: -1 } }), 400)
    const put = await api(ctx.realm.host, 'cgs/settings', { method: 'PUT', token: admin.token, json: { activate: { summary: false } } })
    expect(put.status).toBe(200)
    await expectEnvelope(await start(ctx, [{ kind: 'summary', confirm_points: 5 }]), 409, 'content_disabled')
  })
})

// ---------- lesson jobs ----------

describe('genesis lesson jobs', () => {
  it('local engine: each content debited once, the lesson document assembled, the same key answers the same job', async () => {
    const ctx = await setup()
    const key = crypto.randomUUID()
    const contents = [
      { kind: 'summary', confirm_points: 5 },
      { kind: 'slide', confirm_points: 20 },
      { kind: 'narrative', confirm_points: 25 },
      { kind: 'class_plan', confirm_points: 10 },
      { kind: 'task', confirm_points: 10 },
      { kind: 'question_pairs', confirm_points: 5 },
      { kind: 'handout', confirm_points: 15 },
    ]
    const res = await start(ctx, contents, { idempotency_key: key, title: 'Ciclo da água' })
    expect(res.status, await res.clone().text()).toBe(201)
    const job = (await res.json()) as GenesisJob
    expect(job.contents.map((c) => c.kind)).toEqual(['summary', 'class_plan', 'handout', 'slide', 'narrative', 'task', 'question_pairs'])
    expect(job.total_points).toBe(90)
    const again = await start(ctx, contents, { idempotency_key: key, title: 'Ciclo da água' })
    expect(again.status).toBe(200)
    expect(((await again.json()) as GenesisJob).id).toBe(job.id)
    await expectEnvelope(await start(ctx, contents.slice(0, 2), { idempotency_key: key }), 422, 'idempotency_mismatch')

    const done = await runToEnd(ctx, job.id)
    expect(done.status).toBe('done')
    expect(done.contents.every((c) => c.status === 'done' && c.engine === 'local')).toBe(true)
    expect(await wallet(ctx)).toBe(500 - 90)
    expect(await debits(ctx)).toBe(7)
    // Running again changes nothing.
    expect(((await (await call(ctx, `genesis/job/${job.id}/run`, { method: 'POST' })).json()) as GenesisJob).status).toBe('done')
    expect(await wallet(ctx)).toBe(410)
    const lesson = done.result!
    expect(lesson.title).toBe('Ciclo da água')
    expect(lesson.summary).toMatch(/^<p>/)
    expect(lesson.class_plan!.minutes).toBe(50)
    expect(lesson.slides!.every((s) => s.narration.length > 0)).toBe(true)
    expect(lesson.questions!.length).toBe(6)
    expect(lesson.question_pairs!.length).toBe(5)
    expect(lesson.handout).toContain('<h2>Evaporação</h2>')
  })

  it('opens an ended job as a lesson model (its questions as a linked task model), once; refused while running, without lesson_model_create, for another user', async () => {
    const ctx = await setup()
    const res = await start(
      ctx,
      [
        { kind: 'summary', confirm_points: 5 },
        { kind: 'slide', confirm_points: 20 },
        { kind: 'class_plan', confirm_points: 10 },
        { kind: 'task', confirm_points: 10 },
      ],
      { title: 'Ciclo da água' },
    )
    const job = (await res.json()) as GenesisJob
    // Without lesson_model_create (and tms_model_create): 403, nothing created.
    await expectEnvelope(await call(ctx, `genesis/job/${job.id}/lesson`, { method: 'POST' }), 403)
    // Permissions are read on every request: the teacher's role gains them.
    await env.DB.batch(
      ['lesson_model_create', 'lesson_model_get', 'tms_model_create', 'tms_model_get'].map((p) =>
        env.DB.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?)').bind(ctx.realm.code, ctx.teacher.role, p),
      ),
    )
    await expectEnvelope(await call(ctx, `genesis/job/${job.id}/lesson`, { method: 'POST' }), 409, 'job_not_ended')
    const done = await runToEnd(ctx, job.id)
    const opened = await call(ctx, `genesis/job/${job.id}/lesson`, { method: 'POST' })
    expect(opened.status, await opened.clone().text()).toBe(201)
    const { lesson_id } = (await opened.json()) as { lesson_id: string }
    const lesson = (await (await call(ctx, `lesson/model/${lesson_id}`)).json()) as {
      title: string
      summary: string
      slides: unknown[]
      class_plan: { duration: number }
      tasks: string[]
    }
    expect(lesson.title).toBe('Ciclo da água')
    expect(lesson.summary).toBe(done.result!.summary)
    expect(lesson.slides.length).toBe(done.result!.slides!.length)
    expect(lesson.class_plan.duration).toBe(50)
    expect(lesson.tasks).toHaveLength(1)
    const model = (await (await call(ctx, `tms/model/${lesson.tasks[0]}`)).json()) as { questions: unknown[] }
    expect(model.questions.length).toBe(done.result!.questions!.length)
    // Again: the same lesson, no second one.
    const again = await call(ctx, `genesis/job/${job.id}/lesson`, { method: 'POST' })
    expect(again.status).toBe(200)
    expect(((await again.json()) as { lesson_id: string }).lesson_id).toBe(lesson_id)
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM lesson_model WHERE realm = ?').bind(ctx.realm.code).first<number>('n')
    expect(count).toBe(1)
    // Another user of the realm, with every permission: the job is not theirs.
    const other = await userWith(ctx.realm.code, [...PERMS, 'lesson_model_create'])
    await expectEnvelope(await api(ctx.realm.host, `genesis/job/${job.id}/lesson`, { method: 'POST', token: other.token }), 404, 'not_found')
  })

  it('against the realm’s model: a length missed twice is fitted; a provider failure is refunded by reversal', async () => {
    const ctx = await setup('openai', 100)
    const short = JSON.stringify({ paragraphs: ['A água circula na natureza.', 'O Sol aquece os oceanos.'] })
    await script(ctx.realm.model, [{ content: short }, { content: short }, { status: 500 }, { status: 500 }, { status: 500 }])
    const res = await start(ctx, [
      { kind: 'summary', confirm_points: 5 },
      { kind: 'question_pairs', confirm_points: 5 },
    ])
    expect(res.status, await res.clone().text()).toBe(201)
    const job = await runToEnd(ctx, ((await res.json()) as GenesisJob).id)
    const [summary, pairs] = job.contents
    expect(summary).toMatchObject({ kind: 'summary', status: 'done', engine: 'openai', refunded: false })
    const words = wordCount(plainOf(job.result!.summary!))
    expect(words).toBeGreaterThanOrEqual(SUMMARY_SHAPE.standard.words[0])
    expect(words).toBeLessThanOrEqual(SUMMARY_SHAPE.standard.words[1])
    expect(job.result!.summary).toContain('A água circula na natureza.')
    expect(pairs).toMatchObject({ kind: 'question_pairs', status: 'failed', refunded: true })
    expect(job.status).toBe('done')
    expect(await wallet(ctx)).toBe(95)
    expect(await debits(ctx)).toBe(2)
    expect(await reversals(ctx)).toBe(1)
  })

  it('cancel: contents not started are never charged; an ended job cannot be canceled', async () => {
    const ctx = await setup()
    const res = await start(ctx, [
      { kind: 'summary', confirm_points: 5 },
      { kind: 'class_plan', confirm_points: 10 },
      { kind: 'handout', confirm_points: 15 },
    ])
    const job = (await res.json()) as GenesisJob
    await call(ctx, `genesis/job/${job.id}/run`, { method: 'POST' })
    const canceled = (await (await call(ctx, `genesis/job/${job.id}/cancel`, { method: 'POST' })).json()) as GenesisJob
    expect(canceled.status).toBe('canceled')
    expect(canceled.contents.map((c) => c.status)).toEqual(['done', 'canceled', 'canceled'])
    await call(ctx, `genesis/job/${job.id}/run`, { method: 'POST' })
    expect(await wallet(ctx)).toBe(495)
    await expectEnvelope(await call(ctx, `genesis/job/${job.id}/cancel`, { method: 'POST' }), 409, 'job_ended')
  })

  it('refuses before spending: short wallet, price changed, short source, narration without slides, bad input', async () => {
    const ctx = await setup('local', 20)
    await expectEnvelope(
      await start(ctx, [
        { kind: 'slide', confirm_points: 20 },
        { kind: 'summary', confirm_points: 5 },
      ]),
      422,
      'insufficient_credits',
    )
    await expectEnvelope(await start(ctx, [{ kind: 'summary', confirm_points: 4 }]), 409, 'price_changed')
    await expectEnvelope(
      await start(ctx, [{ kind: 'summary', confirm_points: 5 }], { sources: [{ kind: 'text', text: 'A água evapora. Depois chove.' }] }),
      422,
      'content_too_short',
    )
    await expectEnvelope(await start(ctx, [{ kind: 'narrative', confirm_points: 25 }]), 400)
    await expectEnvelope(await start(ctx, [{ kind: 'summary', confirm_points: 5 }], { sources: [] }), 400)
    await expectEnvelope(await start(ctx, [{ kind: 'video', confirm_points: 0 }]), 400)
    await expectEnvelope(
      await start(ctx, [{ kind: 'summary', confirm_points: 5 }], { sources: [{ kind: 'url', url: 'http://127.0.0.1:8080/page' }] }),
      422,
      'source_private_address',
    )
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM genesis_job WHERE realm = ?').bind(ctx.realm.code).first('n')).toBe(0)
    expect(await wallet(ctx)).toBe(20)
  })

  it('an uploaded TXT file is a source; a video file cannot generate a lesson; another realm’s or user’s job is not found', async () => {
    const ctx = await setup()
    const form = new FormData()
    form.set('data', new File([SOURCE], 'ciclo.txt'))
    const up = await api(ctx.realm.host, 'mas/file', { method: 'POST', token: ctx.teacher.token, body: form })
    expect(up.status, await up.clone().text()).toBe(201)
    const file = (await up.json()) as { id: string }
    const res = await start(ctx, [{ kind: 'slide', confirm_points: 20 }], { sources: [{ kind: 'file', file_id: file.id }] })
    expect(res.status, await res.clone().text()).toBe(201)
    const job = await runToEnd(ctx, ((await res.json()) as GenesisJob).id)
    expect(job.result!.slides!.length).toBeGreaterThan(3)
    const someone = await userWith(ctx.realm.code, ['genesis_lesson_model_generate'])
    expect((await api(ctx.realm.host, `genesis/job/${job.id}`, { token: someone.token })).status).toBe(404)
    const elsewhere = await setup()
    expect((await call(elsewhere, `genesis/job/${job.id}`)).status).toBe(404)
    const nobody = await userWith(ctx.realm.code, ['cgs_agent_list'])
    await expectEnvelope(await api(ctx.realm.host, `genesis/job/${job.id}`, { token: nobody.token }), 403)
  })
})

describe('POST /genesis/model', () => {
  it('answers a task-model draft of the asked types and counts, debited once per key', async () => {
    const ctx = await setup()
    const key = crypto.randomUUID()
    const body = {
      sources: [{ kind: 'text', text: SOURCE }],
      counts: { fill_words: 2, true_false: 2, single: 3 },
      difficulty: 'hard',
      confirm_points: 15,
      idempotency_key: key,
    }
    const res = await call(ctx, 'genesis/model', { method: 'POST', json: body })
    expect(res.status, await res.clone().text()).toBe(201)
    const out = (await res.json()) as { engine: string; draft: { title: string; questions: { type: string }[] } }
    expect(out.engine).toBe('local')
    expect(out.draft.questions.map((q) => q.type)).toEqual(['fill_words', 'fill_words', 'true_false', 'true_false', 'single', 'single', 'single'])
    expect((await call(ctx, 'genesis/model', { method: 'POST', json: body })).status).toBe(200)
    expect(await wallet(ctx)).toBe(485)
    await expectEnvelope(await call(ctx, 'genesis/model', { method: 'POST', json: { ...body, counts: {}, idempotency_key: crypto.randomUUID() } }), 400)
    // A source of a dozen sentences cannot give 20 questions (seed 001 §8 "not enough assessments"): refunded.
    const short = SOURCE.split('\n\n').slice(0, 2).join('\n\n')
    const few = await call(ctx, 'genesis/model', {
      method: 'POST',
      json: { ...body, sources: [{ kind: 'text', text: short }], counts: { single: 20 }, idempotency_key: crypto.randomUUID() },
    })
    const refused = await expectEnvelope(few, 502, 'ai_provider_failed')
    expect(refused.errors[0].value).toMatchObject({ refunded: true })
    expect(await wallet(ctx)).toBe(485)
  })
})

// ---------- sources: an existing lesson, a PPTX upload; the recent jobs; slide names ----------

/** The fixture's sections as a lesson: summary and class plan from the first two, the handout the next two, slides the rest. */
function lessonFromSource() {
  const parts = SOURCE.trim().split(/\n\n+/)
  const html = (ps: string[]) =>
    ps
      .map((p) =>
        p
          .split('\n')
          .map((l, i) => (i === 0 ? `<h2>${l}</h2>` : `<p>${l}</p>`))
          .join(''),
      )
      .join('')
  const text = (id: string, y: number, html: string) => ({ ...createObject({ kind: 'text' }, '', id), y, html }) as SlideObject
  return {
    title: 'Ciclo da água (aula)',
    summary: html(parts.slice(0, 1)),
    class_plan: { html: html(parts.slice(1, 2)), duration: 50 },
    handout: html(parts.slice(2, 4)),
    slides: parts.slice(4).map((p, i) => {
      const [head, ...body] = p.split('\n')
      return {
        ...emptySlide(`s${i}`),
        objects: [text(`s${i}_t`, 100, `<p>${head}</p>`), text(`s${i}_b`, 600, `<p>${body.join(' ')}</p>`)],
        narration: `Narração do slide ${head}.`,
      }
    }),
  }
}

describe('generation sources (issue 18, third part)', () => {
  it('an existing lesson model is a source: its text read, listed for the picker, permission-checked and realm-scoped', async () => {
    const ctx = await setup()
    const author = await userWith(ctx.realm.code, [...PERMS, 'lesson_model_create', 'lesson_model_get', 'lesson_model_list'])
    await fund(ctx.realm.code, 500, author.nick)
    const created = await api(ctx.realm.host, 'lesson/model', { method: 'POST', token: author.token, json: lessonFromSource() })
    expect(created.status, await created.clone().text()).toBe(201)
    const lesson = (await created.json()) as { id: string }
    const as = (token: string, path: string, init: { method?: string; json?: unknown } = {}) => api(ctx.realm.host, path, { token, ...init })

    // The picker's list: the realm's models matching the search, to a reader of lessons only.
    const found = await as(author.token, 'genesis/lessons?from=model&like=aula')
    expect(found.status, await found.clone().text()).toBe(200)
    expect(((await found.json()) as { items: { id: string; title: string }[] }).items).toEqual([
      expect.objectContaining({ id: lesson.id, title: 'Ciclo da água (aula)', language: 'pt-BR' }),
    ])
    expect(((await (await as(author.token, 'genesis/lessons?from=model&like=nada-assim')).json()) as { items: unknown[] }).items).toEqual([])
    // Without the read permission of a kind, none of that kind is listed.
    const none = async (token: string, path: string) => {
      const res = await as(token, path)
      expect(res.status).toBe(200)
      expect(((await res.json()) as { items: unknown[] }).items).toEqual([])
    }
    await none(author.token, 'genesis/lessons?from=lesson')
    await none(ctx.teacher.token, 'genesis/lessons?from=model')
    const bad = await expectEnvelope(await as(author.token, 'genesis/lessons?from=video'), 400)
    expect(bad.errors[0].field).toBe('from')
    const options = (await (await as(author.token, 'genesis/options')).json()) as { lessons: Record<string, boolean> }
    expect(options.lessons).toEqual({ model: true, lesson: false })

    // Generated from the lesson alone: slides from its summary, class plan, handout and each of its slides.
    const body = (key: string, from = 'model', id = lesson.id) => ({
      sources: [{ kind: 'lesson', lesson_id: id, from }],
      contents: [{ kind: 'slide', confirm_points: 20 }],
      idempotency_key: key,
    })
    const res = await as(author.token, 'genesis/lesson_model/job', { method: 'POST', json: body(crypto.randomUUID()) })
    expect(res.status, await res.clone().text()).toBe(201)
    const job = await (async () => {
      let j = (await res.json()) as GenesisJob
      while (j.status === 'running') j = (await (await as(author.token, `genesis/job/${j.id}/run`, { method: 'POST' })).json()) as GenesisJob
      return j
    })()
    expect(job.status).toBe('done')
    const titles = job.result!.slides!.map((s) => plainOf((s.objects[0] as { html: string }).html))
    // Cover, then the sections: summary, class plan, handout (two headings), the lesson's five slides.
    expect(titles.slice(1)).toEqual(SECTION_TITLES)

    // Refused before spending: without the read permission, a lesson of another realm, a published lesson unknown.
    const debitsBefore = await debits(ctx)
    const noRead = await expectEnvelope(await call(ctx, 'genesis/lesson_model/job', { method: 'POST', json: body(crypto.randomUUID()) }), 403, 'forbidden')
    expect(noRead.errors[0].field).toBe('sources.0.lesson_id')
    const elsewhere = await setup()
    const reader = await userWith(elsewhere.realm.code, [...PERMS, 'lesson_model_get', 'lesson_lesson_get'])
    await fund(elsewhere.realm.code, 100, reader.nick)
    const other = await expectEnvelope(
      await api(elsewhere.realm.host, 'genesis/lesson_model/job', { method: 'POST', token: reader.token, json: body(crypto.randomUUID()) }),
      404,
      'not_found',
    )
    expect(other.errors[0].field).toBe('sources.0.lesson_id')
    await expectEnvelope(
      await api(elsewhere.realm.host, 'genesis/lesson_model/job', { method: 'POST', token: reader.token, json: body(crypto.randomUUID(), 'lesson') }),
      404,
      'not_found',
    )
    await expectEnvelope(await as(author.token, 'genesis/lesson_model/job', { method: 'POST', json: body(crypto.randomUUID(), 'draft') }), 400)
    expect(await debits(ctx)).toBe(debitsBefore)
  })

  it('lessonSections reads summary, class plan, handout, each slide’s visible text and narration', () => {
    const l = lessonFromSource()
    l.slides[0].objects[1] = { ...l.slides[0].objects[1], hidden: true }
    const sections = lessonSections(l as never, { slide: 'Slide' })
    expect(sections[0]).toEqual({ title: 'O ciclo da água', text: expect.stringContaining('caminho contínuo') })
    expect(sections.map((s) => s.title)).toEqual(SECTION_TITLES)
    // The first slide's body is hidden: only its narration is read; the others give their body, then their narration.
    expect(sections[4].text).toBe('Narração do slide Infiltração.')
    expect(sections[5].text).toMatch(/^A escoamento é uma etapa essencial[\s\S]*Narração do slide Escoamento superficial\.$/)
  })

  it('a PPTX upload is a source (a zip holding ppt/); a presentation without text is “slides missing content”', async () => {
    const ctx = await setup()
    const upload = async (name: string, bytes: Uint8Array<ArrayBuffer> | Blob) => {
      const form = new FormData()
      form.set('data', new File([bytes], name))
      return api(ctx.realm.host, 'mas/file', { method: 'POST', token: ctx.teacher.token, body: form })
    }
    const deck = lessonFromSource().slides
    const pptx = await deckPptx(deck as never, 'Ciclo da água')
    const up = await upload('ciclo.pptx', pptx)
    expect(up.status, await up.clone().text()).toBe(201)
    const file = (await up.json()) as { id: string; content_type: string; kind: string }
    expect(file).toMatchObject({ kind: 'document', content_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' })
    const res = await start(ctx, [{ kind: 'slide', confirm_points: 20 }], { sources: [{ kind: 'file', file_id: file.id }] })
    expect(res.status, await res.clone().text()).toBe(201)
    const job = await runToEnd(ctx, ((await res.json()) as GenesisJob).id)
    const titles = job.result!.slides!.map((s) => plainOf((s.objects[0] as { html: string }).html))
    expect(titles).toContain('Escoamento superficial')
    expect(titles).toContain('Ciclo da água e clima')

    // Only shapes, no text: §8 "presentation slides missing content", nothing debited.
    const shapes = deck.map((s) => ({ ...s, narration: '', objects: [createObject({ kind: 'shape', shape: 'rect' }, '')] }))
    const empty = await upload('vazio.pptx', await deckPptx(shapes as never, 'Vazio'))
    expect(empty.status, await empty.clone().text()).toBe(201)
    const before = await debits(ctx)
    const refused = await expectEnvelope(
      await start(ctx, [{ kind: 'slide', confirm_points: 20 }], { sources: [{ kind: 'file', file_id: ((await empty.json()) as { id: string }).id }] }),
      422,
      'slides_missing_content',
    )
    expect(refused.errors[0].field).toBe('sources.0.file_id')
    expect(await debits(ctx)).toBe(before)

    // A PDF or another zip named .pptx is refused at upload (magic bytes), as is an empty one.
    await expectEnvelope(await upload('falso.pptx', new TextEncoder().encode('%PDF-1.4 not a presentation')), 400, 'content_mismatch')
    const zip = zipSync({ 'word/document.xml': new TextEncoder().encode('<w:document/>') })
    await expectEnvelope(await upload('documento.pptx', zip), 400, 'content_mismatch')
    await expectEnvelope(await upload('nada.pptx', new Uint8Array(0)), 400, 'empty')
  })

  it('GET /genesis/job lists the caller’s latest jobs (10 at most, newest first) with their progress', async () => {
    const ctx = await setup('local', 2000)
    const ids: string[] = []
    for (let i = 0; i < 11; i++) {
      const res = await start(ctx, [{ kind: 'summary', confirm_points: 5 }], { title: `Geração ${i}` })
      ids.push(((await res.json()) as GenesisJob).id)
    }
    await runToEnd(ctx, ids[10])
    const res = await call(ctx, 'genesis/job')
    expect(res.status).toBe(200)
    const { items } = (await res.json()) as { items: GenesisJobSummary[] }
    expect(items.map((j) => j.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Geração ${10 - i}`))
    expect(items[0]).toMatchObject({ id: ids[10], status: 'done', contents: 1, ended: 1 })
    expect(items[1]).toMatchObject({ status: 'running', contents: 1, ended: 0 })
    // Another user of the realm sees only their own.
    const someone = await userWith(ctx.realm.code, ['genesis_lesson_model_generate'])
    expect(((await (await api(ctx.realm.host, 'genesis/job', { token: someone.token })).json()) as { items: unknown[] }).items).toEqual([])
    await expectEnvelope(await api(ctx.realm.host, 'genesis/job', { token: (await userWith(ctx.realm.code, ['genesis_model_generate'])).token }), 403)
  })

  it('a PDF page’s wrapped lines are joined back into paragraphs; headings stay and cut the sections', () => {
    const wrapped = (width: number) =>
      SOURCE.trim()
        .split('\n')
        .flatMap((line) =>
          line.split(' ').reduce<string[]>((out, word) => {
            const last = out[out.length - 1]
            if (last !== undefined && last !== '' && `${last} ${word}`.length <= width) out[out.length - 1] = `${last} ${word}`
            else out.push(word)
            return out
          }, []),
        )
        .join('\n')
    const original = sectionsOfText(SOURCE, 'Parte')
    for (const width of [60, 100]) {
      const page = wrapped(width)
      // Without joining, every wrapped line would be a sentence of its own.
      expect(page.split('\n').length).toBeGreaterThan(SOURCE.trim().split('\n').length * 2)
      const sections = sectionsOfText(unwrapLines(page), 'Parte')
      expect(sections.map((x) => x.title)).toEqual(original.map((x) => x.title))
      expect(sections.map((x) => x.text.replace(/\s+/g, ' '))).toEqual(original.map((x) => x.text.replace(/\s+/g, ' ')))
    }
  })

  it('a content left running by a request that died is claimed again after 10 minutes, so a resumed job ends', async () => {
    const ctx = await setup()
    const res = await start(ctx, [
      { kind: 'summary', confirm_points: 5 },
      { kind: 'class_plan', confirm_points: 10 },
    ])
    const id = ((await res.json()) as GenesisJob).id
    const leftRunning = (minutesAgo: number) =>
      env.DB.prepare(`UPDATE genesis_job_content SET status = 'running', started_at = ? WHERE job_id = ? AND kind = 'summary'`)
        .bind(new Date(Date.now() - minutesAgo * 60_000).toISOString(), id)
        .run()
    const runOnce = async () => (await (await call(ctx, `genesis/job/${id}/run`, { method: 'POST' })).json()) as GenesisJob
    // Claimed a minute ago: maybe still running elsewhere — the next content runs, the job waits for it.
    await leftRunning(1)
    let job = await runOnce()
    expect(job.contents.map((c) => [c.kind, c.status])).toEqual([
      ['summary', 'running'],
      ['class_plan', 'done'],
    ])
    expect((await runOnce()).status).toBe('running')
    // Eleven minutes: taken over, run (debited once), and the job ends.
    await leftRunning(11)
    job = await runOnce()
    expect(job.status).toBe('done')
    expect(job.contents.map((c) => c.status)).toEqual(['done', 'done'])
    expect(await debits(ctx)).toBe(2)
  })

  it('generated slide boxes are named in the lesson’s language', async () => {
    const names = async (language: string) => {
      const out = await generateContent(engine, 'slide', ctxOf(opts('slide', {}), language))
      if (out.output.kind !== 'slide') throw new Error('kind')
      return [...new Set(out.output.slides.flatMap((s) => s.objects.map((o) => o.name)))]
    }
    expect(await names('pt-BR')).toEqual(['Título', 'Texto'])
    expect(await names('es-ES')).toEqual(['Título', 'Texto'])
    expect(await names('en-US')).toEqual(['Title', 'Text'])
    expect(await names('de-DE')).toEqual(['Title', 'Text'])
  })
})
