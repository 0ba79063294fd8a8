import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { aiRealm, fund, questionOf } from './factories'
import { api, expectEnvelope } from './helpers'
import { essayClass, publishedTo } from './answer-helpers'

/**
 * The AI correction assistant (issue 17): POST /tms/answer/{id}/ai-revision against the local chat-completions
 * server (tests/support/ai-providers.ts) and with the local engine — proposed scores per assessed skill, errors by
 * category, the comment; a paid operation (debited once per key, refunded when the provider fails, the price the
 * teacher confirmed); the revision's state (success, fail).
 */
const PROVIDERS = () => env.TEST_AI_PROVIDERS
const script = (model: string, replies: unknown[]) =>
  fetch(`${PROVIDERS()}/__script`, { method: 'POST', body: JSON.stringify({ model, replies }) }).then((r) => r.json())
type Received = { path: string; body: { model?: string; messages?: { role: string; content: string }[] } }
const ofModel = async (model: string) =>
  ((await (await fetch(`${PROVIDERS()}/__requests`)).json()) as Received[]).filter((r) => r.path === '/v1/chat/completions' && r.body?.model === model)

const ESSAY =
  'a escola mudou muito com a tecnologia. Os alunos usam usam computadores todos os dias.  A internet ajuda a pesquisar. Mas é preciso cuidado com as fontes.'

/** A realm with its AI (`provider`), a teacher with credits, a student in a room, a task of a text_ai and an essay question delivered. */
async function setup(provider: 'openai' | 'local' = 'openai', funds = 100) {
  const realm = await aiRealm({ provider, prices: { 'tms.answer_revision': 10 } })
  const {
    teacher,
    student: { nick, token },
    room: r,
    category,
    refs,
  } = await essayClass(realm.code)
  if (funds) await fund(realm.code, funds, teacher.nick)
  const essay = questionOf('essay', refs)
  const questions = [
    questionOf('text_ai', refs),
    { ...essay, options: { ...(essay.options as Record<string, unknown>), min_word_count: 10, max_word_count: 400 } },
  ]
  const { model, task } = await publishedTo(realm.host, teacher.token, questions, r.id, category.id)
  const open = await api(realm.host, `tms/answer-student/${task.id}/open`, { method: 'POST', token, json: {} })
  expect(open.status, await open.clone().text()).toBe(200)
  const { receipt } = (await open.json()) as { receipt: string }
  const ids = { text_ai: model.questions.find((q) => q.type === 'text_ai')!.id, essay: model.questions.find((q) => q.type === 'essay')!.id }
  const d = await api(realm.host, `tms/answer-student/${task.id}/deliver`, {
    method: 'POST',
    token,
    json: {
      answer_id: crypto.randomUUID(),
      receipt,
      answers: {
        [ids.text_ai]: { text: 'Water evaporates from the sea, then condensation makes clouds and the precipitation falls as rain.' },
        [ids.essay]: { text: ESSAY },
      },
    },
  })
  expect(d.status, await d.clone().text()).toBe(201)
  const answer = ((await d.json()) as { id: string }).id
  return { realm, teacher, student: { nick, token }, task, answer, ids, refs }
}
type Ctx = Awaited<ReturnType<typeof setup>>

const revise = (ctx: Ctx, json: Record<string, unknown>) =>
  api(ctx.realm.host, `tms/answer/${ctx.answer}/ai-revision`, { method: 'POST', token: ctx.teacher.token, json })
