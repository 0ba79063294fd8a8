import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { LiveChannelState } from '#shared/schemas/channel-live'
import { signTicket, verifyTicket } from '../../party/ticket'
import { realmWith } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

/** The channel party's side of the realm API (issue 13 "Live"): tickets, the party's service calls, ended sessions. */

const STAFF = ['sns_channel_list', 'sns_channel_get', 'sns_channel_create', 'sns_channel_edit']
const SECRET = 'test-party-secret'

async function channel(modes: Record<string, unknown> = {}, members: { nick: string; permission: string }[] = [], extra: Record<string, unknown> = {}) {
  const staff = await userWith('demo', STAFF)
  const res = await api(DEMO, 'channel', {
    method: 'POST',
    token: staff.token,
    json: { name: `Live ${crypto.randomUUID().slice(0, 8)}`, modes, members: [{ nick: staff.nick, permission: 'owner' }, ...members], ...extra },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return { id: ((await res.json()) as { id: string }).id, owner: staff }
}

/** A plain user of the realm (no permission) with a session. */
const someone = (label: string) => userWith('demo', [`x_${label}`])

const partyHeaders = async (channelId: string, realm = 'demo', party = 'channel-api') => ({
  'x-party-ticket': await signTicket(SECRET, { party, room: channelId, realm, nick: 'party', name: 'party' }),
})

const message = (seq: number, text = `m${seq}`) => ({
  seq,
  id: `c-${seq}`,
  nick: 'someone',
  name: 'Someone',
  role: 'participant',
  text,
  at: 1_700_000_000_000 + seq,
})

describe('tickets', () => {
  it('a member gets a ticket for the channel room carrying their permission; a non-member of a public channel is a participant', async () => {
    const member = await someone('member')
    const { id, owner } = await channel({}, [{ nick: member.nick, permission: 'recorder' }])
    const res = await api(DEMO, `channel/live/${id}/ticket`, { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { ticket: string; role: string; room: string; party: string }
    expect(body).toMatchObject({ role: 'owner', room: id, party: 'channel' })
    expect(await verifyTicket(SECRET, body.ticket, 'channel', id)).toMatchObject({ realm: 'demo', nick: owner.nick, role: 'owner' })
    expect(await verifyTicket(SECRET, body.ticket, 'channel', 'another')).toBeNull()

    const asMember = (await (await api(DEMO, `channel/live/${id}/ticket`, { method: 'POST', token: member.token })).json()) as { role: string }
    expect(asMember.role).toBe('recorder')
    const outsider = await someone('outsider')
    const asOutsider = (await (await api(DEMO, `channel/live/${id}/ticket`, { method: 'POST', token: outsider.token })).json()) as { role: string }
    expect(asOutsider.role).toBe('participant')
  })

  it('refuses banned members, non-members of private and invite-only channels, other realms and unknown channels', async () => {
    const banned = await someone('banned')
    const outsider = await someone('outsider2')
    const open = await channel({}, [{ nick: banned.nick, permission: 'banned' }])
    await expectEnvelope(await api(DEMO, `channel/live/${open.id}/ticket`, { method: 'POST', token: banned.token }), 403, 'banned')
    for (const mode of ['private', 'invite_only']) {
      const closed = await channel({ [mode]: true })
      await expectEnvelope(await api(DEMO, `channel/live/${closed.id}/ticket`, { method: 'POST', token: outsider.token }), 403, 'members_only')
      // Staff who edit channels join as admins (the console's live view).
      const staff = await userWith('demo', ['sns_channel_edit'])
      const asStaff = (await (await api(DEMO, `channel/live/${closed.id}/ticket`, { method: 'POST', token: staff.token })).json()) as { role: string }
      expect(asStaff.role).toBe('admin')
    }
    const escola = await userWith('escola', STAFF)
    await expectEnvelope(await api(ESCOLA, `channel/live/${open.id}/ticket`, { method: 'POST', token: escola.token }), 404, 'not_found')
    await expectEnvelope(await api(DEMO, 'channel/live/nope/ticket', { method: 'POST', token: outsider.token }), 404, 'not_found')
    expect((await api(DEMO, `channel/live/${open.id}/ticket`, { method: 'POST' })).status).toBe(401)
  })

  it('a guest gets a ticket on a public channel only, with a name the word filter lets through', async () => {
    const open = await channel()
    const res = await api(DEMO, `channel/live/${open.id}/guest`, { method: 'POST', json: { name: 'Visitante' } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { ticket: string; role: string; nick: string }
    expect(body.role).toBe('guest')
    expect(body.nick).toMatch(/^guest:/)
    expect(await verifyTicket(SECRET, body.ticket, 'channel', open.id)).toMatchObject({ name: 'Visitante', role: 'guest', realm: 'demo' })
    for (const mode of ['private', 'invite_only', 'secret']) {
      const closed = await channel({ [mode]: true })
      await expectEnvelope(await api(DEMO, `channel/live/${closed.id}/guest`, { method: 'POST', json: { name: 'Visitante' } }), 403, 'members_only')
    }
    // The demo realm's word filter holds "idiota".
    await expectEnvelope(await api(DEMO, `channel/live/${open.id}/guest`, { method: 'POST', json: { name: 'Sou idiota' } }), 422, 'word_filter')
    await expectEnvelope(await api(DEMO, `channel/live/${open.id}/guest`, { method: 'POST', json: { name: 'x' } }), 400)
    await expectEnvelope(await api(ESCOLA, `channel/live/${open.id}/guest`, { method: 'POST', json: { name: 'Visitante' } }), 404, 'not_found')
  })
})

describe('the party service calls', () => {
  it('answer only the party of that channel: no ticket, a user ticket or another channel’s ticket is 401', async () => {
    const { id } = await channel()
    const other = await channel()
    expect((await api(DEMO, `channel/live/${id}/state`)).status).toBe(401)
    expect((await api(DEMO, `channel/live/${id}/state`, { headers: await partyHeaders(id, 'demo', 'channel') })).status).toBe(401)
    expect((await api(DEMO, `channel/live/${id}/state`, { headers: await partyHeaders(other.id) })).status).toBe(401)
    expect((await api(DEMO, `channel/live/${id}/state`, { headers: { 'x-party-ticket': 'forged.ticket' } })).status).toBe(401)
    // A ticket of another realm names no channel of that realm.
    expect((await api(DEMO, `channel/live/${id}/state`, { headers: await partyHeaders(id, 'escola') })).status).toBe(404)
  })

  it('state: the channel, its members’ permissions, the realm limits and word filter (never the password itself)', async () => {
    const member = await someone('state')
    const { id, owner } = await channel({ moderated_chat: true }, [{ nick: member.nick, permission: 'operator' }], { password: 'segredo' })
    const res = await api(DEMO, `channel/live/${id}/state`, { headers: await partyHeaders(id) })
    expect(res.status).toBe(200)
    const state = (await res.json()) as LiveChannelState
    expect(state.channel).toMatchObject({ id, realm: 'demo', owner: owner.nick, has_password: true })
    expect(state.channel.modes.moderated_chat).toBe(true)
    expect(state.channel.password_hash).toMatch(/^pbkdf2-sha256\$/)
    expect(JSON.stringify(state)).not.toContain('segredo')
    expect(state.members).toEqual({ [owner.nick]: 'owner', [member.nick]: 'operator' })
    expect(state.limits).toMatchObject({ msg_per_second: 5, msg_drop_rate: 200, msg_per_day: -1 })
    expect(state.word_filter.sentences).toContain('idiota')
    expect(state.last_seq).toBe(0)
  })

  it('chat batches are stored once (a resent batch changes nothing), answered as history, and move last_seq', async () => {
    const { id } = await channel()
    const headers = await partyHeaders(id)
    const first = await api(DEMO, `channel/live/${id}/messages`, { method: 'POST', headers, json: { messages: [message(1), message(2), message(3)] } })
    expect(await first.json()).toEqual({ stored: 3, received: 3 })
    const again = await api(DEMO, `channel/live/${id}/messages`, { method: 'POST', headers, json: { messages: [message(2), message(3), message(4)] } })
    expect(await again.json()).toEqual({ stored: 1, received: 3 })
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM channel_message WHERE realm = ? AND channel_id = ?').bind('demo', id).first<number>('n')
    expect(n).toBe(4)

    const after = (await (await api(DEMO, `channel/live/${id}/messages?after=2`, { headers })).json()) as { items: { seq: number; text: string }[] }
    expect(after.items.map((m) => [m.seq, m.text])).toEqual([
      [3, 'm3'],
      [4, 'm4'],
    ])
    const tail = (await (await api(DEMO, `channel/live/${id}/messages?limit=2`, { headers })).json()) as { items: { seq: number }[] }
    expect(tail.items.map((m) => m.seq)).toEqual([3, 4])
    const state = (await (await api(DEMO, `channel/live/${id}/state`, { headers })).json()) as LiveChannelState
    expect(state.last_seq).toBe(4)

    // The console reads the same history with its own permission.
    const staff = await userWith('demo', ['sns_channel_get'])
    const history = (await (await api(DEMO, `channel/live/${id}/history?after=3`, { token: staff.token })).json()) as { items: { seq: number }[] }
    expect(history.items.map((m) => m.seq)).toEqual([4])
    expect((await api(DEMO, `channel/live/${id}/history`, { token: (await someone('history')).token })).status).toBe(403)
    await expectEnvelope(await api(DEMO, `channel/live/${id}/messages`, { method: 'POST', headers, json: { messages: [] } }), 400)
    await expectEnvelope(await api(DEMO, `channel/live/${id}/messages`, { method: 'POST', headers, json: { messages: [{ ...message(5), seq: 0 }] } }), 400)
    await expectEnvelope(await api(DEMO, `channel/live/${id}/messages?after=x`, { headers }), 400)
  })

  it('an ended session is stored once with its metrics and listed for the console', async () => {
    const { id, owner } = await channel()
    const headers = await partyHeaders(id)
    const ended = {
      id: crypto.randomUUID(),
      topic: 'Frações',
      started_at: Date.parse('2026-03-01T10:00:00Z'),
      ended_at: Date.parse('2026-03-01T10:45:00Z'),
      ended_by: owner.nick,
      peak_participants: 12,
      live_durations: { [owner.nick]: 2700, 'guest:abc': 600 },
      chat_count: 40,
      attachment_count: 3,
      hand_raise_count: 7,
    }
    const res = await api(DEMO, `channel/live/${id}/session`, { method: 'POST', headers, json: ended })
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ id: ended.id, stored: true })
    expect(await (await api(DEMO, `channel/live/${id}/session`, { method: 'POST', headers, json: ended })).json()).toEqual({ id: ended.id, stored: false })

    const list = await api(DEMO, `channel/live/${id}/session`, { token: owner.token })
    const { items } = (await list.json()) as { items: Record<string, unknown>[] }
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({
      id: ended.id,
      channel_id: id,
      channel_topic: 'Frações',
      status: 'finished',
      started_at: '2026-03-01T10:00:00.000Z',
      live_seconds: 2700,
      live_durations: { [owner.nick]: 2700, 'guest:abc': 600 },
      peak_participants: 12,
      chat_count: 40,
      attachment_count: 3,
      hand_raise_count: 7,
    })
    await expectEnvelope(await api(DEMO, `channel/live/${id}/session`, { method: 'POST', headers, json: { ...ended, id: 'bad id' } }), 400)
    const outsider = await someone('sessions')
    expect((await api(DEMO, `channel/live/${id}/session`, { token: outsider.token })).status).toBe(403)
  })

  it('a ban or promotion from the party is stored as the member’s permission and audited; the owner cannot be banned', async () => {
    const member = await someone('ban')
    const outsider = await someone('promote')
    const { id, owner } = await channel({}, [{ nick: member.nick, permission: 'mobile' }])
    const headers = await partyHeaders(id)
    const ban = await api(DEMO, `channel/live/${id}/member/${member.nick}`, { method: 'PUT', headers, json: { permission: 'banned', by: owner.nick } })
    expect(ban.status).toBe(200)
    const permission = (nick: string) =>
      env.DB.prepare('SELECT permission FROM channel_member WHERE realm = ? AND channel_id = ? AND nick = ?').bind('demo', id, nick).first<string>('permission')
    expect(await permission(member.nick)).toBe('banned')
    const audit = await env.DB.prepare(
      "SELECT actor, action FROM audit_log WHERE realm = 'demo' AND entity = 'channel' AND entity_id = ? ORDER BY id DESC LIMIT 1",
    )
      .bind(id)
      .first<{ actor: string; action: string }>()
    expect(audit).toEqual({ actor: owner.nick, action: 'live_ban' })
    // A non-member promoted to operator becomes a member.
    expect(
      (await api(DEMO, `channel/live/${id}/member/${outsider.nick}`, { method: 'PUT', headers, json: { permission: 'operator', by: owner.nick } })).status,
    ).toBe(200)
    expect(await permission(outsider.nick)).toBe('operator')
    await expectEnvelope(
      await api(DEMO, `channel/live/${id}/member/${owner.nick}`, { method: 'PUT', headers, json: { permission: 'banned', by: 'x' } }),
      422,
      'no_owner',
    )
    await expectEnvelope(
      await api(DEMO, `channel/live/${id}/member/ninguem`, { method: 'PUT', headers, json: { permission: 'banned', by: 'x' } }),
      422,
      'member_not_found',
    )
    await expectEnvelope(await api(DEMO, `channel/live/${id}/member/${member.nick}`, { method: 'PUT', headers, json: { permission: 'owner', by: 'x' } }), 400)
  })
})

describe('the realm’s users per environment (live capacity)', () => {
  /** A realm of its own with `max_users_per_environment` = max, and a public channel there owned by a staff user. */
  async function limited(max: number) {
    const realm = await realmWith({ max_users_per_environment: max, max_users_per_room: -1 })
    const owner = await userWith(realm.code, STAFF)
    const res = await api(realm.host, 'channel', {
      method: 'POST',
      token: owner.token,
      json: { name: 'Ao vivo', members: [{ nick: owner.nick, permission: 'owner' }] },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const id = ((await res.json()) as { id: string }).id
    const user = (label: string) => userWith(realm.code, [`x_${label}`])
    const ticket = async (token: string) => api(realm.host, `channel/live/${id}/ticket`, { method: 'POST', token })
    const leases = async () =>
      (
        await env.DB.prepare("SELECT nick FROM live_presence WHERE realm = ? AND party = 'channel' AND room = ? ORDER BY nick")
          .bind(realm.code, id)
          .all<{ nick: string }>()
      ).results.map((r) => r.nick)
    return { ...realm, id, owner, user, ticket, leases }
  }

  it('a ticket past the limit is refused with 422 limit and nothing is minted; owner and admins pass (and count); a re-join passes', async () => {
    const r = await limited(2)
    const [ana, bia, caio] = await Promise.all([r.user('ana'), r.user('bia'), r.user('caio')])
    expect((await r.ticket(ana.token)).status).toBe(200)
    expect((await r.ticket(bia.token)).status).toBe(200)
    const refused = await r.ticket(caio.token)
    const envelope = await expectEnvelope(refused, 422, 'limit')
    expect(envelope.errors[0]).toMatchObject({ message: 'validation.live.max_environment', value: 2 })
    expect(JSON.stringify(envelope)).not.toContain('ticket')
    // A guest is a user of the environment too.
    await expectEnvelope(await api(r.host, `channel/live/${r.id}/guest`, { method: 'POST', json: { name: 'Visitante' } }), 422, 'limit')
    expect(await r.leases()).toEqual([ana.nick, bia.nick].sort())
    // A user already live joins again; the owner and a channel admin get in over the limit, and hold a place.
    expect((await r.ticket(ana.token)).status).toBe(200)
    expect(await (await r.ticket(r.owner.token)).json()).toMatchObject({ role: 'owner' })
    const admin = await userWith(r.code, ['sns_channel_edit'])
    expect(await (await r.ticket(admin.token)).json()).toMatchObject({ role: 'admin' })
    expect(await r.leases()).toEqual([ana.nick, bia.nick, r.owner.nick, admin.nick].sort())
    await expectEnvelope(await r.ticket(caio.token), 422, 'limit')
  })

  it('the party renews who is present and frees who left through its service call; a stale lease ends at the renewal', async () => {
    const r = await limited(2)
    const [ana, bia, caio] = await Promise.all([r.user('ana2'), r.user('bia2'), r.user('caio2')])
    await r.ticket(ana.token)
    await r.ticket(bia.token)
    await expectEnvelope(await r.ticket(caio.token), 422, 'limit')
    const headers = await partyHeaders(r.id, r.code)
    const presence = (json: unknown) => api(r.host, `channel/live/${r.id}/presence`, { method: 'POST', headers, json })

    // Ana leaves: her place is free, and Caio is admitted.
    expect(await (await presence({ left: [ana.nick] })).json()).toEqual({ present: 0, left: 1 })
    expect(await r.leases()).toEqual([bia.nick])
    expect((await r.ticket(caio.token)).status).toBe(200)

    // Renewal: Bia's lease (about to run out) runs 120 s again; a lease neither present nor taken within the last
    // minute (a ticket never used) ends; Caio's fresh ticket keeps his place though he has not connected yet.
    const soon = new Date(Date.now() + 5_000).toISOString()
    await env.DB.prepare('UPDATE live_presence SET expires_at = ? WHERE realm = ? AND nick = ?').bind(soon, r.code, bia.nick).run()
    await env.DB.prepare("INSERT INTO live_presence (realm, party, room, nick, joined_at, expires_at) VALUES (?, 'channel', ?, 'ghost', ?, ?)")
      .bind(r.code, r.id, new Date(Date.now() - 90_000).toISOString(), new Date(Date.now() + 30_000).toISOString())
      .run()
    expect((await presence({ present: [bia.nick] })).status).toBe(200)
    expect(await r.leases()).toEqual([bia.nick, caio.nick].sort())
    const expires = await env.DB.prepare('SELECT expires_at FROM live_presence WHERE realm = ? AND nick = ?').bind(r.code, bia.nick).first<string>('expires_at')
    expect(Date.parse(expires!) - Date.now()).toBeGreaterThan(100_000)

    // Bad bodies are refused and change nothing.
    for (const bad of [{}, { present: 'x' }, { left: [] }, { present: [''] }, { left: [1] }]) await expectEnvelope(await presence(bad), 400)
    expect(await r.leases()).toEqual([bia.nick, caio.nick].sort())
  })

  it('presence needs the party’s ticket for that channel and realm: another ticket is 401, another realm’s channel is untouched', async () => {
    const r = await limited(5)
    const ana = await r.user('ana3')
    await r.ticket(ana.token)
    const other = await channel()
    const call = async (headers: Record<string, string>, host = r.host, id = r.id) =>
      api(host, `channel/live/${id}/presence`, { method: 'POST', headers, json: { left: [ana.nick] } })
    expect((await call({})).status).toBe(401)
    expect((await call({ 'x-party-ticket': 'forged.ticket' })).status).toBe(401)
    expect((await call(await partyHeaders(r.id, r.code, 'channel'))).status).toBe(401)
    expect((await call(await partyHeaders(other.id, r.code))).status).toBe(401)
    // The demo party's ticket naming this channel: demo has no such channel, this realm's leases stay.
    await expectEnvelope(await call(await partyHeaders(r.id, 'demo'), DEMO), 404, 'not_found')
    // The demo party's own call about its own channel, naming the same nick, frees nothing here.
    expect((await call(await partyHeaders(other.id, 'demo'), DEMO, other.id)).status).toBe(200)
    expect(await r.leases()).toEqual([ana.nick])
    // Its own party frees it.
    expect((await call(await partyHeaders(r.id, r.code))).status).toBe(200)
    expect(await r.leases()).toEqual([])
  })
})

describe('transmission counts (issue 20)', () => {
  it('the party’s counts keep the highest value per room and period; the answer sums the realm’s other rooms; bad bodies change nothing', async () => {
    const a = await channel()
    const b = await channel()
    const nick = `tx-${crypto.randomUUID().slice(0, 8)}`
    const period = 1_700_000_000_000
    const tx = async (id: string, body: unknown, headers?: Record<string, string>) =>
      api(DEMO, `channel/live/${id}/tx`, { method: 'POST', headers: headers ?? (await partyHeaders(id)), json: body })
    const counts = async (id: string, seconds: number) => {
      const res = await tx(id, { period_start: period, usage: { [nick]: seconds } })
      expect(res.status, await res.clone().text()).toBe(200)
      return ((await res.json()) as { usage: Record<string, { here: number; elsewhere: number }> }).usage[nick]
    }
    expect(await counts(a.id, 30)).toEqual({ here: 30, elsewhere: 0 })
    // A resend, or a late retry with a smaller count, never adds.
    expect(await counts(a.id, 30)).toEqual({ here: 30, elsewhere: 0 })
    expect(await counts(a.id, 10)).toEqual({ here: 30, elsewhere: 0 })
    expect(await counts(b.id, 5)).toEqual({ here: 5, elsewhere: 30 })
    expect(await counts(a.id, 45)).toEqual({ here: 45, elsewhere: 5 })
    // A new period starts from nothing and drops the user's older rows.
    const next = await tx(a.id, { period_start: period + 604_800_000, usage: { [nick]: 1 } })
    expect(((await next.json()) as { usage: Record<string, unknown> }).usage[nick]).toEqual({ here: 1, elsewhere: 0 })
    const old = await env.DB.prepare('SELECT COUNT(*) AS n FROM live_tx_usage WHERE realm = ? AND nick = ? AND period_start = ?')
      .bind('demo', nick, period)
      .first<number>('n')
    expect(old).toBe(0)

    for (const bad of [
      {},
      { period_start: period, usage: {} },
      { period_start: -1, usage: { [nick]: 1 } },
      { period_start: period, usage: { [nick]: -1 } },
      { period_start: period, usage: { [nick]: 1.5 } },
    ])
      await expectEnvelope(await tx(a.id, bad), 400)
    expect((await tx(a.id, { period_start: period, usage: { [nick]: 1 } }, {})).status).toBe(401)
    expect((await tx(a.id, { period_start: period, usage: { [nick]: 1 } }, await partyHeaders(b.id))).status).toBe(401)
  })
})
