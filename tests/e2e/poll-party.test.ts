import { describe, expect, it } from 'vitest'
import type { PollServerMessage } from '../../party/quiz-protocol'
import { realmApi, url } from './browser'
import { PartyClient } from './party-client'

/**
 * The quiz party in poll mode (issue 14), with real WebSocket clients against `partykit dev` as `npm start` runs it:
 * the poll's requirements answered before a vote (wrong answers refused), one vote per player and question (a resend,
 * even with other choices, acknowledged with the first vote and counted once), choices that do not fit refused, a
 * late joiner entering at the open question, a vote after the deadline refused with `too_late`, a player who drops
 * and rejoins keeping their vote and answers, the moderator's live counts, and the votes in D1 once the question closes.
 */

const tag = Date.now().toString(36)
type Api = Awaited<ReturnType<typeof realmApi>>
type Client = PartyClient<PollServerMessage>

async function player(name: string): Promise<Api> {
  const root = await realmApi('demo', 'root')
  const nick = `${name}-${tag}`
  await root('POST', 'mas/user', { nick, name: `Votante ${name}`, password: 'senha-do-votante-1', roles: [] })
  return realmApi('demo', nick, 'senha-do-votante-1')
}

async function open(api: Api, pollId: string): Promise<Client> {
  const { ticket, room } = await api<{ ticket: string; room: string }>('POST', `poll/live/${pollId}/ticket`)
  expect(room).toBe(`poll-${pollId}`)
  return PartyClient.connect<PollServerMessage>(room, ticket)
}

