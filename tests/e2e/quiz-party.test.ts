import { describe, expect, it } from 'vitest'
import type { QuizServerMessage } from '../../party/quiz-protocol'
import { realmApi, url } from './browser'
import { PartyClient } from './party-client'

/**
 * The quiz party (issue 14), with real WebSocket clients against `partykit dev` as `npm start` runs it: answers
 * acknowledged with the question id and counted once when resent, an answer after the deadline refused, a late
 * joiner entering at the current question, and a player who drops and rejoins keeping score and lives; results in D1.
 */

const tag = Date.now().toString(36)
type Api = Awaited<ReturnType<typeof realmApi>>

/** Players of this file's own (demo's accounts are shared by every browser file). */
async function player(name: string): Promise<Api> {
  const root = await realmApi('demo', 'root')
  const nick = `${name}-${tag}`
  await root('POST', 'mas/user', { nick, name: `Jogador ${name}`, password: 'senha-do-jogador-1', roles: [] })
  return realmApi('demo', nick, 'senha-do-jogador-1')
}

const Client = {
  async open(api: Api, quizId: string) {
    const { ticket, room } = await api<{ ticket: string; room: string }>('POST', `quiz/live/${quizId}/ticket`)
    return PartyClient.connect<QuizServerMessage>(room, ticket)
  },
  connect: (room: string, ticket: string) => PartyClient.connect<QuizServerMessage>(room, ticket),
}

