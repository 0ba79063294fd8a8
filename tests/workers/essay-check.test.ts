import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createSession } from '../../worker/db/sessions'
import { hunspell } from '../../worker/lib/speller'
import { spellerFor } from '../../worker/lib/essay-checker'
import { skillsScore } from '#shared/schemas/tms/correction'
import { aiRealm, questionOf, user } from './factories'
import { api, expectEnvelope, userWith } from './helpers'
import { essayClass, publishedTo } from './answer-helpers'

/**
 * The essay's "Online Check" (issue 17): POST /tms/answer-student/{taskId}/check with the local checker (the real
 * Portuguese, English and Spanish dictionaries and the shared writing rules) and against the local LanguageTool server
 * (tests/support/ai-providers.ts, its real `/v2/check` protocol); the realm's check limit, the deadline, too many
 * errors, bad input, realm scoping and the realm settings.
 */
const PROVIDERS = () => env.TEST_AI_PROVIDERS
type Mark = { category: string; offset: number; length: number; excerpt: string; rule: string; message: string; suggestions: string[] }
type Checked = { engine: string; language: string; marks: Mark[]; checks_used: number; checks_limit: number }

/** A realm, a student in a room, and a task with an essay in each language (and a choice question). */
async function setup() {
  const realm = await aiRealm({ provider: 'local' })
  const { teacher, student, room: r, category, refs } = await essayClass(realm.code)
  const essay = questionOf('essay', refs)
  const essayIn = (language: string) => ({
    ...essay,
    options: { ...(essay.options as Record<string, unknown>), language, min_word_count: 3, max_word_count: 400 },
  })
  const questions = [essayIn('pt-BR'), essayIn('en-US'), essayIn('es-ES'), questionOf('single', refs)]
  const { model, task } = await publishedTo(realm.host, teacher.token, questions, r.id, category.id)
  const [pt, en, es, single] = model.questions.map((q) => q.id)
  return { realm, teacher, student, task, ids: { pt, en, es, single } }
}
type Ctx = Awaited<ReturnType<typeof setup>>

const check = (ctx: Ctx, json: unknown, token = ctx.student.token, host = ctx.realm.host) =>
  api(host, `tms/answer-student/${ctx.task.id}/check`, { method: 'POST', token, json: json as Record<string, unknown> })
async function checked(ctx: Ctx, question: string, text: string): Promise<Checked> {
  const res = await check(ctx, { question_id: question, text })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as Checked
}
const used = (ctx: Ctx, question: string) =>
  env.DB.prepare('SELECT checks FROM tms_essay_check WHERE realm = ? AND task_id = ? AND nick = ? AND question_id = ?')
    .bind(ctx.realm.code, ctx.task.id, ctx.student.nick, question)
    .first<number>('checks')
const setAi = (ctx: Ctx, values: Record<string, string | number>) =>
  env.DB.prepare(
    `UPDATE realm_ai SET ${Object.keys(values)
      .map((k) => `${k} = ?`)
      .join(', ')} WHERE realm = ?`,
  )
    .bind(...Object.values(values), ctx.realm.code)
    .run()

