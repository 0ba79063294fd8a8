import { beforeAll, describe, expect, it } from 'vitest'
import { realmApi, url } from './browser'
import { Client } from './live-client'

/**
 * The channel party (issue 13 "Live"), with real WebSocket clients against `partykit dev` as `npm start` runs it:
 * tickets from the realm API, rules enforced in the party, and nothing lost or doubled across a reconnect.
 */

const tag = Date.now().toString(36)
let n = 0

type Api = Awaited<ReturnType<typeof realmApi>>
const apis = new Map<string, Promise<Api>>()
const as = (nick: string) => {
  if (!apis.has(nick)) apis.set(nick, nick === OTHER ? otherUser() : realmApi('demo', nick))
  return apis.get(nick)!
}

/**
 * A second participant of this file's own: demo's accounts are shared by every browser file (signin.test.ts changes
 * tutor's password), so the file makes the user it bans and promotes.
 */
const OTHER = `aluno-${tag}`
const OTHER_PASSWORD = 'senha-do-aluno-1'
async function otherUser(): Promise<Api> {
  const root = await as('root')
  await root('POST', 'mas/user', { nick: OTHER, name: 'Aluno da Festa', password: OTHER_PASSWORD, roles: [] })
  return realmApi('demo', OTHER, OTHER_PASSWORD)
}