describe('poll party', () => {
  it('takes one vote per player and question after the requirements, refuses late votes, and keeps votes across a rejoin', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await root<{ id: string }>('POST', 'channel', { name: `Enquete ao vivo ${tag}`, members: [{ nick: 'root', permission: 'owner' }] })
    const poll = await root<{ id: string }>('POST', 'poll', {
      type: 'open',
      name: `Enquete ${tag}`,
      channel_id: channel.id,
      question_duration: 9,
      requires: { age: true, location: true },
    })
    const q1 = await root<{ id: string }>('POST', `poll/${poll.id}/question`, { text: 'Melhor horário?', options: ['Manhã', 'Noite'] })
    // A player has no ticket before the poll starts.
    const ana = await player('ana')
    const early = await fetch(url('localhost', `/api/poll/live/${poll.id}/guest`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': 'demo' },
      body: JSON.stringify({ name: 'Cedo demais' }),
    })
    expect(early.status).toBe(409)
    await root('POST', `poll/${poll.id}/start`)

    const mod = await open(root, poll.id)
    const modWelcome = await mod.next('poll_welcome')
    expect(modWelcome.you.role).toBe('moderator')
    expect(modWelcome.poll.requires).toEqual(['age', 'location'])
    expect(modWelcome.questions?.map((q) => [q.id, q.labels, q.state])).toEqual([[q1.id, ['Manhã', 'Noite'], 'pending']])

    const a = await open(ana, poll.id)
    expect(await a.next('poll_welcome')).toMatchObject({ phase: 'idle', profile: null, vote: null, counts: null })
    a.send({ type: 'publish', question_id: q1.id })
    expect((await a.next('error')).cause).toBe('forbidden')

    mod.send({ type: 'publish', question_id: q1.id })
    const shown = await a.next('poll_question')
    expect(shown.question).toMatchObject({ id: q1.id, text: 'Melhor horário?', type: 'single', labels: ['Manhã', 'Noite'] })
    expect(shown.deadline - shown.now).toBeLessThanOrEqual(9000)

    // The requirements come first: a vote without them, and wrong answers, are refused.
    a.send({ type: 'vote', question_id: q1.id, choices: [1] })
    expect(await a.next('error', (e) => e.cause === 'requirements')).toMatchObject({ question_id: q1.id, missing: ['age', 'location'] })
    a.send({ type: 'profile', profile: { age: 200 } })
    await a.next('error', (e) => e.cause === 'invalid_message')
    a.send({ type: 'profile', profile: { age: 31 } })
    expect(await a.next('error', (e) => e.cause === 'requirements' && !e.question_id)).toMatchObject({ missing: ['location'] })
    a.send({ type: 'profile', profile: { location: 'Recife' } })
    expect((await a.next('profile_ok')).profile).toEqual({ age: 31, location: 'Recife' })

    // Choices that do not fit a single-choice question are refused; then one vote, resent twice: acknowledged three times, counted once.
    a.send({ type: 'vote', question_id: q1.id, choices: [2] })
    await a.next('error', (e) => e.cause === 'invalid_choice')
    a.send({ type: 'vote', question_id: q1.id, choices: [0, 1] })
    await expect.poll(() => a.events.filter((e) => e.type === 'error' && e.cause === 'invalid_choice').length).toBe(2)
    a.send({ type: 'vote', question_id: q1.id, choices: [1] })
    a.send({ type: 'vote', question_id: q1.id, choices: [1] })
    a.send({ type: 'vote', question_id: q1.id, choices: [0] })
    await expect.poll(() => a.count('voted')).toBe(3)
    expect(a.events.filter((e) => e.type === 'voted').map((e) => [e.question_id, e.choices])).toEqual([
      [q1.id, [1]],
      [q1.id, [1]],
      [q1.id, [1]],
    ])
    expect((await mod.next('poll_tally', (e) => e.voted === 1)).counts).toEqual([0, 1])

    // A late joiner enters at the open question and votes once their requirements are in.
    const bia = await player('bia')
    const b = await open(bia, poll.id)
    expect(await b.next('poll_welcome')).toMatchObject({ phase: 'open', question: { id: q1.id }, deadline: shown.deadline, vote: null, profile: null })
    b.send({ type: 'profile', profile: { age: 45, location: 'Lisboa' } })
    await b.next('profile_ok')
    b.send({ type: 'vote', question_id: q1.id, choices: [0] })
    expect((await b.next('voted')).choices).toEqual([0])
    expect((await mod.next('poll_tally', (e) => e.voted === 2)).counts).toEqual([1, 1])

    // Ana drops and comes back: her vote and answers are hers again.
    a.close()
    const a2 = await open(ana, poll.id)
    expect(await a2.next('poll_welcome')).toMatchObject({
      phase: 'open',
      vote: { question_id: q1.id, choices: [1] },
      profile: { age: 31, location: 'Recife' },
      counts: null,
    })

    // After the deadline: a new vote is refused with an event; a resend of one that counted gets its acknowledgement.
    const guest = await fetch(url('localhost', `/api/poll/live/${poll.id}/guest`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': 'demo' },
      body: JSON.stringify({ name: 'Visitante' }),
    })
    expect(guest.status).toBe(200)
    const g = await PartyClient.connect<PollServerMessage>(`poll-${poll.id}`, ((await guest.json()) as { ticket: string }).ticket)
    await g.next('poll_welcome')
    g.send({ type: 'profile', profile: { age: 20, location: 'Natal' } })
    await g.next('profile_ok')
    await expect.poll(() => Date.now() > shown.deadline + 300, { timeout: 15_000, interval: 200 }).toBe(true)
    g.send({ type: 'vote', question_id: q1.id, choices: [0] })
    expect(await g.next('error')).toMatchObject({ cause: 'too_late', question_id: q1.id })
    a2.send({ type: 'vote', question_id: q1.id, choices: [1] })
    expect((await a2.next('voted')).choices).toEqual([1])

    // The result reaches everyone; closing writes the votes to D1, where the console's statistics read them.
    mod.send({ type: 'result' })
    expect(await g.next('poll_result')).toMatchObject({ question_id: q1.id, counts: [1, 1], voted: 2 })
    mod.send({ type: 'close' })
    expect((await mod.next('closed')).written).toBe(true)
    const stats = await root<{ questions: { id: string; votes: number; distribution: Record<string, number> }[] }>('GET', `poll/${poll.id}/statistics`)
    expect(stats.questions).toEqual([{ id: q1.id, text: 'Melhor horário?', votes: 2, distribution: { '0': 1, '1': 1 } }])
    const questions = await root<{ items: { state: string }[] }>('GET', `poll/${poll.id}/question`)
    expect(questions.items.map((q) => q.state)).toEqual(['finished'])
    for (const c of [mod, a2, b, g]) c.close()
  })
})