describe('the local checker', () => {
  it('marks Portuguese misspellings with the dictionary and suggests the word', async () => {
    const ctx = await setup()
    const text = 'A escola está muinto diferente hoje. Os alunos aprendem com excessão de poucos.'
    const body = await checked(ctx, ctx.ids.pt, text)
    expect(body).toMatchObject({ engine: 'local', language: 'pt-BR', checks_used: 1, checks_limit: 5 })
    const spelling = body.marks.filter((m) => m.rule === 'spelling')
    expect(spelling.map((m) => m.excerpt)).toEqual(['muinto', 'excessão'])
    for (const m of body.marks) expect(text.slice(m.offset, m.offset + m.length)).toBe(m.excerpt)
    expect(spelling[0]).toMatchObject({ category: 'orthography', message: '' })
    expect(spelling[0].suggestions).toContain('muito')
    expect(spelling[1].suggestions).toContain('exceção')
  })

  it('checks English and Spanish essays with their own dictionaries, plus the shared writing rules', async () => {
    const ctx = await setup()
    const en = await checked(ctx, ctx.ids.en, 'i will recieve the the letter tomorrow')
    expect(en.language).toBe('en-US')
    expect(en.marks.map((m) => [m.rule, m.category, m.excerpt])).toEqual([
      ['lowercase_start', 'orthography', 'i'],
      ['spelling', 'orthography', 'recieve'],
      ['repeated_word', 'syntax', 'the the'],
      ['no_final_punctuation', 'others', 'the letter tomorrow'],
    ])
    expect(en.marks[1].suggestions).toContain('receive')
    const es = await checked(ctx, ctx.ids.es, 'Los niños estában en la escuela. Aqui aprendemos mucho.')
    expect(es.marks.filter((m) => m.rule === 'spelling').map((m) => m.excerpt)).toEqual(['estában', 'Aqui'])
    expect(es.marks.find((m) => m.excerpt === 'Aqui')!.suggestions).toContain('Aquí')
    // A correct text has no marks; each language's words are right in its own dictionary only.
    expect((await checked(ctx, ctx.ids.pt, 'Os meninos cantávamos felizmente na escola brasileira.')).marks).toEqual([])
    expect((await checked(ctx, ctx.ids.en, 'The children were walking happily to school.')).marks).toEqual([])
  })

  it('builds each dictionary once per isolate (figures printed)', async () => {
    const started = performance.now()
    const a = await spellerFor('pt')
    const first = performance.now() - started
    const again = performance.now()
    expect(await spellerFor('pt')).toBe(a)
    console.log(`speller pt: first use ${Math.round(first)} ms (0 when an earlier test built it), again ${Math.round(performance.now() - again)} ms`)
    // The affix stripping itself, on a tiny dictionary: a suffix rule with a condition and a cross-product prefix.
    const tiny = hunspell('SET UTF-8\nSFX S Y 1\nSFX S 0 s [^s]\nPFX U Y 1\nPFX U 0 un .\nTRY aesnu\n', '2\nhappy/U\ncat/S\n')
    expect(['cat', 'cats', 'happy', 'unhappy', 'Cats'].map((w) => tiny.correct(w))).toEqual([true, true, true, true, true])
    expect(['catss', 'unhappys', 'dog'].map((w) => tiny.correct(w))).toEqual([false, false, false])
    expect(tiny.suggest('cts')).toContain('cats')
  })
})

describe('the LanguageTool server', () => {
  it('is called with the text and the essay language when the realm configures it, and its matches map to the categories', async () => {
    const ctx = await setup()
    await setAi(ctx, { languagetool_url: PROVIDERS(), languagetool_username: 'teacher@example.com', languagetool_api_key: 'test-ai-key' })
    const text = 'Eu vou muinto bem. Dei a informação ao diretor.'
    const body = await checked(ctx, ctx.ids.pt, text)
    expect(body.engine).toBe('languagetool')
    expect(body.marks).toEqual([
      {
        category: 'orthography',
        offset: 7,
        length: 6,
        excerpt: 'muinto',
        rule: 'lt:MORFOLOGIK_RULE',
        message: 'Possible spelling mistake found.',
        suggestions: ['muito'],
      },
      { category: 'syntax', offset: 23, length: 12, excerpt: 'a informação', rule: 'lt:CRASE', message: 'Crase.', suggestions: ['à informação'] },
    ])
    const requests = (await (await fetch(`${PROVIDERS()}/__requests`)).json()) as { path: string; body: Record<string, string> }[]
    const sent = requests.filter((r) => r.path === '/v2/check').at(-1)!
    expect(sent.body).toEqual({ text, language: 'pt-BR', username: 'teacher@example.com', apiKey: 'test-ai-key' })
    const en = await checked(ctx, ctx.ids.en, 'It was very very good.')
    expect(en.marks.map((m) => m.category)).toEqual(['language'])
  })

  it('a failing server is "essay check error" (502) and the check is given back', async () => {
    const ctx = await setup()
    await setAi(ctx, { languagetool_url: PROVIDERS() })
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'Um texto ltfail aqui.' }), 502, 'check_failed')
    expect(await used(ctx, ctx.ids.pt)).toBe(0)
    await setAi(ctx, { languagetool_api_key: 'wrong-key', languagetool_username: 'someone' })
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'Um texto.' }), 502, 'check_failed')
    expect(await used(ctx, ctx.ids.pt)).toBe(0)
  })
})

