import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Quiz, QuizQuestion } from '#shared/schemas/quiz'
import { resultPages } from '../../party/quiz-results'
import { signTicket, verifyTicket } from '../../party/ticket'
import { answerScore } from '../../worker/lib/quiz'
import { bankQuestion, fund, realmWith, user } from './factories'
import { api, expectEnvelope, userWith } from './helpers'
import { validQuestion } from '../support/tms-fixtures'

/** Quizzes (issue 14): every rule of seed 002 §5, the §4 lifecycle and the §8 errors, through the API; rewards paid once. */

const STAFF = ['quiz_quiz_list', 'quiz_quiz_get', 'quiz_quiz_create', 'quiz_quiz_edit', 'quiz_quiz_delete', 'quiz_quiz_control', 'sns_channel_create']

async function setup(values: Record<string, string | number> = {}) {
  const realm = await realmWith(values)
  const staff = await userWith(realm.code, STAFF)
  const res = await api(realm.host, 'channel', {
    method: 'POST',
    token: staff.token,
    json: { name: `Canal ${realm.code}`, members: [{ nick: staff.nick, permission: 'owner' }] },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  const channel = ((await res.json()) as { id: string }).id
  return { ...realm, token: staff.token, me: staff.nick, channel }
}

type Ctx = Awaited<ReturnType<typeof setup>>

const quizBody = (ctx: Ctx, over: Record<string, unknown> = {}) => ({
  name: 'Quiz de história',
  channel_id: ctx.channel,
  reward_type: 'realm',
  reward: 'Créditos',
  reward_value: 100,
  reward_per_player: 50,
  question_duration: 20,
  lifes_timeout: 15,
  ...over,
})

const question = (n = 1, over: Record<string, unknown> = {}) => ({
  text: `Pergunta ${n}?`,
  option_a: 'Um',
  option_b: 'Dois',
  option_c: 'Três',
  correct: 'B',
  ...over,
})

async function createQuiz(ctx: Ctx, over: Record<string, unknown> = {}, questions = 1): Promise<Quiz & { questions: QuizQuestion[] }> {
  const res = await api(ctx.host, 'quiz', { method: 'POST', token: ctx.token, json: quizBody(ctx, over) })
  expect(res.status, await res.clone().text()).toBe(201)
  const quiz = (await res.json()) as Quiz
  const qs: QuizQuestion[] = []
  for (let i = 1; i <= questions; i++) {
    const r = await api(ctx.host, `quiz/${quiz.id}/question`, { method: 'POST', token: ctx.token, json: question(i) })
    expect(r.status, await r.clone().text()).toBe(201)
    qs.push(...((await r.json()) as { items: QuizQuestion[] }).items)
  }
  return { ...quiz, questions: qs }
}

const post = (ctx: Ctx, path: string, json?: unknown) => api(ctx.host, path, { method: 'POST', token: ctx.token, ...(json !== undefined ? { json } : {}) })

describe('quiz validation (seed 002 §5)', () => {
  it('creates a quiz with the R$ default, lists it with its channel, and reads it back', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx)
    expect(quiz).toMatchObject({ name: 'Quiz de história', reward_currency: 'BRL', status: 'draft', lives: 1, question_count: 0 })
    const list = (await (await api(ctx.host, 'quiz?like=hist', { token: ctx.token })).json()) as { items: (Quiz & { channel_name: string })[] }
    expect(list.items.map((q) => [q.id, q.channel_name])).toEqual([[quiz.id, `Canal ${ctx.code}`]])
    const got = (await (await api(ctx.host, `quiz/${quiz.id}`, { token: ctx.token })).json()) as Quiz
    expect(got.question_count).toBe(1)
  })

  it('requires name, channel and reward type; answer and extra-life times above 8 s; reward value and per player', async () => {
    const ctx = await setup()
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ channel_id: undefined }, 'channel_id'],
      [{ reward_type: undefined }, 'reward_type'],
      [{ reward_type: 'nobody' }, 'reward_type'],
      [{ question_duration: 8 }, 'question_duration'],
      [{ question_duration: undefined }, 'question_duration'],
      [{ lifes_timeout: 8 }, 'lifes_timeout'],
      [{ lifes_timeout: undefined }, 'lifes_timeout'],
      [{ reward_value: undefined }, 'reward_value'],
      [{ reward_per_player: undefined }, 'reward_per_player'],
      [{ reward_per_player: 101 }, 'reward_per_player'],
      [{ reward_currency: 'GBP' }, 'reward_currency'],
      [{ name: 'x'.repeat(121) }, 'name'],
    ]
    for (const [over, field] of cases) {
      const body = await expectEnvelope(await post(ctx, 'quiz', quizBody(ctx, over)), 400)
      expect(
        body.errors.map((e) => e.field),
        JSON.stringify(over),
      ).toContain(field)
    }
    const eight = await expectEnvelope(await post(ctx, 'quiz', quizBody(ctx, { question_duration: 8 })), 400)
    expect(eight.errors[0].message).toBe('validation.quiz.more_than_8_seconds')
    // 9 s is the least accepted.
    expect((await post(ctx, 'quiz', quizBody(ctx, { question_duration: 9, lifes_timeout: 9 }))).status).toBe(201)
    // A channel of another realm is unknown here.
    const other = await setup()
    await expectEnvelope(await post(ctx, 'quiz', quizBody(ctx, { channel_id: other.channel })), 422, 'not_found')
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM quiz WHERE realm = ?').bind(ctx.code).first<number>('n')
    expect(count).toBe(1)
  })

  it("refuses a reward value above the realm's maximum prize", async () => {
    const ctx = await setup({ quiz_max_prize: 80 })
    const body = await expectEnvelope(await post(ctx, 'quiz', quizBody(ctx)), 422, 'max_prize')
    expect(body.errors[0].message).toBe('quiz.error.max_prize')
  })

  it('each question needs a statement and a correct answer within the character limits', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 0)
    for (const [over, field] of [
      [{ text: '' }, 'text'],
      [{ text: 'x'.repeat(301) }, 'text'],
      [{ correct: undefined }, 'correct'],
      [{ correct: 'D' }, 'correct'],
      [{ option_c: '' }, 'option_c'],
      [{ option_a: 'y'.repeat(121) }, 'option_a'],
    ] as const) {
      const body = await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question`, question(1, over)), 400)
      expect(body.errors.map((e) => e.field)).toContain(field)
    }
    expect((await post(ctx, `quiz/${quiz.id}/question`, question(1, { text: 'x'.repeat(300) }))).status).toBe(201)
  })
})

describe('quiz import', () => {
  it('imports CSV questions, and reports every bad row by its line without importing any', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 0)
    const good = 'text;option_a;option_b;option_c;correct;lifes_disallowed\n"Capital do Brasil?";Rio;Brasília;Salvador;b;sim\nQuanto é 2+2?;3;4;5;B;\n'
    const res = await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'csv', content: good })
    expect(res.status, await res.clone().text()).toBe(201)
    const items = ((await res.json()) as { items: QuizQuestion[] }).items
    expect(items.map((q) => [q.text, q.correct, q.lifes_disallowed, q.position])).toEqual([
      ['Capital do Brasil?', 'B', true, 0],
      ['Quanto é 2+2?', 'B', false, 1],
    ])
    const bad = 'text,option_a,option_b,option_c,correct\nOk?,a,b,c,A\n,a,b,c,A\nSem correta?,a,b,c,\n'
    const body = await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'csv', content: bad }), 422)
    expect(body.errors.map((e) => [e.field, e.message, (e.value as { line: number; rule: string }).line, (e.value as { rule: string }).rule])).toEqual([
      ['line.3.text', 'form.line_error', 3, 'validation.required'],
      ['line.4.correct', 'form.line_error', 4, 'validation.quiz.correct_required'],
    ])
    await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'csv', content: 'text,option_a\nx,y\n' }), 422, 'missing_columns')
    await expectEnvelope(
      await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'csv', content: 'text,option_a,option_b,option_c,correct\n' }),
      422,
      'empty',
    )
    const total = ((await (await api(ctx.host, `quiz/${quiz.id}/question`, { token: ctx.token })).json()) as { items: unknown[] }).items.length
    expect(total).toBe(2)
  })

  it('imports JSON questions with errors by item number, and needs at least one', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 0)
    await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'json', content: '[]' }), 422, 'empty')
    await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'json', content: '{' }), 422, 'invalid_json')
    const body = await expectEnvelope(
      await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'json', content: JSON.stringify([question(1), question(2, { correct: 'Z' })]) }),
      422,
    )
    expect(body.errors.map((e) => e.field)).toEqual(['line.2.correct'])
    const ok = await post(ctx, `quiz/${quiz.id}/question/import`, { format: 'json', content: JSON.stringify([question(1), question(2)]) })
    expect(ok.status).toBe(201)
  })

  it('imports the single-choice questions with three options from the question bank and tells which others it skipped and why', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 0)
    const three = await bankQuestion(ctx.code)
    const multi = await bankQuestion(ctx.code, validQuestion('multi'))
    const long = await bankQuestion(ctx.code, { ...validQuestion('single'), statement: `<p>${'Muito longa. '.repeat(30)}</p>` })
    // Nothing that fits: refused, each item by its index, and nothing added.
    const body = await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/bank`, { ids: [multi.id, 'nope', long.id] }), 422)
    expect(body.errors.map((e) => [e.field, e.cause])).toEqual([
      ['ids.0', 'not_three_choice'],
      ['ids.1', 'not_found'],
      ['ids.2.text', 'max_length'],
    ])
    expect(((await (await api(ctx.host, `quiz/${quiz.id}/question`, { token: ctx.token })).json()) as { items: unknown[] }).items).toHaveLength(0)
    // What fits is added; the rest is answered as skipped, with the reason and the statement to name it.
    const res = await post(ctx, `quiz/${quiz.id}/question/bank`, { ids: [three.id, multi.id, 'nope', long.id] })
    expect(res.status, await res.clone().text()).toBe(201)
    const answer = (await res.json()) as { items: QuizQuestion[]; skipped: { id: string; index: number; text: string; cause: string; message: string }[] }
    expect(answer.items).toHaveLength(1)
    expect(answer.items[0]).toMatchObject({ text: 'Which is a prime number?', option_a: 'Option A', option_b: 'Option B', option_c: 'Option C', correct: 'A' })
    expect(answer.skipped.map((s) => [s.id, s.index, s.cause, s.message])).toEqual([
      [multi.id, 1, 'not_three_choice', 'validation.quiz.bank_not_three_choice'],
      ['nope', 2, 'not_found', 'validation.quiz.bank_not_found'],
      [long.id, 3, 'max_length', 'validation.max_length'],
    ])
    expect(answer.skipped[0].text).not.toBe('')
    expect(answer.skipped[2].text).toMatch(/^Muito longa\./)
    expect(((await (await api(ctx.host, `quiz/${quiz.id}/question`, { token: ctx.token })).json()) as { items: unknown[] }).items).toHaveLength(1)
  })
})

