import { describe, expect, it } from 'vitest'
import type { Poll, PollQuestion } from '#shared/schemas/quiz'
import { resultPages } from '../../party/quiz-results'
import { signTicket, verifyTicket } from '../../party/ticket'
import { realmWith } from './factories'
import { api, expectEnvelope, userWith } from './helpers'

/** Polls (issue 14): seed 002 §3, §4, §5 (one active poll per channel) and §8, through the API. */

const STAFF = ['poll_poll_list', 'poll_poll_get', 'poll_poll_create', 'poll_poll_edit', 'poll_poll_delete', 'poll_poll_control', 'sns_channel_create']

async function setup() {
  const realm = await realmWith()
  const staff = await userWith(realm.code, STAFF)
  const channel = async (name: string) => {
    const res = await api(realm.host, 'channel', { method: 'POST', token: staff.token, json: { name, members: [{ nick: staff.nick, permission: 'owner' }] } })
    expect(res.status, await res.clone().text()).toBe(201)
    return ((await res.json()) as { id: string }).id
  }
  return { ...realm, token: staff.token, channel: await channel('Canal A'), other: await channel('Canal B') }
}
type Ctx = Awaited<ReturnType<typeof setup>>

const post = (ctx: Ctx, path: string, json?: unknown) => api(ctx.host, path, { method: 'POST', token: ctx.token, ...(json !== undefined ? { json } : {}) })

async function createPoll(ctx: Ctx, channel = ctx.channel, questions = 1) {
  const res = await post(ctx, 'poll', { type: 'open', name: 'Enquete', channel_id: channel, question_duration: 30, requires: { age: true } })
  expect(res.status, await res.clone().text()).toBe(201)
  const poll = (await res.json()) as Poll
  for (let i = 0; i < questions; i++)
    expect((await post(ctx, `poll/${poll.id}/question`, { text: `Pergunta ${i}?`, options: ['Sim', 'Não'] })).status).toBe(201)
  return poll
}

describe('polls', () => {
  it('validates the poll and its questions (two options by default, empty ones dropped)', async () => {
    const ctx = await setup()
    for (const [over, field] of [
      [{ type: undefined }, 'type'],
      [{ name: '' }, 'name'],
      [{ channel_id: undefined }, 'channel_id'],
      [{ question_duration: 8 }, 'question_duration'],
    ] as const) {
      const body = await expectEnvelope(
        await post(ctx, 'poll', { ...{ type: 'open', name: 'Enquete', channel_id: ctx.channel, question_duration: 30 }, ...over }),
        400,
      )
      expect(body.errors.map((e) => e.field)).toContain(field)
    }
    const poll = await createPoll(ctx, ctx.channel, 0)
    expect(poll.requires).toEqual({ age: true, gender: false, location: false })
    // The form's two empty options are not a question's options.
    await expectEnvelope(await post(ctx, `poll/${poll.id}/question`, { text: 'Qual?' }), 400)
    await expectEnvelope(await post(ctx, `poll/${poll.id}/question`, { text: 'Qual?', options: ['Só uma', ''] }), 400)
    const rating = (await (await post(ctx, `poll/${poll.id}/question`, { text: 'Nota?', type: 'rating', params: { scale: 10 } })).json()) as PollQuestion
    expect(rating).toMatchObject({ type: 'rating', options: [], params: { scale: 10, max_choices: 0 }, state: 'pending' })
  })

  it('allows one active poll per channel, with the seed message; another channel is free; finishing frees it', async () => {
    const ctx = await setup()
    const first = await createPoll(ctx)
    const second = await createPoll(ctx)
    const elsewhere = await createPoll(ctx, ctx.other)
    expect((await post(ctx, `poll/${first.id}/start`)).status).toBe(200)
    const refused = await expectEnvelope(await post(ctx, `poll/${second.id}/start`), 409, 'channel_conflict')
    expect(refused.errors[0].message).toBe('poll.error.channel_conflict')
    expect((await post(ctx, `poll/${elsewhere.id}/start`)).status).toBe(200)
    expect((await post(ctx, `poll/${first.id}/finish`)).status).toBe(200)
    expect((await post(ctx, `poll/${second.id}/start`)).status).toBe(200)
    const listed = (await (await api(ctx.host, `poll?status=active&channel_id=${ctx.channel}`, { token: ctx.token })).json()) as { items: Poll[] }
    expect(listed.items.map((p) => p.id)).toEqual([second.id])
  })

  it('runs the lifecycle: question publish/result/finish/hide/delete, cancel, clone', async () => {
    const ctx = await setup()
    const poll = await createPoll(ctx, ctx.channel, 2)
    const [q1, q2] = ((await (await api(ctx.host, `poll/${poll.id}/question`, { token: ctx.token })).json()) as { items: PollQuestion[] }).items
    await post(ctx, `poll/${poll.id}/start`)
    expect((await post(ctx, `poll/${poll.id}/question/${q1.id}/publish`)).status).toBe(200)
    await expectEnvelope(await post(ctx, `poll/${poll.id}/question/${q2.id}/publish`), 409, 'another_published')
    await expectEnvelope(await api(ctx.host, `poll/${poll.id}/question/${q1.id}`, { method: 'DELETE', token: ctx.token }), 409, 'state')
    expect((await post(ctx, `poll/${poll.id}/question/${q1.id}/result`)).status).toBe(200)
    expect((await post(ctx, `poll/${poll.id}/question/${q1.id}/finish`)).status).toBe(200)
    expect((await post(ctx, `poll/${poll.id}/question/${q1.id}/hide`)).status).toBe(200)
    expect((await api(ctx.host, `poll/${poll.id}/question/${q2.id}`, { method: 'DELETE', token: ctx.token })).status).toBe(204)
    const clone = (await (await post(ctx, `poll/${poll.id}/clone`)).json()) as { id: string }
    const copy = (await (await api(ctx.host, `poll/${clone.id}`, { token: ctx.token })).json()) as Poll
    expect(copy).toMatchObject({ status: 'draft', question_count: 1, requires: { age: true } })
    expect((await post(ctx, `poll/${poll.id}/cancel`)).status).toBe(200)
    expect((await expectEnvelope(await post(ctx, `poll/${poll.id}/finish`), 409)).errors[0].message).toBe('poll.error.finish')
    expect((await expectEnvelope(await api(ctx.host, 'poll/nope', { token: ctx.token }), 404)).errors.length).toBe(1)
  })
})