const wallet = (ctx: Ctx) =>
  env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${ctx.realm.code}:${ctx.teacher.nick}`).first<number>('balance')
const stored = (ctx: Ctx) =>
  env.DB.prepare('SELECT ai_revision, ai_comment, ai_result, status FROM tms_answer WHERE id = ?')
    .bind(ctx.answer)
    .first<{ ai_revision: string | null; ai_comment: string; ai_result: string; status: string }>()
type Detail = {
  ai_revision: string
  ai_comment: string
  ai_result: {
    engine: string
    comment: string
    questions: { question_id: string; score: number; skills: { skill_id: string; score: number }[]; errors: { category: string; excerpt: string }[] }[]
  }
  assistant: { engine: string; price: number; charged: number; revisable: boolean }
}

describe('POST /tms/answer/{id}/ai-revision', () => {
  it('asks the realm’s model in JSON mode, keeps its proposals within the answer, debits once per key, and writes the AI comment', async () => {
    const ctx = await setup()
    const before = (await (await api(ctx.realm.host, `tms/answer/${ctx.answer}`, { token: ctx.teacher.token })).json()) as Detail
    expect(before.assistant).toMatchObject({ engine: 'openai', price: 10, charged: 10, revisable: true })
    await script(ctx.realm.model, [
      {
        content: JSON.stringify({
          questions: [
            { question_id: ctx.ids.text_ai, score: 2.5, errors: [] },
            {
              question_id: ctx.ids.essay,
              score: 9,
              skills: [
                { skill_id: ctx.refs.skill, score: 7 },
                { skill_id: 'not-a-skill-of-it', score: 10 },
              ],
              errors: [
                { category: 'orthography', excerpt: 'a escola', explanation: 'Maiúscula no início da frase.' },
                { category: 'syntax', excerpt: 'usam usam', explanation: 'Palavra repetida.' },
                { category: 'semantics', excerpt: 'words the student never wrote', explanation: 'Invented.' },
              ],
            },
            { question_id: 'unknown', score: 1 },
          ],
          comment: 'Bom texto; revise as maiúsculas.',
        }),
      },
    ])
    const key = crypto.randomUUID()
    const res = await revise(ctx, { confirm_points: 10, idempotency_key: key })
    expect(res.status, await res.clone().text()).toBe(201)
    const body = (await res.json()) as Detail
    expect(body.ai_revision).toBe('success')
    expect(body.ai_comment).toBe('Bom texto; revise as maiúsculas.')
    expect(body.ai_result.engine).toBe('openai')
    const [textAi, essay] = body.ai_result.questions
    // Above the question's score: at most its score (a text_ai question is worth 0). The essay's comes from its skill (7/10 of 10).
    expect(textAi).toMatchObject({ question_id: ctx.ids.text_ai, score: 0 })
    expect(essay).toMatchObject({ question_id: ctx.ids.essay, score: 7, skills: [{ skill_id: ctx.refs.skill, score: 7 }] })
    expect(essay.errors.map((e) => e.category)).toEqual(['orthography', 'syntax'])
    expect(body.ai_result.questions).toHaveLength(2)
    // The model saw the student's text and the assessed skills, in JSON mode.
    const [sent] = await ofModel(ctx.realm.model)
    const prompt = JSON.stringify(sent.body.messages)
    expect(prompt).toContain('usam usam')
    expect(prompt).toContain(ctx.refs.skill)
    expect(await wallet(ctx)).toBe(90)
    // The same key again: the same revision, no second debit, no second call.
    const again = await revise(ctx, { confirm_points: 10, idempotency_key: key })
    expect(again.status).toBe(200)
    expect(await wallet(ctx)).toBe(90)
    expect(await ofModel(ctx.realm.model)).toHaveLength(1)
    // Finalizing now waits for the student's opinion on the AI comment (pending_agreement).
    const fin = await api(ctx.realm.host, `tms/answer/${ctx.answer}/correction`, {
      method: 'PUT',
      token: ctx.teacher.token,
      json: { action: 'finalize', scores: { [ctx.ids.text_ai]: 0, [ctx.ids.essay]: 7 }, ai_comment: 'Bom texto; cuide das maiúsculas.' },
    })
    expect(fin.status, await fin.clone().text()).toBe(200)
    expect((await stored(ctx))!).toMatchObject({ status: 'pending_agreement', ai_comment: 'Bom texto; cuide das maiúsculas.' })
    // Finalized: no more revisions.
    await expectEnvelope(await revise(ctx, { confirm_points: 10, idempotency_key: crypto.randomUUID() }), 409, 'correction_finalized')
  })

  it('refunds and marks the revision failed when the provider fails; refuses a price not confirmed and a short wallet, changing nothing', async () => {
    const ctx = await setup('openai', 15)
    await expectEnvelope(await revise(ctx, { confirm_points: 5, idempotency_key: crypto.randomUUID() }), 409, 'price_changed')
    expect((await stored(ctx))!.ai_revision).toBeNull()
    await script(ctx.realm.model, [{ status: 500 }, { status: 500 }])
    await expectEnvelope(await revise(ctx, { confirm_points: 10, idempotency_key: crypto.randomUUID() }), 502, 'ai_provider_failed')
    expect((await stored(ctx))!.ai_revision).toBe('fail')
    expect(await wallet(ctx)).toBe(15)
    // 15 credits: one revision (10) fits, a second does not.
    await script(ctx.realm.model, [{ content: JSON.stringify({ questions: [], comment: 'Ok.' }) }])
    expect((await revise(ctx, { confirm_points: 10, idempotency_key: crypto.randomUUID() })).status).toBe(201)
    expect(await wallet(ctx)).toBe(5)
    await expectEnvelope(await revise(ctx, { confirm_points: 10, idempotency_key: crypto.randomUUID() }), 422, 'insufficient_credits')
    expect((await stored(ctx))!.ai_revision).toBe('success')
    // Not a teacher: refused.
    await expectEnvelope(
      await api(ctx.realm.host, `tms/answer/${ctx.answer}/ai-revision`, {
        method: 'POST',
        token: ctx.student.token,
        json: { confirm_points: 10, idempotency_key: crypto.randomUUID() },
      }),
      403,
    )
  })

  it('with the local engine: no model is called, the rules mark the errors by category and the comment says no AI model read the text', async () => {
    const ctx = await setup('local')
    const res = await revise(ctx, { confirm_points: 10, idempotency_key: crypto.randomUUID() })
    expect(res.status, await res.clone().text()).toBe(201)
    const body = (await res.json()) as Detail
    expect(body.ai_result.engine).toBe('local')
    expect(await ofModel(ctx.realm.model)).toEqual([])
    expect(body.ai_comment).toMatch(/sem modelo de IA/)
    const essay = body.ai_result.questions.find((q) => q.question_id === ctx.ids.essay)!
    expect(essay.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ category: 'orthography', excerpt: 'a' }),
        expect.objectContaining({ category: 'syntax', excerpt: 'usam usam' }),
        expect.objectContaining({ category: 'others' }),
      ]),
    )
    expect(essay.skills).toEqual([{ skill_id: ctx.refs.skill, score: 7 }])
    expect(essay.score).toBe(7)
    // Deterministic: the same text gets the same revision.
    const again = (await (await revise(ctx, { confirm_points: 10, idempotency_key: crypto.randomUUID() })).json()) as Detail
    expect(again.ai_result.questions).toEqual(body.ai_result.questions)
  })
})