describe('limits', () => {
  it('counts checks per essay up to the realm limit: then "check limit reached" (429), nothing run', async () => {
    const ctx = await setup()
    await setAi(ctx, { essay_check_limit: 2 })
    expect((await checked(ctx, ctx.ids.pt, 'Texto um.')).checks_used).toBe(1)
    expect((await checked(ctx, ctx.ids.pt, 'Texto dois.')).checks_used).toBe(2)
    const refused = await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'Texto três.' }), 429, 'check_limit_reached')
    expect(refused.errors[0]).toMatchObject({ field: 'question_id', value: 2 })
    expect(await used(ctx, ctx.ids.pt)).toBe(2)
    // Another essay of the same answer has its own count; a limit of 0 turns the check off.
    expect((await checked(ctx, ctx.ids.en, 'Text one.')).checks_used).toBe(1)
    await setAi(ctx, { essay_check_limit: 0 })
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.es, text: 'Texto.' }), 429, 'check_limit_reached')
  })

  it('after the deadline: "online correction impossible after the deadline"; after delivery: already submitted', async () => {
    const ctx = await setup()
    await env.DB.prepare('UPDATE tms_task SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 60_000).toISOString(), ctx.task.id)
      .run()
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'Texto.' }), 422, 'check_after_deadline')
    expect(await used(ctx, ctx.ids.pt)).toBeNull()

    const other = await setup()
    const open = await api(other.realm.host, `tms/answer-student/${other.task.id}/open`, { method: 'POST', token: other.student.token, json: {} })
    const { receipt } = (await open.json()) as { receipt: string }
    const d = await api(other.realm.host, `tms/answer-student/${other.task.id}/deliver`, {
      method: 'POST',
      token: other.student.token,
      json: { answer_id: crypto.randomUUID(), receipt, answers: { [other.ids.pt]: { text: 'Um texto curto e certo.' } } },
    })
    expect(d.status, await d.clone().text()).toBe(201)
    await expectEnvelope(await check(other, { question_id: other.ids.pt, text: 'Texto.' }), 409, 'already_submitted')
  })

  it('too many errors: "essay contains too many errors, revise it" (422), the check counted', async () => {
    const ctx = await setup()
    const text = Array.from({ length: 20 }, (_, i) => `xqzw${String.fromCharCode(97 + i)}`).join(' ') + ' casa.'
    const res = await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text }), 422, 'too_many_errors')
    // 20 unknown words and the sentence's lowercase start.
    expect(res.errors[0]).toMatchObject({ field: 'text', value: 21 })
    expect(await used(ctx, ctx.ids.pt)).toBe(1)
  })
})

describe('input and scope', () => {
  it('bad input answers the envelope and counts nothing', async () => {
    const ctx = await setup()
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt }), 400)
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: '   ' }), 400)
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'x'.repeat(20_001) }), 400)
    await expectEnvelope(await check(ctx, { question_id: 42, text: 'Texto.' }), 400)
    await expectEnvelope(await check(ctx, ['text']), 400)
    await expectEnvelope(await check(ctx, { question_id: 'nope', text: 'Texto.' }), 422, 'unknown_question')
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.single, text: 'Texto.' }), 422, 'not_checkable')
    expect(await used(ctx, ctx.ids.pt)).toBeNull()
    const anonymous = await api(ctx.realm.host, `tms/answer-student/${ctx.task.id}/check`, {
      method: 'POST',
      json: { question_id: ctx.ids.pt, text: 'Texto.' },
    })
    expect(anonymous.status).toBe(401)
  })

  it("a student the task does not reach, or of another realm, gets 404 and counts nothing; counts are the realm's", async () => {
    const ctx = await setup()
    const { nick } = await user(ctx.realm.code)
    const outsider = await createSession(env.DB, ctx.realm.code, nick, { platform: 'web' })
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'Texto.' }, outsider.token), 404, 'task_not_found')
    const other = await setup()
    await expectEnvelope(await check(ctx, { question_id: ctx.ids.pt, text: 'Texto.' }, other.student.token, other.realm.host), 404, 'task_not_found')
    const counted = await env.DB.prepare('SELECT COUNT(*) AS n FROM tms_essay_check WHERE task_id = ?').bind(ctx.task.id).first<number>('n')
    expect(counted).toBe(0)
  })

  it('the realm settings: LanguageTool address and key (masked), the check limit validated', async () => {
    const ctx = await setup()
    const admin = await userWith(ctx.realm.code, ['mas_realm_get', 'mas_realm_edit'])
    const put = (json: Record<string, unknown>) => api(ctx.realm.host, 'ai/settings', { method: 'PUT', token: admin.token, json })
    await expectEnvelope(await put({ essay_check_limit: -1 }), 400)
    await expectEnvelope(await put({ essay_check_limit: 2.5 }), 400)
    await expectEnvelope(await put({ languagetool_url: 'ftp://lt.example' }), 400)
    const ok = await put({ languagetool_url: 'lt.example.com', languagetool_api_key: 'secret-key-123', essay_check_limit: 3 })
    expect(ok.status, await ok.clone().text()).toBe(200)
    const body = (await ok.json()) as Record<string, unknown>
    expect(body).toMatchObject({ languagetool_url: 'https://lt.example.com', essay_check_limit: 3 })
    expect(body.languagetool_api_key).not.toContain('secret-key')
    const row = await env.DB.prepare('SELECT languagetool_api_key, essay_check_limit FROM realm_ai WHERE realm = ?').bind(ctx.realm.code).first()
    expect(row).toEqual({ languagetool_api_key: 'secret-key-123', essay_check_limit: 3 })
  })
})