describe('quiz party', () => {
  it('runs a question: acks once, refuses late answers, lets a late joiner in, and keeps score and lives across a rejoin', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await root<{ id: string }>('POST', 'channel', { name: `Quiz ao vivo ${tag}`, members: [{ nick: 'root', permission: 'owner' }] })
    const quiz = await root<{ id: string }>('POST', 'quiz', {
      name: `Quiz ${tag}`,
      channel_id: channel.id,
      reward_type: 'realm',
      reward_value: 0,
      reward_per_player: 0,
      question_duration: 9,
      lifes_timeout: 30,
      lives: 1,
    })
    const { items } = await root<{ items: { id: string }[] }>('POST', `quiz/${quiz.id}/question/import`, {
      format: 'json',
      content: JSON.stringify([
        { text: 'Capital do Brasil?', option_a: 'Rio', option_b: 'Brasília', option_c: 'Salvador', correct: 'B' },
        { text: '2 + 2?', option_a: '4', option_b: '5', option_c: '6', correct: 'A' },
      ]),
    })
    const [q1, q2] = items
    await root('POST', `quiz/${quiz.id}/start`)
    const ana = await player('ana')
    const bia = await player('bia')

    const mod = await Client.open(root, quiz.id)
    const modWelcome = await mod.next('welcome')
    expect(modWelcome.you.role).toBe('moderator')
    expect(modWelcome.questions?.map((q) => [q.id, q.correct])).toEqual([
      [q1.id, 'B'],
      [q2.id, 'A'],
    ])
    const a = await Client.open(ana, quiz.id)
    expect((await a.next('welcome')).phase).toBe('idle')

    // A player cannot drive the quiz.
    a.send({ type: 'publish', question_id: q1.id })
    expect((await a.next('error')).cause).toBe('forbidden')

    mod.send({ type: 'publish', question_id: q1.id })
    const shown = await a.next('question')
    expect(shown.question).toMatchObject({ id: q1.id, text: 'Capital do Brasil?', options: { A: 'Rio', B: 'Brasília', C: 'Salvador' } })
    expect(shown.question).not.toHaveProperty('correct')
    expect(shown.deadline - shown.now).toBeLessThanOrEqual(9000)

    // The answer, then two resends (one with another option): one ack each, all the first answer's.
    a.send({ type: 'answer', question_id: q1.id, option: 'B' })
    a.send({ type: 'answer', question_id: q1.id, option: 'B' })
    a.send({ type: 'answer', question_id: q1.id, option: 'C' })
    await expect.poll(() => a.count('ack')).toBe(3)
    const acks = a.events.filter((e) => e.type === 'ack')
    expect(acks.map((e) => [e.question_id, e.option])).toEqual([
      [q1.id, 'B'],
      [q1.id, 'B'],
      [q1.id, 'B'],
    ])
    expect(new Set(acks.map((e) => e.ms)).size).toBe(1)
    const tally = await mod.next('tally', (e) => e.answered === 1)
    expect(tally.counts).toEqual({ A: 0, B: 1, C: 0 })

    // A late joiner enters at the current question with the server's deadline.
    const b = await Client.open(bia, quiz.id)
    const late = await b.next('welcome')
    expect(late).toMatchObject({ phase: 'open', question: { id: q1.id }, deadline: shown.deadline, answer: null })
    expect(late.standing).toMatchObject({ score: 0, lives_left: 1, eliminated: false })
    b.send({ type: 'answer', question_id: q1.id, option: 'A' })
    await b.next('ack')

    // After the deadline: a new answer is refused with an event; a resend of one that counted gets its ack.
    const guest = await fetch(url('localhost', `/api/quiz/live/${quiz.id}/guest`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': 'demo' },
      body: JSON.stringify({ name: 'Visitante' }),
    })
    expect(guest.status).toBe(200)
    const g = await Client.connect(`quiz-${quiz.id}`, ((await guest.json()) as { ticket: string }).ticket)
    await g.next('welcome')
    await expect.poll(() => Date.now() > shown.deadline + 300, { timeout: 15_000, interval: 200 }).toBe(true)
    g.send({ type: 'answer', question_id: q1.id, option: 'B' })
    const refused = await g.next('error')
    expect(refused).toMatchObject({ cause: 'too_late', question_id: q1.id })
    const before = a.count('ack')
    a.send({ type: 'answer', question_id: q1.id, option: 'B' })
    await expect.poll(() => a.count('ack')).toBe(before + 1)
    expect(a.events.filter((e) => e.type === 'ack').at(-1)).toMatchObject({ question_id: q1.id, option: 'B', ms: acks[0].ms })

    // The result: Ana was right and scored; Bia missed and may use her life.
    mod.send({ type: 'result' })
    const result = await a.next('result')
    expect(result).toMatchObject({ question_id: q1.id, correct: 'B', counts: { A: 1, B: 1, C: 0 } })
    expect(result.leaderboard[0]).toMatchObject({ rank: 1, nick: expect.stringContaining(`ana-${tag}`) })
    const anaStanding = await a.next('standing')
    expect(anaStanding.correct).toBe(true)
    expect(anaStanding.standing.score).toBeGreaterThanOrEqual(500)
    expect(anaStanding.rank).toBe(1)
    const biaStanding = await b.next('standing')
    expect(biaStanding).toMatchObject({ correct: false, standing: { score: 0, lives_left: 1, eliminated: false } })
    expect(biaStanding.standing.life_until).toBeGreaterThan(Date.now() - 5000)
    b.send({ type: 'life', question_id: q1.id })
    expect((await b.next('life')).standing).toMatchObject({ lives_left: 0, lives_used: 1, life_until: null, eliminated: false })
    mod.send({ type: 'close' })
    expect((await mod.next('closed')).written).toBe(true)

    // Results are in D1: the console's statistics read them.
    const stats = await root<{
      questions: { id: string; answers: number; distribution: Record<string, number> }[]
      players: { nick: string; score: number; lives_used: number }[]
    }>('GET', `quiz/${quiz.id}/statistics`)
    expect(stats.questions[0]).toMatchObject({ id: q1.id, answers: 2, distribution: { A: 1, B: 1, C: 0 } })
    expect(stats.players.find((p) => p.nick.startsWith(`ana-${tag}`))?.score).toBe(anaStanding.standing.score)
    expect(stats.players.find((p) => p.nick.startsWith(`bia-${tag}`))?.lives_used).toBe(1)

    // Both drop and come back: score, lives and rank are theirs again; the next question reaches the rejoined clients.
    a.close()
    b.close()
    const a2 = await Client.open(ana, quiz.id)
    const back = await a2.next('welcome')
    expect(back.standing).toMatchObject({ score: anaStanding.standing.score, lives_left: 1, eliminated: false })
    expect(back.rank).toBe(1)
    const b2 = await Client.open(bia, quiz.id)
    expect((await b2.next('welcome')).standing).toMatchObject({ score: 0, lives_left: 0, lives_used: 1, eliminated: false })
    mod.send({ type: 'publish', question_id: q2.id })
    expect((await a2.next('question')).question.id).toBe(q2.id)
    expect((await b2.next('question')).question.id).toBe(q2.id)
    a2.send({ type: 'answer', question_id: q2.id, option: 'A' })
    expect((await a2.next('ack')).question_id).toBe(q2.id)
    for (const c of [mod, a2, b2, g]) c.close()
  })
})