async function createChannel(
  modes: Record<string, unknown>,
  members: { nick: string; permission: string }[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const root = await as('root')
  const made = await root<{ id: string }>('POST', 'channel', {
    name: `Ao vivo ${tag} ${++n}`,
    modes,
    members: [{ nick: 'root', permission: 'owner' }, ...members],
    ...extra,
  })
  return made.id
}

async function ticket(nick: string, channelId: string): Promise<string> {
  const api = await as(nick)
  return (await api<{ ticket: string }>('POST', `channel/live/${channelId}/ticket`)).ticket
}

describe('channel party', () => {
  beforeAll(async () => {
    await as(OTHER)
  })

  it('refuses a connection without a valid ticket, and a ticket for another channel', async () => {
    const a = await createChannel({}, [])
    const b = await createChannel({}, [])
    await expect(Client.open(a, 'forged.ticket')).rejects.toThrow('refused 401')
    await expect(Client.open(a, await ticket('root', b))).rejects.toThrow('refused 401')
  })

  it('moderated chat: an operator speaks, a participant is refused with an error event (never a silent drop)', async () => {
    const id = await createChannel({ moderated_chat: true }, [
      { nick: 'teacher', permission: 'operator' },
      { nick: 'manager', permission: 'mobile' },
    ])
    const op = await Client.open(id, await ticket('teacher', id))
    const welcome = await op.next('welcome')
    expect(welcome.you).toMatchObject({ nick: 'teacher@demo', role: 'operator' })
    expect(welcome.settings.moderated_chat).toBe(true)
    const member = await Client.open(id, await ticket('manager', id))
    await member.next('welcome')
    await op.next('joined', (e) => e.member.nick === 'manager@demo')

    member.send({ type: 'chat', id: 'm1', text: 'posso falar?' })
    const refused = await member.next('error', (e) => e.ref === 'm1')
    expect(refused.cause).toBe('moderated')

    op.send({ type: 'chat', id: 'o1', text: 'Bom dia, turma' })
    expect((await member.next('chat')).message).toMatchObject({ text: 'Bom dia, turma', nick: 'teacher@demo', role: 'operator' })
    expect((await op.next('ack', (e) => e.id === 'o1')).seq).toBeGreaterThan(0)
    expect(member.chats().map((m) => m.text)).not.toContain('posso falar?')

    member.send({ type: 'chat', id: 'bad id!', text: 'x' })
    expect((await member.next('error', (e) => e.cause === 'invalid_message')).cause).toBe('invalid_message')
    op.close()
    member.close()
  })

  it('a member who connects again before the old socket closes is announced again; closing the old one is answered and says nothing', async () => {
    const id = await createChannel({}, [{ nick: 'manager', permission: 'mobile' }])
    const op = await Client.open(id, await ticket('root', id))
    await op.next('welcome')
    const first = await Client.open(id, await ticket('manager', id))
    await first.next('welcome')
    await op.next('joined', (e) => e.member.nick === 'manager@demo')
    const seen = op.events.length
    // Her network changed: a new socket joins while the first is still open on the party's side.
    const second = await Client.open(id, await ticket('manager', id))
    expect((await second.next('welcome')).members.filter((m) => m.nick === 'manager@demo')).toHaveLength(1)
    await op.next('joined', (e) => e.member.nick === 'manager@demo', seen)
    first.close()
    // The party answers the close frame (a closed handshake, not the 1006 of a socket left waiting for its answer).
    await expect.poll(() => first.closed).not.toBeNull()
    expect(first.closed).not.toBe(1006)
    // The nick is still here on its new socket: nobody is told it left (a chat after the close proves the order).
    op.send({ type: 'chat', id: 'after-close', text: 'ainda aqui?' })
    await second.next('chat', (e) => e.message.text === 'ainda aqui?')
    expect(op.events.slice(seen).some((e) => e.type === 'left')).toBe(false)
    op.close()
    second.close()
  })

  it('a banned member is refused: the ban removes them and their next join is answered "banned"', async () => {
    const id = await createChannel({}, [
      { nick: 'teacher', permission: 'operator' },
      { nick: OTHER, permission: 'mobile' },
    ])
    const otherTicket = await ticket(OTHER, id)
    const op = await Client.open(id, await ticket('teacher', id))
    await op.next('welcome')
    const other = await Client.open(id, otherTicket)
    await other.next('welcome')
    await op.next('joined', (e) => e.member.nick === `${OTHER}@demo`)

    // A participant may not ban; the operator may.
    other.send({ type: 'mod', action: 'ban', nick: 'teacher@demo' })
    expect((await other.next('error')).cause).toBe('forbidden')
    op.send({ type: 'mod', action: 'ban', nick: `${OTHER}@demo` })
    expect((await other.next('removed')).cause).toBe('banned')
    await expect.poll(() => other.closed).not.toBeNull()
    await op.next('left', (e) => e.nick === `${OTHER}@demo`)

    // The ticket minted before the ban is still within its minute: the party itself refuses it.
    const again = await Client.open(id, otherTicket)
    expect((await again.next('error')).cause).toBe('banned')
    await expect.poll(() => again.closed).toBe(4003)
    // And the realm API now mints no ticket for them (the ban is the member's stored permission).
    const otherApi = await as(OTHER)
    await expect(otherApi('POST', `channel/live/${id}/ticket`)).rejects.toThrow('403')
    op.close()
  })

  it('the realm limit of messages per second answers "slow down" (and the refused messages are not stored)', async () => {
    const id = await createChannel({}, [{ nick: 'manager', permission: 'mobile' }])
    const c = await Client.open(id, await ticket('manager', id))
    await c.next('welcome')
    // The demo realm allows 5 messages a second per sender: a burst of 20 sent at once cannot all pass.
    for (let i = 0; i < 20; i++) c.send({ type: 'chat', id: `burst-${i}`, text: `mensagem ${i}` })
    await expect.poll(() => c.events.filter((e) => e.type === 'ack' || e.type === 'slow_down').length).toBe(20)
    const slow = c.events.filter((e) => e.type === 'slow_down')
    expect(slow.length).toBeGreaterThan(0)
    expect(slow[0]).toMatchObject({ type: 'slow_down', cause: 'per_second' })
    expect(slow[0].retry_after_ms).toBeGreaterThan(0)
    const acked = c.events.flatMap((e) => (e.type === 'ack' ? [e.seq] : []))
    expect(new Set(acked).size).toBe(acked.length)
    c.close()
  })

  it('a reconnecting client receives every message it missed: none lost, none duplicated; a resent id is acked once', async () => {
    const id = await createChannel({ persistent: true }, [
      { nick: 'teacher', permission: 'operator' },
      { nick: 'manager', permission: 'mobile' },
    ])
    const speaker = await Client.open(id, await ticket('teacher', id))
    await speaker.next('welcome')
    const listener = await Client.open(id, await ticket('manager', id))
    await listener.next('welcome')

    const say = async (i: number) => {
      speaker.send({ type: 'chat', id: `r-${i}`, text: `fala ${i}` })
      return (await speaker.next('ack', (e) => e.id === `r-${i}`)).seq
    }
    // Paced under the realm's 5 a second, so every message is taken.
    const pace = () => new Promise((r) => setTimeout(r, 250))
    for (let i = 0; i < 3; i++) {
      await say(i)
      await pace()
    }
    await expect.poll(() => listener.chats().length).toBe(3)
    const lastSeen = listener.chats().at(-1)!.seq
    listener.close()
    await speaker.next('left', (e) => e.nick === 'manager@demo')

    const missed: number[] = []
    for (let i = 3; i < 8; i++) {
      missed.push(await say(i))
      await pace()
    }
    // A resend of an already acknowledged id gets the same acknowledgement and is not said twice.
    const before = speaker.events.length
    speaker.send({ type: 'chat', id: 'r-4', text: 'fala 4' })
    expect((await speaker.next('ack', (e) => e.id === 'r-4', before)).seq).toBe(missed[1])

    const back = await Client.open(id, await ticket('manager', id), lastSeen)
    const welcome = await back.next('welcome')
    expect(welcome.messages.map((m) => m.seq)).toEqual(missed)
    expect(welcome.messages.map((m) => m.text)).toEqual(['fala 3', 'fala 4', 'fala 5', 'fala 6', 'fala 7'])
    await say(8)
    await expect.poll(() => back.chats().length).toBe(6)
    const seqs = back.chats().map((m) => m.seq)
    expect(new Set(seqs).size).toBe(seqs.length)
    speaker.close()
    back.close()
  })

  it('hands, topic (word-filtered) and the session metrics handed to the realm API when the owner ends the session', async () => {
    const id = await createChannel({ moderated_topic: true }, [{ nick: 'manager', permission: 'mobile' }])
    const owner = await Client.open(id, await ticket('root', id))
    await owner.next('welcome')
    const member = await Client.open(id, await ticket('manager', id))
    await member.next('welcome')

    member.send({ type: 'topic', topic: 'meu tópico' })
    expect((await member.next('error')).cause).toBe('moderated')
    // The demo realm's word filter holds "idiota": the topic and chat are masked.
    owner.send({ type: 'topic', topic: 'Revisão de frações, idiota' })
    expect((await member.next('topic')).topic).toBe('Revisão de frações, ******')

    member.send({ type: 'hand', raised: true })
    expect((await owner.next('member', (e) => e.member.nick === 'manager@demo' && e.member.hand)).member.hand).toBe(true)
    member.send({ type: 'chat', id: 'h1', text: 'que idiota', attachment: { url: 'https://example.com/a.png', name: 'a.png', mime: 'image/png' } })
    expect((await owner.next('chat', (e) => e.message.id === 'h1')).message.text).toBe('que ******')

    member.send({ type: 'end' })
    expect((await member.next('error', (e) => e.cause === 'forbidden')).cause).toBe('forbidden')
    owner.send({ type: 'end' })
    await member.next('ended')
    await expect.poll(() => member.closed).toBe(4005)

    const root = await as('root')
    let sessions: {
      items: {
        live_durations: Record<string, number>
        chat_count: number
        attachment_count: number
        hand_raise_count: number
        channel_topic: string
        peak_participants: number
      }[]
    } = {
      items: [],
    }
    await expect
      .poll(async () => {
        sessions = await root('GET', `channel/live/${id}/session`)
        return sessions.items.length
      })
      .toBe(1)
    // The chat went from room storage to D1 through the realm API (flushed in a batch), masked as it was said.
    await expect
      .poll(async () => (await root<{ items: { text: string; seq: number }[] }>('GET', `channel/live/${id}/history`)).items.map((m) => m.text))
      .toEqual(['que ******'])
    // Live durations: the seconds of each participant of the session.
    expect(Object.keys(sessions.items[0].live_durations).sort()).toEqual(['manager@demo', 'root@demo'])
    expect(sessions.items[0]).toMatchObject({
      chat_count: 1,
      attachment_count: 1,
      hand_raise_count: 1,
      channel_topic: 'Revisão de frações, ******',
      peak_participants: 2,
    })
  })

  it('guests join public channels only; a password channel asks its password before anything else', async () => {
    const guestTicket = (id: string) =>
      fetch(url('localhost', `/api/channel/live/${id}/guest`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-realm': 'demo' },
        body: JSON.stringify({ name: 'Visitante' }),
      })
    const closed = await createChannel({ invite_only: true }, [])
    expect((await guestTicket(closed)).status).toBe(403)
    // A signed-in non-member of an invite-only channel gets no ticket either.
    await expect((await as(OTHER))('POST', `channel/live/${closed}/ticket`)).rejects.toThrow('403')

    const id = await createChannel({}, [], { password: 'segredo' })
    const res = await guestTicket(id)
    expect(res.status).toBe(200)
    const { ticket: gt, nick } = (await res.json()) as { ticket: string; nick: string }
    const guest = await Client.open(id, gt)
    await guest.next('password_required')
    guest.send({ type: 'chat', id: 'g1', text: 'oi' })
    expect((await guest.next('error')).cause).toBe('password_required')
    guest.send({ type: 'password', password: 'errada' })
    expect((await guest.next('error', (e) => e.cause === 'wrong_password')).cause).toBe('wrong_password')
    guest.send({ type: 'password', password: 'segredo' })
    const welcome = await guest.next('welcome')
    expect(welcome.you).toMatchObject({ nick, name: 'Visitante', role: 'guest' })
    // A member (the owner) is not asked.
    const owner = await Client.open(id, await ticket('root', id))
    expect((await owner.next('welcome')).members.map((m) => m.nick).sort()).toEqual([nick, 'root@demo'].sort())
    guest.close()
    owner.close()
  })

  it('user and collaborator limits, audio-only, text-only and disabled attachments are enforced by the party', async () => {
    const full = await createChannel({ user_limit: 1 }, [
      { nick: 'teacher', permission: 'operator' },
      { nick: 'manager', permission: 'mobile' },
    ])
    const first = await Client.open(full, await ticket('teacher', full))
    await first.next('welcome')
    const second = await Client.open(full, await ticket('manager', full))
    expect((await second.next('error')).cause).toBe('room_full')
    // The owner always gets in.
    const owner = await Client.open(full, await ticket('root', full))
    await owner.next('welcome')
    first.close()
    owner.close()

    const staffed = await createChannel({ collaborator_limit: 1 }, [
      { nick: 'teacher', permission: 'operator' },
      { nick: OTHER, permission: 'operator' },
      { nick: 'manager', permission: 'mobile' },
    ])
    const op1 = await Client.open(staffed, await ticket('teacher', staffed))
    await op1.next('welcome')
    const op2 = await Client.open(staffed, await ticket(OTHER, staffed))
    expect((await op2.next('error')).cause).toBe('collaborators_full')
    // A participant is not a collaborator.
    const member = await Client.open(staffed, await ticket('manager', staffed))
    await member.next('welcome')
    op1.close()
    member.close()

    const audio = await createChannel({ audio_only: true }, [])
    const a = await Client.open(audio, await ticket('root', audio))
    await a.next('welcome')
    a.send({ type: 'chat', id: 'a1', text: 'oi' })
    expect((await a.next('error', (e) => e.ref === 'a1')).cause).toBe('audio_only')
    a.close()

    const video = { url: 'https://example.com/v.mp4', name: 'v.mp4', mime: 'video/mp4' }
    const image = { url: 'https://example.com/i.png', name: 'i.png', mime: 'image/png' }
    const text = await createChannel({ text_only: true }, [])
    const t = await Client.open(text, await ticket('root', text))
    await t.next('welcome')
    t.send({ type: 'chat', id: 't1', text: 'vídeo', attachment: video })
    expect((await t.next('error', (e) => e.ref === 't1')).cause).toBe('text_only')
    t.send({ type: 'chat', id: 't2', text: 'imagem', attachment: image })
    expect((await t.next('ack', (e) => e.id === 't2')).seq).toBeGreaterThan(0)
    t.close()

    const plain = await createChannel({ disable_chat_attachments: true }, [])
    const p = await Client.open(plain, await ticket('root', plain))
    await p.next('welcome')
    p.send({ type: 'chat', id: 'p1', text: 'anexo', attachment: image })
    expect((await p.next('error', (e) => e.ref === 'p1')).cause).toBe('attachments_disabled')
    p.close()
  })

  it('the realm’s users per environment: a full environment refuses a ticket, and a leave frees the place for the next user', async () => {
    // A realm of its own (a child of demo) allowing one live user, so nothing else live in the run counts.
    const code = `l${tag.slice(-8)}`
    const root = await as('root')
    await root('POST', 'mas/realm', { code, name: `Ao vivo ${tag}`, parent_code: 'demo', max_users_per_environment: 1 })
    const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
    const signin = await fetch(url('localhost', '/api/device'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
    })
    const { auth_token } = (await signin.json()) as { auth_token: string }
    const change = await fetch(url('localhost', '/api/mas/realm/demo/change'), {
      method: 'PUT',
      headers: { ...headers, 'x-api-key': auth_token },
      body: JSON.stringify({ leaf_realm: code }),
    })
    expect(change.status, await change.clone().text()).toBe(200)
    const token = ((await change.json()) as { auth_token: string }).auth_token
    const inRealm = { 'content-type': 'application/json', 'x-api-realm': code }
    const post = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(url('localhost', `/api/${path}`), { method: 'POST', headers: { ...inRealm, 'x-api-key': token }, body: JSON.stringify(body) })
      expect(res.status, await res.clone().text()).toBe(201)
      return (await res.json()) as T
    }
    // The channel's owner is a user of that realm (it need not be live: nobody has joined yet).
    const owner = await post<{ nick: string }>('mas/user', { nick: 'dono', name: 'Dono do canal' })
    const { id } = await post<{ id: string }>('channel', { name: `Capacidade ${tag}`, members: [{ nick: owner.nick, permission: 'owner' }] })
    const guest = (name: string) =>
      fetch(url('localhost', `/api/channel/live/${id}/guest`), { method: 'POST', headers: inRealm, body: JSON.stringify({ name }) })

    const first = await guest('Primeira')
    expect(first.status).toBe(200)
    const ana = await Client.open(id, ((await first.json()) as { ticket: string }).ticket)
    await ana.next('welcome')
    const refused = await guest('Segunda')
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { errors: { cause: string; message: string }[] }).errors[0]).toMatchObject({
      cause: 'limit',
      message: 'validation.live.max_environment',
    })
    // Ana leaves: the party frees her place, and the second guest is admitted and joins.
    ana.close()
    let second: Response | null = null
    await expect
      .poll(async () => {
        second = await guest('Segunda')
        return second.status
      })
      .toBe(200)
    const bia = await Client.open(id, ((await second!.json()) as { ticket: string }).ticket)
    expect((await bia.next('welcome')).you.name).toBe('Segunda')
    bia.close()
  })
})