describe("the teacher's skill grades and marks", () => {
  /** The student delivers the Portuguese essay (and nothing else); the teacher's correction call. */
  async function delivered() {
    const ctx = await setup()
    const open = await api(ctx.realm.host, `tms/answer-student/${ctx.task.id}/open`, { method: 'POST', token: ctx.student.token, json: {} })
    const { receipt } = (await open.json()) as { receipt: string }
    const d = await api(ctx.realm.host, `tms/answer-student/${ctx.task.id}/deliver`, {
      method: 'POST',
      token: ctx.student.token,
      json: { answer_id: crypto.randomUUID(), receipt, answers: { [ctx.ids.pt]: { text: 'A escola está muinto diferente. Os alunos aprendem.' } } },
    })
    expect(d.status, await d.clone().text()).toBe(201)
    const answer = ((await d.json()) as { id: string }).id
    const correct = (json: Record<string, unknown>) => api(ctx.realm.host, `tms/answer/${answer}/correction`, { method: 'PUT', token: ctx.teacher.token, json })
    const skill = (await env.DB.prepare("SELECT id FROM tms_assessed_skill WHERE realm = ? AND type = 'skill'").bind(ctx.realm.code).first<string>('id'))!
    return { ...ctx, answer, correct, skill }
  }
  const stored = (answer: string) =>
    env.DB.prepare('SELECT skill_grades, marks, scores, score FROM tms_answer WHERE id = ?')
      .bind(answer)
      .first<{ skill_grades: string; marks: string; scores: string; score: number }>()

  it("grades an essay's skills (its score from their weighted mean) and keeps marks, on the answer and in the history; the student sees them", async () => {
    const ctx = await delivered()
    const mark = { category: 'orthography', excerpt: 'muinto', explanation: 'Escreve-se “muito”.' }
    const res = await ctx.correct({
      action: 'finalize',
      scores: { [ctx.ids.pt]: 2, [ctx.ids.en]: 0, [ctx.ids.es]: 0 },
      skill_grades: { [ctx.ids.pt]: { [ctx.skill]: 7.5 } },
      marks: { [ctx.ids.pt]: [mark] },
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as {
      skill_grades: Record<string, Record<string, number>>
      marks: Record<string, unknown[]>
      essay_skills: Record<string, { id: string; weight: number }[]>
      scores: Record<string, number>
      history: { skill_grades: unknown; marks: unknown }[]
    }
    // The essay is worth 10: 7.5 of 10 on its only skill makes 7.5, whatever score was typed.
    expect(body.scores[ctx.ids.pt]).toBe(7.5)
    expect(body.skill_grades).toEqual({ [ctx.ids.pt]: { [ctx.skill]: 7.5 } })
    expect(body.marks).toEqual({ [ctx.ids.pt]: [mark] })
    expect(body.essay_skills[ctx.ids.pt].map((k) => k.id)).toEqual([ctx.skill])
    expect(body.history.at(-1)).toMatchObject({ skill_grades: { [ctx.ids.pt]: { [ctx.skill]: 7.5 } }, marks: { [ctx.ids.pt]: [mark] } })
    expect(await stored(ctx.answer)).toMatchObject({ score: 7.5 })

    const view = await api(ctx.realm.host, `tms/answer-student/${ctx.task.id}/answer`, { token: ctx.student.token })
    const seen = (await view.json()) as {
      answer: { correction: { teacher_marks: Record<string, unknown[]>; skill_grades: Record<string, Record<string, number>> } }
      essay_skills: Record<string, { id: string; name: string }[]>
    }
    expect(seen.answer.correction.teacher_marks).toEqual({ [ctx.ids.pt]: [mark] })
    expect(seen.answer.correction.skill_grades).toEqual({ [ctx.ids.pt]: { [ctx.skill]: 7.5 } })
    expect(seen.essay_skills[ctx.ids.pt].map((k) => k.id)).toEqual([ctx.skill])
  })

  it('refuses grades and marks that do not fit the answer, changing nothing', async () => {
    const ctx = await delivered()
    const before = await stored(ctx.answer)
    await expectEnvelope(await ctx.correct({ action: 'save', skill_grades: { [ctx.ids.pt]: { [ctx.skill]: 10.5 } } }), 400)
    await expectEnvelope(await ctx.correct({ action: 'save', skill_grades: { [ctx.ids.pt]: { [ctx.skill]: 7.25 } } }), 400)
    await expectEnvelope(await ctx.correct({ action: 'save', marks: { [ctx.ids.pt]: [{ category: 'spelling', excerpt: 'muinto' }] } }), 400)
    await expectEnvelope(await ctx.correct({ action: 'save', marks: { [ctx.ids.pt]: [{ category: 'orthography', excerpt: '' }] } }), 400)
    const wrong = await expectEnvelope(
      await ctx.correct({
        action: 'save',
        skill_grades: { [ctx.ids.pt]: { 'sk-nope': 5 }, [ctx.ids.single]: { [ctx.skill]: 5 } },
        marks: { [ctx.ids.pt]: [{ category: 'syntax', excerpt: 'words she never wrote' }], [ctx.ids.single]: [] },
      }),
      422,
    )
    expect(wrong.errors.map((e) => [e.field, e.cause])).toEqual([
      [`skill_grades.${ctx.ids.pt}.sk-nope`, 'unknown_skill'],
      [`skill_grades.${ctx.ids.single}`, 'not_essay'],
      [`marks.${ctx.ids.pt}[0].excerpt`, 'excerpt_not_found'],
      [`marks.${ctx.ids.single}`, 'not_markable'],
    ])
    expect(await stored(ctx.answer)).toEqual(before)
  })

  it('an empty list clears the marks; skills not graded leave the typed score', async () => {
    const ctx = await delivered()
    const mark = { category: 'note', excerpt: 'alunos', explanation: '' }
    expect((await ctx.correct({ action: 'save', scores: { [ctx.ids.pt]: 4 }, marks: { [ctx.ids.pt]: [mark] } })).status).toBe(200)
    expect(JSON.parse((await stored(ctx.answer))!.scores)[ctx.ids.pt]).toBe(4)
    expect((await ctx.correct({ action: 'save', marks: { [ctx.ids.pt]: [] } })).status).toBe(200)
    expect(JSON.parse((await stored(ctx.answer))!.marks)).toEqual({ [ctx.ids.pt]: [] })
  })
})

describe('skillsScore', () => {
  it("is the skills' weighted mean out of 10 times the question's score, on the score step", () => {
    const skills = [
      { id: 'a', weight: 2 },
      { id: 'b', weight: 1 },
    ]
    expect(skillsScore(skills, { a: 9, b: 6 }, 10)).toBe(8)
    expect(skillsScore(skills, { a: 9, b: 6 }, 3)).toBe(2.4)
    expect(skillsScore(skills, { b: 5 }, 2)).toBe(1)
    expect(skillsScore(skills, {}, 10)).toBeNull()
  })
})