describe('poll live API (the quiz party in poll mode and its tickets)', () => {
  const SECRET = 'test-party-secret'
  const party = async (ctx: Ctx, pollId: string, path: string, json?: unknown, as = 'poll-api') =>
    api(ctx.host, `poll/live/${pollId}/${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { 'x-party-ticket': await signTicket(SECRET, { party: as, room: pollId, realm: ctx.code, nick: 'party', name: 'party' }) },
      ...(json === undefined ? {} : { json }),
    })

  it('mints tickets to the poll room; players only while the poll runs', async () => {
    const ctx = await setup()
    const poll = await createPoll(ctx)
    const player = await userWith(ctx.code, [])
    const early = await expectEnvelope(await api(ctx.host, `poll/live/${poll.id}/ticket`, { method: 'POST', token: player.token }), 409, 'not_active')
    expect(early.errors[0].message).toBe('poll.error.not_active')
    const mod = (await (await api(ctx.host, `poll/live/${poll.id}/ticket`, { method: 'POST', token: ctx.token })).json()) as {
      ticket: string
      role: string
      room: string
    }
    expect(mod).toMatchObject({ role: 'moderator', room: `poll-${poll.id}` })
    expect(await verifyTicket(SECRET, mod.ticket, 'quiz', `poll-${poll.id}`)).toMatchObject({ role: 'moderator', realm: ctx.code })
    await post(ctx, `poll/${poll.id}/start`)
    const res = await api(ctx.host, `poll/live/${poll.id}/ticket`, { method: 'POST', token: player.token })
    expect((await res.json()) as { role: string }).toMatchObject({ role: 'player' })
    await expectEnvelope(await api(ctx.host, 'poll/live/nope/ticket', { method: 'POST', token: ctx.token }), 404, 'not_found')
  })

  it('serves the party its state, opens a question and takes its votes once (a retried write adds nothing)', async () => {
    const ctx = await setup()
    const poll = await createPoll(ctx)
    await post(ctx, `poll/${poll.id}/start`)
    // Only the party's own service ticket: none, or the quiz party's API ticket, is refused.
    expect((await api(ctx.host, `poll/live/${poll.id}/state`)).status).toBe(401)
    expect((await party(ctx, poll.id, 'state', undefined, 'quiz-api')).status).toBe(401)
    const state = (await (await party(ctx, poll.id, 'state')).json()) as {
      status: string
      requires: Record<string, boolean>
      questions: { id: string; options: string[]; state: string }[]
    }
    expect(state).toMatchObject({ status: 'active', requires: { age: true } })
    const qid = state.questions[0].id
    expect(state.questions[0]).toMatchObject({ options: ['Sim', 'Não'], state: 'pending' })
    const at = new Date()
    const open = { published_at: at.toISOString(), deadline: new Date(at.getTime() + 30_000).toISOString() }
    expect((await party(ctx, poll.id, `question/${qid}/publish`, open)).status).toBe(200)
    await expectEnvelope(await party(ctx, poll.id, `question/${qid}/publish`, open), 409, 'state')
    expect((await party(ctx, poll.id, `question/${qid}/result`, {})).status).toBe(200)
    // A vote's choices and profile are validated.
    await expectEnvelope(await party(ctx, poll.id, `question/${qid}/votes`, { votes: [{ nick: 'a', choices: [], profile: {} }] }), 400)
    const votes = {
      votes: [
        { nick: 'ana', choices: [1], profile: { age: 30 } },
        { nick: 'bia', choices: [0], profile: { age: 41 } },
      ],
    }
    expect((await party(ctx, poll.id, `question/${qid}/votes`, votes)).status).toBe(200)
    // A retry (another choice for ana this time) counts nothing twice: the first vote stays.
    expect((await party(ctx, poll.id, `question/${qid}/votes`, { votes: [{ nick: 'ana', choices: [0], profile: {} }] })).status).toBe(200)
    const stats = (await (await api(ctx.host, `poll/${poll.id}/statistics`, { token: ctx.token })).json()) as {
      questions: { votes: number; distribution: Record<string, number> }[]
    }
    expect(stats.questions[0]).toMatchObject({ votes: 2, distribution: { '0': 1, '1': 1 } })
    const questions = (await (await api(ctx.host, `poll/${poll.id}/question`, { token: ctx.token })).json()) as { items: PollQuestion[] }
    expect(questions.items[0].state).toBe('finished')
    await expectEnvelope(await party(ctx, poll.id, 'question/nope/votes', votes), 404, 'not_found')
  })

  it("takes a crowd's votes past D1's 2 MB string limit in pages; only the final page finishes the question", async () => {
    const ctx = await setup()
    const poll = await createPoll(ctx)
    await post(ctx, `poll/${poll.id}/start`)
    const qid = ((await (await party(ctx, poll.id, 'state')).json()) as { questions: { id: string }[] }).questions[0].id
    const at = new Date()
    await party(ctx, poll.id, `question/${qid}/publish`, { published_at: at.toISOString(), deadline: new Date(at.getTime() + 30_000).toISOString() })
    const N = 14_000
    const votes = Array.from({ length: N }, (_, i) => ({
      nick: `guest:${String(i).padStart(6, '0')}${'x'.repeat(140)}`,
      choices: [i % 2],
      profile: { age: 20 + (i % 50), location: 'São Paulo, Brasil' },
    }))
    expect(JSON.stringify(votes).length).toBeGreaterThan(2_000_000)
    const pages = resultPages(votes, [])
    expect(pages.length).toBeGreaterThan(1)
    const state = async () =>
      ((await (await api(ctx.host, `poll/${poll.id}/question`, { token: ctx.token })).json()) as { items: PollQuestion[] }).items[0].state
    for (const page of pages) {
      expect(await state()).toBe('published')
      const res = await party(ctx, poll.id, `question/${qid}/votes`, { votes: page.answers, final: page.final })
      expect(res.status, await res.clone().text()).toBe(200)
    }
    expect(await state()).toBe('finished')
    // Every vote in one body (~2.7 MB, under the 5 MB limit) again: one string past 2 MB is split, nothing counts twice.
    const again = await party(ctx, poll.id, `question/${qid}/votes`, { votes })
    expect(again.status, await again.clone().text()).toBe(200)
    const stats = (await (await api(ctx.host, `poll/${poll.id}/statistics`, { token: ctx.token })).json()) as {
      questions: { votes: number; distribution: Record<string, number> }[]
    }
    expect(stats.questions[0]).toMatchObject({ votes: N, distribution: { '0': N / 2, '1': N / 2 } })
  })
})