describe('quiz lifecycle (seed 002 §4, §8)', () => {
  it('start needs a draft with a question; edits only while draft; cancel; clone copies settings and questions', async () => {
    const ctx = await setup()
    const empty = await createQuiz(ctx, {}, 0)
    expect((await expectEnvelope(await post(ctx, `quiz/${empty.id}/start`), 422, 'no_questions')).errors[0].message).toBe('quiz.error.publish_no_questions')
    const quiz = await createQuiz(ctx, {}, 2)
    expect((await (await post(ctx, `quiz/${quiz.id}/start`)).json()) as unknown).toEqual({ id: quiz.id, status: 'active' })
    expect((await expectEnvelope(await post(ctx, `quiz/${quiz.id}/start`), 409, 'state')).errors[0].message).toBe('quiz.error.publish')
    await expectEnvelope(
      await api(ctx.host, `quiz/${quiz.id}`, { method: 'PUT', token: ctx.token, json: quizBody(ctx, { name: 'Outro' }) }),
      409,
      'not_editable',
    )
    await expectEnvelope(await api(ctx.host, `quiz/${quiz.id}`, { method: 'DELETE', token: ctx.token }), 409, 'active')
    const clone = await post(ctx, `quiz/${quiz.id}/clone`)
    expect(clone.status).toBe(201)
    const copy = (await clone.json()) as { id: string; name: string }
    const copied = (await (await api(ctx.host, `quiz/${copy.id}`, { token: ctx.token })).json()) as Quiz
    expect(copied).toMatchObject({ name: 'Quiz de história (2)', status: 'draft', question_count: 2, reward_value: 100, lifes_timeout: 15 })
    expect((await (await post(ctx, `quiz/${quiz.id}/cancel`)).json()) as unknown).toEqual({ id: quiz.id, status: 'canceled' })
    expect((await expectEnvelope(await post(ctx, `quiz/${quiz.id}/cancel`), 409, 'state')).errors[0].message).toBe('quiz.error.cancel')
    expect((await expectEnvelope(await post(ctx, `quiz/${quiz.id}/finish`), 409, 'state')).errors[0].message).toBe('quiz.error.finish')
    expect((await expectEnvelope(await post(ctx, `quiz/nope/start`), 404)).errors[0].message).toBe('quiz.error.not_found')
    expect((await api(ctx.host, `quiz/${quiz.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
  })

  it('per question: publish with a server deadline, show result, finish, hide, delete; one open at a time', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 3)
    const [q1, q2, q3] = quiz.questions
    // Not while the quiz is a draft.
    expect((await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/${q1.id}/publish`), 409, 'not_active')).errors[0].message).toBe(
      'quiz.error.question_publish',
    )
    await post(ctx, `quiz/${quiz.id}/start`)
    const before = Date.now()
    const pub = (await (await post(ctx, `quiz/${quiz.id}/question/${q1.id}/publish`)).json()) as { state: string; deadline: string; published_at: string }
    expect(pub.state).toBe('published')
    expect(Date.parse(pub.deadline) - Date.parse(pub.published_at)).toBe(20_000)
    expect(Date.parse(pub.published_at)).toBeGreaterThanOrEqual(before - 1000)
    await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/${q2.id}/publish`), 409, 'another_published')
    expect(
      (await expectEnvelope(await api(ctx.host, `quiz/${quiz.id}/question/${q1.id}`, { method: 'DELETE', token: ctx.token }), 409)).errors[0].message,
    ).toBe('quiz.error.question_delete')
    await expectEnvelope(await api(ctx.host, `quiz/${quiz.id}/question/${q1.id}`, { method: 'PUT', token: ctx.token, json: question(9) }), 409, 'not_editable')
    expect(((await (await post(ctx, `quiz/${quiz.id}/question/${q1.id}/result`)).json()) as { state: string }).state).toBe('result')
    await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/${q1.id}/hide`), 409, 'state')
    expect(((await (await post(ctx, `quiz/${quiz.id}/question/${q1.id}/finish`)).json()) as { state: string }).state).toBe('finished')
    expect((await expectEnvelope(await post(ctx, `quiz/${quiz.id}/question/${q1.id}/finish`), 409)).errors[0].message).toBe('quiz.error.question_finish')
    expect(((await (await post(ctx, `quiz/${quiz.id}/question/${q1.id}/hide`)).json()) as { state: string }).state).toBe('hidden')
    // The next one opens now that none is open; a pending one can be changed and deleted.
    expect((await post(ctx, `quiz/${quiz.id}/question/${q2.id}/publish`)).status).toBe(200)
    expect((await api(ctx.host, `quiz/${quiz.id}/question/${q3.id}`, { method: 'PUT', token: ctx.token, json: question(3, { correct: 'C' }) })).status).toBe(
      200,
    )
    expect((await api(ctx.host, `quiz/${quiz.id}/question/${q3.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    const items = ((await (await api(ctx.host, `quiz/${quiz.id}/question`, { token: ctx.token })).json()) as { items: QuizQuestion[] }).items
    expect(items.map((q) => q.state)).toEqual(['hidden', 'published'])
  })

  it('needs quiz_quiz_control to run a quiz', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx)
    const viewer = await userWith(ctx.code, ['quiz_quiz_list', 'quiz_quiz_get'])
    await expectEnvelope(await api(ctx.host, `quiz/${quiz.id}/start`, { method: 'POST', token: viewer.token }), 403)
    expect((await api(ctx.host, `quiz/${quiz.id}`, { token: viewer.token })).status).toBe(200)
  })
})

describe('quiz rewards (credit ledger)', () => {
  /** Standings as the quiz party writes them: a, b, c still in (b ties a on score but answered slower), d eliminated. */
  async function standings(ctx: Ctx, quizId: string) {
    const players = [await user(ctx.code), await user(ctx.code), await user(ctx.code), await user(ctx.code)]
    const rows = [
      [players[0].nick, 1800, 4000, 0],
      [players[1].nick, 1800, 5000, 0],
      [players[2].nick, 900, 3000, 0],
      [players[3].nick, 2000, 1000, 1],
    ] as const
    await env.DB.batch(
      rows.map(([nick, score, ms, out]) =>
        env.DB.prepare('INSERT INTO quiz_player (realm, quiz_id, nick, name, score, total_ms, eliminated) VALUES (?, ?, ?, ?, ?, ?, ?)').bind(
          ctx.code,
          quizId,
          nick,
          nick,
          score,
          ms,
          out,
        ),
      ),
    )
    return players.map((p) => p.nick)
  }
  const balance = (realm: string, kind: string, owner: string) =>
    env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`${kind}:${realm}:${owner}`).first<number>('balance')

  it("pays each winner once from the realm's wallet, within the prize, even when the finish is retried", async () => {
    const ctx = await setup({ ledger_enabled: 1 })
    await fund(ctx.code, 1000)
    const quiz = await createQuiz(ctx, { reward_value: 100, reward_per_player: 50 })
    await post(ctx, `quiz/${quiz.id}/start`)
    const [a, b, c] = await standings(ctx, quiz.id)
    const winners = (await (await api(ctx.host, `quiz/${quiz.id}/winners`, { token: ctx.token })).json()) as { items: { nick: string; rank: number }[] }
    expect(winners.items.map((w) => w.nick)).toEqual([a, b, c])
    const first = (await (await post(ctx, `quiz/${quiz.id}/finish`)).json()) as { payouts: { nick: string; points: number }[]; replayed: boolean }
    // 100 credits at 50 each: two places, by score then by total answer time.
    expect(first.payouts.map((p) => [p.nick, p.points])).toEqual([
      [a, 50],
      [b, 50],
    ])
    expect(first.replayed).toBe(false)
    const again = (await (await post(ctx, `quiz/${quiz.id}/finish`)).json()) as { payouts: unknown[]; replayed: boolean }
    expect(again).toMatchObject({ replayed: true, payouts: first.payouts })
    await Promise.all([post(ctx, `quiz/${quiz.id}/finish`), post(ctx, `quiz/${quiz.id}/finish`)])
    expect(await balance(ctx.code, 'user', a)).toBe(50)
    expect(await balance(ctx.code, 'user', b)).toBe(50)
    expect(await balance(ctx.code, 'user', c)).toBeNull()
    expect(await balance(ctx.code, 'realm', ctx.code)).toBe(900)
    const moves = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transaction WHERE realm = ? AND type = 'transfer'").bind(ctx.code).first<number>('n')
    expect(moves).toBe(2)
  })

  it("pays from the channel owner's wallet, refuses when it holds too little, and enforces a lowered maximum prize", async () => {
    const ctx = await setup({ ledger_enabled: 1 })
    const quiz = await createQuiz(ctx, { reward_type: 'channel_owner', reward_value: 100, reward_per_player: 50 })
    await post(ctx, `quiz/${quiz.id}/start`)
    const [a, b] = await standings(ctx, quiz.id)
    const poor = await expectEnvelope(await post(ctx, `quiz/${quiz.id}/finish`), 422, 'insufficient_credits')
    expect(poor.errors[0].message).toBe('quiz.error.insufficient_credits')
    expect(((await (await api(ctx.host, `quiz/${quiz.id}`, { token: ctx.token })).json()) as Quiz).status).toBe('active')
    await env.DB.prepare('UPDATE realm SET quiz_max_prize = 60 WHERE code = ?').bind(ctx.code).run()
    expect((await expectEnvelope(await post(ctx, `quiz/${quiz.id}/finish`), 422, 'max_prize')).errors[0].message).toBe('quiz.error.max_prize')
    await env.DB.prepare('UPDATE realm SET quiz_max_prize = -1 WHERE code = ?').bind(ctx.code).run()
    await fund(ctx.code, 100, ctx.me)
    expect((await post(ctx, `quiz/${quiz.id}/finish`)).status).toBe(200)
    expect(await balance(ctx.code, 'user', ctx.me)).toBe(0)
    expect(await balance(ctx.code, 'user', a)).toBe(50)
    expect(await balance(ctx.code, 'user', b)).toBe(50)
  })

  it('answers winners not found when nobody scored, and statistics from D1', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx)
    expect((await expectEnvelope(await api(ctx.host, `quiz/${quiz.id}/winners`, { token: ctx.token }), 404)).errors[0].message).toBe(
      'quiz.error.winners_not_found',
    )
    const stats = (await (await api(ctx.host, `quiz/${quiz.id}/statistics`, { token: ctx.token })).json()) as {
      questions: { answers: number; correct_rate: number }[]
    }
    expect(stats.questions).toEqual([expect.objectContaining({ answers: 0, correct_rate: 0, distribution: { A: 0, B: 0, C: 0 } })])
  })

  it('scores a correct answer from 1,000 (instant) down to 500 (at the deadline), a wrong one 0', () => {
    expect(answerScore(true, 0, 20_000)).toBe(1000)
    expect(answerScore(true, 10_000, 20_000)).toBe(750)
    expect(answerScore(true, 20_000, 20_000)).toBe(500)
    expect(answerScore(true, 25_000, 20_000)).toBe(500)
    expect(answerScore(false, 0, 20_000)).toBe(0)
  })
})

describe('quiz live API (the quiz party and its tickets)', () => {
  const SECRET = 'test-party-secret'
  const party = async (ctx: Ctx, quizId: string, path: string, json?: unknown, room = quizId) =>
    api(ctx.host, `quiz/live/${quizId}/${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { 'x-party-ticket': await signTicket(SECRET, { party: 'quiz-api', room, realm: ctx.code, nick: 'party', name: 'party' }) },
      ...(json === undefined ? {} : { json }),
    })

  it('mints moderator and player tickets; players only while the quiz runs and as the channel admits them', async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx)
    const player = await userWith(ctx.code, ['quiz_quiz_list'])
    await expectEnvelope(await api(ctx.host, `quiz/live/${quiz.id}/ticket`, { method: 'POST', token: player.token }), 409, 'not_active')
    const mod = (await (await api(ctx.host, `quiz/live/${quiz.id}/ticket`, { method: 'POST', token: ctx.token })).json()) as {
      ticket: string
      role: string
      room: string
    }
    expect(mod).toMatchObject({ role: 'moderator', room: `quiz-${quiz.id}` })
    expect(await verifyTicket(SECRET, mod.ticket, 'quiz', `quiz-${quiz.id}`)).toMatchObject({ nick: ctx.me, role: 'moderator', realm: ctx.code })
    await post(ctx, `quiz/${quiz.id}/start`)
    const res = await api(ctx.host, `quiz/live/${quiz.id}/ticket`, { method: 'POST', token: player.token })
    expect(((await res.json()) as { role: string }).role).toBe('player')
    const guest = (await (await api(ctx.host, `quiz/live/${quiz.id}/guest`, { method: 'POST', json: { name: 'Visitante' } })).json()) as {
      nick: string
      resume: string
    }
    expect(guest.nick).toMatch(/^guest:/)
    // A dropped guest rejoins as the same player with the resume token (a forged one is a new guest).
    const again = (await (await api(ctx.host, `quiz/live/${quiz.id}/guest`, { method: 'POST', json: { name: 'Outro', resume: guest.resume } })).json()) as {
      nick: string
    }
    expect(again.nick).toBe(guest.nick)
    const forged = (await (await api(ctx.host, `quiz/live/${quiz.id}/guest`, { method: 'POST', json: { name: 'Outro', resume: 'x.y' } })).json()) as {
      nick: string
    }
    expect(forged.nick).not.toBe(guest.nick)
    // A private channel: members only, and no guests.
    await api(ctx.host, `channel/${ctx.channel}`, {
      method: 'PUT',
      token: (await userWith(ctx.code, ['sns_channel_edit'])).token,
      json: { name: `Canal ${ctx.code}`, modes: { private: true } },
    })
    await expectEnvelope(await api(ctx.host, `quiz/live/${quiz.id}/ticket`, { method: 'POST', token: player.token }), 403, 'members_only')
    await expectEnvelope(await api(ctx.host, `quiz/live/${quiz.id}/guest`, { method: 'POST', json: { name: 'Visitante' } }), 403, 'members_only')
  })

  it("takes the party's calls only with its service ticket for that quiz; results count once and feed statistics and winners", async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 2)
    const [q1] = quiz.questions
    await post(ctx, `quiz/${quiz.id}/start`)
    await expectEnvelope(await api(ctx.host, `quiz/live/${quiz.id}/state`, {}), 401)
    const other = await createQuiz(ctx)
    await expectEnvelope(await party(ctx, quiz.id, 'state', undefined, other.id), 401)
    const state = (await (await party(ctx, quiz.id, 'state')).json()) as {
      status: string
      question_duration: number
      questions: { id: string; correct: string; options: unknown }[]
    }
    expect(state).toMatchObject({ status: 'active', question_duration: 20, lifes_timeout: 15, lives: 1 })
    expect(state.questions[0]).toMatchObject({ id: q1.id, correct: 'B', options: { A: 'Um', B: 'Dois', C: 'Três' } })
    const at = Date.now()
    const opened = await party(ctx, quiz.id, `question/${q1.id}/publish`, {
      published_at: new Date(at).toISOString(),
      deadline: new Date(at + 20_000).toISOString(),
    })
    expect(opened.status).toBe(200)
    await expectEnvelope(
      await party(ctx, quiz.id, `question/${q1.id}/publish`, { published_at: new Date(at).toISOString(), deadline: new Date(at).toISOString() }),
      409,
    )
    const [u1, u2] = [await user(ctx.code), await user(ctx.code)]
    const standing = (nick: string, score: number, over: Record<string, unknown> = {}) => ({
      nick,
      name: nick,
      guest: false,
      score,
      total_ms: 1000,
      correct_count: score ? 1 : 0,
      lives_left: 1,
      lives_used: 0,
      eliminated: false,
      ...over,
    })
    const body = {
      answers: [
        { nick: u1.nick, option: 'B', ms: 0 },
        { nick: u2.nick, option: 'C', ms: 4000 },
      ],
      players: [standing(u1.nick, 1000), standing(u2.nick, 0, { lives_left: 0, lives_used: 1 })],
    }
    expect((await party(ctx, quiz.id, `question/${q1.id}/results`, body)).status).toBe(200)
    // A retry (and a retry claiming another option) changes no answer.
    expect((await party(ctx, quiz.id, `question/${q1.id}/results`, { ...body, answers: [{ nick: u1.nick, option: 'A', ms: 1 }] })).status).toBe(200)
    await expectEnvelope(await party(ctx, quiz.id, `question/${q1.id}/results`, { answers: [{ nick: u1.nick, option: 'D', ms: 1 }], players: [] }), 400)
    const stats = (await (await api(ctx.host, `quiz/${quiz.id}/statistics`, { token: ctx.token })).json()) as {
      questions: { answers: number; distribution: Record<string, number>; correct_rate: number; mean_ms: number }[]
      lives_used: number
    }
    expect(stats.questions[0]).toMatchObject({ answers: 2, distribution: { A: 0, B: 1, C: 1 }, correct_rate: 0.5, mean_ms: 2000 })
    expect(stats.lives_used).toBe(1)
    const questions = ((await (await api(ctx.host, `quiz/${quiz.id}/question`, { token: ctx.token })).json()) as { items: QuizQuestion[] }).items
    expect(questions[0].state).toBe('finished')
    const scored = await env.DB.prepare('SELECT score FROM quiz_answer WHERE quiz_id = ? AND nick = ?').bind(quiz.id, u1.nick).first<number>('score')
    expect(scored).toBe(1000)
    const winners = (await (await api(ctx.host, `quiz/${quiz.id}/winners`, { token: ctx.token })).json()) as { items: { nick: string }[] }
    expect(winners.items.map((w) => w.nick)).toEqual([u1.nick])
  })

  it("stores a crowd's answers and standings past D1's 2 MB string limit and the API's 5 MB body (pages, several statements)", async () => {
    const ctx = await setup()
    const quiz = await createQuiz(ctx, {}, 1)
    const [q1] = quiz.questions
    await post(ctx, `quiz/${quiz.id}/start`)
    const at = Date.now()
    await party(ctx, quiz.id, `question/${q1.id}/publish`, { published_at: new Date(at).toISOString(), deadline: new Date(at + 20_000).toISOString() })
    // 12,000 players with long nicknames: the answers (~2.1 MB) and the standings (~4 MB) each pass 2,000,000 bytes
    // as one bound JSON string (D1 refuses it), and together the API's 5 MB body.
    const N = 12_000
    const nick = (i: number) => `guest:${String(i).padStart(6, '0')}${'x'.repeat(140)}`
    const answers = Array.from({ length: N }, (_, i) => ({ nick: nick(i), option: i % 3 === 0 ? 'B' : 'A', ms: i % 20_000 }))
    const players = Array.from({ length: N }, (_, i) => ({
      nick: nick(i),
      name: `Jogadora número ${i} com um nome comprido`,
      guest: true,
      score: i % 3 === 0 ? 1000 - (i % 500) : 0,
      total_ms: i % 20_000,
      correct_count: i % 3 === 0 ? 1 : 0,
      lives_left: i % 3 === 0 ? 1 : 0,
      lives_used: i % 3 === 0 ? 0 : 1,
      eliminated: false,
    }))
    expect(JSON.stringify(answers).length).toBeGreaterThan(2_000_000)
    expect(JSON.stringify(players).length).toBeGreaterThan(2_000_000)
    const pages = resultPages(answers, players)
    expect(pages.length).toBeGreaterThan(2)
    expect(pages.map((p) => p.final)).toEqual(pages.map((_, i) => i === pages.length - 1))
    expect(pages.flatMap((p) => p.answers)).toEqual(answers)
    expect(pages.flatMap((p) => p.players)).toEqual(players)
    const state = async () =>
      ((await (await api(ctx.host, `quiz/${quiz.id}/question`, { token: ctx.token })).json()) as { items: QuizQuestion[] }).items[0].state
    for (const page of pages) {
      expect(new TextEncoder().encode(JSON.stringify(page)).length).toBeLessThan(5 * 1024 * 1024)
      // Until the final page the question stays open.
      expect(await state()).toBe('published')
      const res = await party(ctx, quiz.id, `question/${q1.id}/results`, page)
      expect(res.status, await res.clone().text()).toBe(200)
    }
    expect(await state()).toBe('finished')
    const count = (table: string) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE quiz_id = ?`).bind(quiz.id).first<number>('n')
    expect(await count('quiz_answer')).toBe(N)
    expect(await count('quiz_player')).toBe(N)
    // One page holding every standing (~4 MB body, under the 5 MB limit) replaces each row, all of them.
    const all = { answers: [], players: players.map((p) => ({ ...p, eliminated: true })) }
    const again = await party(ctx, quiz.id, 'standings', all)
    expect(again.status, await again.clone().text()).toBe(200)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM quiz_player WHERE quiz_id = ? AND eliminated = 1').bind(quiz.id).first<number>('n')).toBe(N)
    const stats = (await (await api(ctx.host, `quiz/${quiz.id}/statistics`, { token: ctx.token })).json()) as { questions: { answers: number }[] }
    expect(stats.questions[0].answers).toBe(N)
  })
})
