import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { admitLive, admitRoomJoin, leaveLive } from '../../worker/lib/live-capacity'
import { ApiError } from '../../worker/lib/errors'
import { DEMO, api, call, expectEnvelope, userWith } from './helpers'
import { realmWith, room as roomFactory } from './factories'

/**
 * Rooms, completed (issue 13): the room's fields and their rules, breakout rooms, cards with URL placeholders, the
 * room count per category and the realm limits at join time — each rule through the API (or, for the join check
 * other paths call, through its function), with what a refusal leaves unchanged.
 */

const freshRealm = realmWith

const STAFF = [
  'room_room_list',
  'room_room_get',
  'room_room_create',
  'room_room_edit',
  'room_room_delete',
  'room_category_list',
  'room_category_create',
  'room_category_delete',
  'room_card_list',
  'room_card_get',
  'room_card_create',
  'room_card_edit',
  'room_card_delete',
]

async function staffRealm(values: Record<string, string | number> = {}) {
  const realm = await freshRealm(values)
  const { token, nick } = await userWith(realm.code, STAFF)
  return { ...realm, token, nick }
}

const json = async <T>(res: Response, status: number): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(status)
  return (await res.json()) as T
}
const count = async (sql: string, ...args: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...args)
      .first<{ n: number }>()
  )?.n ?? 0

type RoomRow = {
  id: string
  name: string
  type: string
  recording: boolean
  category_id: string | null
  cards: string[]
  parent_id: string | null
  closed_at: string | null
  enable_at: string | null
  disable_at: string | null
}

describe('room fields', () => {
  it('stores recording, category, type, window and cards, and reads them back', async () => {
    const { host, token } = await staffRealm()
    const cat = await json<{ id: string }>(await api(host, 'room/category', { method: 'POST', token, json: { name: 'Fundamental' } }), 201)
    const card = await json<{ id: string }>(
      await api(host, 'room/card', { method: 'POST', token, json: { label: 'Biblioteca', url: 'https://lib.example/{nick}' } }),
      201,
    )
    const created = await json<RoomRow>(
      await api(host, 'room/room', {
        method: 'POST',
        token,
        json: {
          name: 'Sala 1',
          type: 'meeting',
          recording: true,
          category_id: cat.id,
          cards: [card.id],
          enable_at: '2026-03-01T10:00:00-03:00',
          disable_at: '2026-03-01T12:00:00-03:00',
        },
      }),
      201,
    )
    const read = await json<RoomRow>(await api(host, `room/room/${created.id}`, { token }), 200)
    expect(read).toMatchObject({ type: 'meeting', recording: true, category_id: cat.id, cards: [card.id], parent_id: null, closed_at: null })
    expect(read.enable_at).toBe('2026-03-01T13:00:00.000Z')
    expect(read.disable_at).toBe('2026-03-01T15:00:00.000Z')
    const cards = await json<{ items: { id: string; label: string }[] }>(await api(host, `room/room/${created.id}/card`, { token }), 200)
    expect(cards.items.map((c) => c.label)).toEqual(['Biblioteca'])
    // A window may be open on either side.
    const open = await json<RoomRow>(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala 2', enable_at: '2026-03-01T10:00:00Z' } }), 201)
    expect(open).toMatchObject({ enable_at: '2026-03-01T10:00:00.000Z', disable_at: null, recording: false, type: 'lecture', category_id: null })
  })

  it('refuses each bad field with its own error and stores nothing', async () => {
    const { code, host, token } = await staffRealm()
    const other = await staffRealm()
    const foreignCat = await json<{ id: string }>(await api(other.host, 'room/category', { method: 'POST', token: other.token, json: { name: 'Alheia' } }), 201)
    const foreignCard = await json<{ id: string }>(
      await api(other.host, 'room/card', { method: 'POST', token: other.token, json: { label: 'Alheio', url: 'https://x.example' } }),
      201,
    )
    const bad: [Record<string, unknown>, number, string, string][] = [
      [{ disable_at: '2026-03-01T10:00:00Z', enable_at: '2026-03-01T10:00:00Z' }, 400, 'disable_at', 'validation.room.disable_before_enable'],
      [{ disable_at: '2026-03-01T09:00:00Z', enable_at: '2026-03-01T10:00:00Z' }, 400, 'disable_at', 'validation.room.disable_before_enable'],
      [{ enable_at: '01/03/2026' }, 400, 'enable_at', 'validation.date'],
      [{ type: 'webinar' }, 400, 'type', 'validation.picklist'],
      [{ recording: 'yes' }, 400, 'recording', 'validation.boolean'],
      [{ cards: ['a', 'a'] }, 400, 'cards', 'validation.room.card_duplicate'],
      [{ category_id: foreignCat.id }, 422, 'category_id', 'validation.room.unknown_category'],
      [{ cards: [foreignCard.id] }, 422, 'cards.0', 'validation.room.unknown_card'],
    ]
    for (const [over, status, field, message] of bad) {
      const res = await expectEnvelope(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala', ...over } }), status)
      expect(
        res.errors.map((e) => [e.field, e.message]),
        JSON.stringify(over),
      ).toContainEqual([field, message])
    }
    expect(await count('SELECT COUNT(*) AS n FROM room WHERE realm = ?', code)).toBe(0)
  })
})

describe('breakout rooms', () => {
  it('creates breakouts one level under a parent, copying its settings, and closing the parent closes them', async () => {
    const { code, host, token } = await staffRealm()
    const cat = await json<{ id: string }>(await api(host, 'room/category', { method: 'POST', token, json: { name: 'Cat' } }), 201)
    const parent = await json<RoomRow>(
      await api(host, 'room/room', { method: 'POST', token, json: { name: 'Plenária', type: 'meeting', recording: true, category_id: cat.id } }),
      201,
    )
    const a = await json<RoomRow>(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'Grupo A' } }), 201)
    const b = await json<RoomRow>(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'Grupo B' } }), 201)
    expect(a).toMatchObject({ parent_id: parent.id, type: 'meeting', recording: true, category_id: cat.id, closed_at: null })
    // One level: a breakout has no breakouts.
    const nested = await expectEnvelope(await api(host, `room/room/${a.id}/breakout`, { method: 'POST', token, json: { name: 'Sub' } }), 422, 'nesting')
    expect(nested.errors[0].message).toBe('validation.room.breakout_nesting')
    // Names stay unique in the realm.
    await expectEnvelope(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'grupo a' } }), 409, 'conflict')
    const list = await json<{ items: { name: string }[] }>(await api(host, `room/room/${parent.id}/breakout`, { token }), 200)
    expect(list.items.map((r) => r.name)).toEqual(['Grupo A', 'Grupo B'])
    // Closing one breakout leaves the others; closing the parent closes the rest.
    await json(await api(host, `room/room/${a.id}/close`, { method: 'POST', token }), 200)
    const closed = await json<{ closed_at: string; breakouts_closed: number }>(await api(host, `room/room/${parent.id}/close`, { method: 'POST', token }), 200)
    expect(closed.breakouts_closed).toBe(1)
    expect(await count('SELECT COUNT(*) AS n FROM room WHERE realm = ? AND closed_at IS NULL', code)).toBe(0)
    // A closed parent takes no breakouts, and its breakouts cannot reopen before it does.
    await expectEnvelope(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'Grupo C' } }), 409, 'closed')
    const early = await expectEnvelope(await api(host, `room/room/${b.id}/open`, { method: 'POST', token }), 409, 'closed')
    expect(early.errors[0].message).toBe('validation.room.parent_closed')
    await json(await api(host, `room/room/${parent.id}/open`, { method: 'POST', token }), 200)
    expect((await json<RoomRow>(await api(host, `room/room/${b.id}`, { token }), 200)).closed_at).not.toBeNull()
    await json(await api(host, `room/room/${b.id}/open`, { method: 'POST', token }), 200)
    expect((await json<RoomRow>(await api(host, `room/room/${b.id}`, { token }), 200)).closed_at).toBeNull()
    // A parent with breakouts is not deleted (they would be orphans).
    await expectEnvelope(await api(host, `room/room/${parent.id}`, { method: 'DELETE', token }), 409, 'in_use')
    expect((await api(host, `room/room/${a.id}`, { method: 'DELETE', token })).status).toBe(204)
    expect((await api(host, `room/room/${b.id}`, { method: 'DELETE', token })).status).toBe(204)
    expect((await api(host, `room/room/${parent.id}`, { method: 'DELETE', token })).status).toBe(204)
  })

  it('counts breakouts against max_rooms and needs the room permissions', async () => {
    const { code, host, token } = await staffRealm({ max_rooms: 2 })
    const parent = await json<RoomRow>(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Plenária' } }), 201)
    await json(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'Grupo A' } }), 201)
    const refused = await expectEnvelope(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'Grupo B' } }), 422, 'limit')
    expect(refused.errors[0]).toMatchObject({ message: 'validation.room.max_rooms', value: 2 })
    expect(await count('SELECT COUNT(*) AS n FROM room WHERE realm = ?', code)).toBe(2)
    const reader = await userWith(code, ['room_room_get'])
    await expectEnvelope(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token: reader.token, json: { name: 'Grupo C' } }), 403)
    await expectEnvelope(await api(host, `room/room/${parent.id}/close`, { method: 'POST', token: reader.token }), 403)
    await expectEnvelope(await api(host, `room/room/${parent.id}/breakout`, { method: 'POST', token, json: { name: 'x' } }), 400)
  })
})

describe('cards', () => {
  it('refuses unknown placeholders and URLs of the wrong shape at save time', async () => {
    const { code, host, token } = await staffRealm()
    const bad: [Record<string, unknown>, string][] = [
      [{ url: 'https://x.example/{user}' }, 'validation.card.placeholder'],
      [{ url: 'https://x.example/{nick' }, 'validation.card.placeholder'],
      [{ url: 'https://x.example/}' }, 'validation.card.placeholder'],
      [{ url: '/sala/{room}' }, 'validation.card.url_link'],
      [{ url: 'javascript:alert(1)' }, 'validation.card.url_link'],
      [{ type: 'room', url: '//evil.example/{room}' }, 'validation.card.url_room'],
      [{ icon: 'ftp://x' }, 'validation.card.icon_url'],
      [{ type: 'stage' }, 'validation.picklist'],
      [{ label: '' }, 'validation.min_length'],
    ]
    for (const [over, message] of bad) {
      const res = await expectEnvelope(await api(host, 'room/card', { method: 'POST', token, json: { label: 'Card', url: 'https://x.example', ...over } }), 400)
      expect(
        res.errors.map((e) => e.message),
        JSON.stringify(over),
      ).toContain(message)
    }
    expect(await count('SELECT COUNT(*) AS n FROM room_card WHERE realm = ?', code)).toBe(0)
    await json(await api(host, 'room/card', { method: 'POST', token, json: { type: 'room', label: 'Sala', url: '/live/{room}?lang={lang}' } }), 201)
  })

  it('opens a card with its placeholders filled for the signed-in user, in a room that shows it', async () => {
    const { code, host, token, nick } = await staffRealm()
    const card = await json<{ id: string }>(
      await api(host, 'room/card', {
        method: 'POST',
        token,
        json: { label: 'Quadro', url: 'https://board.example/{realm}/{room}?who={nick}&n={name}&r={room_name}&l={lang}', icon: 'https://cdn.example/i.svg' },
      }),
      201,
    )
    const plain = await json<{ id: string }>(
      await api(host, 'room/card', { method: 'POST', token, json: { label: 'Site', url: 'https://site.example/{nick}' } }),
      201,
    )
    const sala = await json<RoomRow>(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala & Co', cards: [card.id] } }), 201)
    const opened = await json<{ url: string }>(await api(host, `room/card/${card.id}/open?room=${sala.id}&lang=es-ES`, { token }), 200)
    const me = await env.DB.prepare('SELECT name FROM user WHERE realm = ? AND nick = ?').bind(code, nick).first<{ name: string }>()
    expect(opened.url).toBe(
      `https://board.example/${code}/${sala.id}?who=${nick}&n=${encodeURIComponent(me!.name)}&r=${encodeURIComponent('Sala & Co')}&l=es-ES`,
    )
    // A card the room does not show is not opened there; a card naming the room needs one.
    await expectEnvelope(await api(host, `room/card/${plain.id}/open?room=${sala.id}`, { token }), 404)
    expect((await json<{ url: string }>(await api(host, `room/card/${plain.id}/open`, { token }), 200)).url).toBe(`https://site.example/${nick}`)
    await expectEnvelope(await api(host, `room/card/${card.id}/open`, { token }), 422, 'room_required')
    // A member of the room opens its cards without staff permissions; a non-member does not.
    const student = await userWith(code, [])
    const { token: outsiderToken } = await userWith(code, ['mas_user_get'])
    await json(await api(host, `room/room/${sala.id}/member`, { method: 'POST', token, json: { nick: student.nick } }), 201)
    const studentToken = student.token
    expect((await json<{ url: string }>(await api(host, `room/card/${card.id}/open?room=${sala.id}`, { token: studentToken }), 200)).url).toContain(
      `who=${student.nick}`,
    )
    await expectEnvelope(await api(host, `room/card/${card.id}/open?room=${sala.id}`, { token: outsiderToken }), 403)
    await expectEnvelope(await api(host, `room/card/${plain.id}/open`, { token: studentToken }), 403)
    // A card shown in a room is not deleted.
    await expectEnvelope(await api(host, `room/card/${card.id}`, { method: 'DELETE', token }), 409, 'in_use')
    expect((await api(host, `room/card/${plain.id}`, { method: 'DELETE', token })).status).toBe(204)
  })
})

describe('room count per category', () => {
  it('counts the rooms of a category and of its subtree; an unknown one is 404 category_not_located', async () => {
    const { host, token } = await staffRealm()
    const other = await staffRealm()
    const top = await json<{ id: string }>(await api(host, 'room/category', { method: 'POST', token, json: { name: 'Topo' } }), 201)
    const leaf = await json<{ id: string }>(await api(host, 'room/category', { method: 'POST', token, json: { name: 'Folha', parent: top.id } }), 201)
    expect(await json(await api(host, `room/category/${top.id}/count`, { token }), 200)).toEqual({ id: top.id, rooms: 0, rooms_in_tree: 0 })
    await json(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala A', category_id: top.id } }), 201)
    await json(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala B', category_id: leaf.id } }), 201)
    await json(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala C', category_id: leaf.id } }), 201)
    expect(await json(await api(host, `room/category/${top.id}/count`, { token }), 200)).toEqual({ id: top.id, rooms: 1, rooms_in_tree: 3 })
    expect(await json(await api(host, `room/category/${leaf.id}/count`, { token }), 200)).toEqual({ id: leaf.id, rooms: 2, rooms_in_tree: 2 })
    // The room list names each room's category and filters by one.
    const listed = await json<{ items: { name: string; category_name: string | null }[] }>(
      await api(host, `room/room?category_id=${leaf.id}&order=name`, { token }),
      200,
    )
    expect(listed.items.map((r) => [r.name, r.category_name])).toEqual([
      ['Sala B', 'Folha'],
      ['Sala C', 'Folha'],
    ])
    for (const id of ['nope', top.id]) {
      const res = await expectEnvelope(await api(other.host, `room/category/${id}/count`, { token: other.token }), 404, 'category_not_located')
      expect(res.errors[0]).toMatchObject({ field: 'id', value: id, message: 'validation.room.category_not_located' })
    }
    // A category holding rooms is not deleted.
    const refused = await expectEnvelope(await api(host, `room/category/${leaf.id}`, { method: 'DELETE', token }), 409, 'in_use')
    expect(refused.errors[0].message).toBe('validation.category.has_rooms')
  })
})

describe('realm limits at join time', () => {
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(ApiError)
    return (err as ApiError).errors[0]
  }

  it('admits at most max_users_per_environment distinct live users; a user already live and a renewal always pass', async () => {
    const { code } = await freshRealm({ max_users_per_environment: 2, max_users_per_room: -1 })
    const now = new Date('2026-05-01T12:00:00Z')
    await admitLive(env.DB, code, { party: 'channel', room: 'c1', nick: 'ana', now })
    await admitLive(env.DB, code, { party: 'room', room: 'r1', nick: 'bia', now })
    // Ana in a second room still counts once; her renewal passes.
    await admitLive(env.DB, code, { party: 'room', room: 'r1', nick: 'ana', now })
    await admitLive(env.DB, code, { party: 'channel', room: 'c1', nick: 'ana', now })
    expect(await refusal(admitLive(env.DB, code, { party: 'channel', room: 'c1', nick: 'caio', now }))).toMatchObject({
      cause: 'limit',
      message: 'validation.live.max_environment',
      value: 2,
    })
    expect(await count('SELECT COUNT(*) AS n FROM live_presence WHERE realm = ? AND nick = ?', code, 'caio')).toBe(0)
    // Bia leaves: Caio gets her place. Leases that ran out do not count.
    await leaveLive(env.DB, code, { party: 'room', room: 'r1', nick: 'bia', now })
    await admitLive(env.DB, code, { party: 'channel', room: 'c1', nick: 'caio', now })
    const later = new Date(now.getTime() + 10 * 60_000)
    await admitLive(env.DB, code, { party: 'channel', room: 'c1', nick: 'davi', now: later })
  })

  it('applies max_users_per_room to a live room, and -1 lifts both limits', async () => {
    const { code } = await freshRealm({ max_users_per_environment: -1, max_users_per_room: 1 })
    const now = new Date('2026-05-01T12:00:00Z')
    await admitLive(env.DB, code, { party: 'room', room: 'r1', nick: 'ana', now })
    expect(await refusal(admitLive(env.DB, code, { party: 'room', room: 'r1', nick: 'bia', now }))).toMatchObject({
      message: 'validation.live.max_room',
      value: 1,
    })
    await admitLive(env.DB, code, { party: 'room', room: 'r2', nick: 'bia', now })
    await admitLive(env.DB, code, { party: 'room', room: 'r1', nick: 'bia', now, perRoom: false })
    await env.DB.prepare('UPDATE realm SET max_users_per_room = -1 WHERE code = ?').bind(code).run()
    await admitLive(env.DB, code, { party: 'room', room: 'r1', nick: 'caio', now })
  })

  it('joins a room only while it is open and inside its window', async () => {
    const { code } = await freshRealm({ max_users_per_environment: -1 })
    const r = await roomFactory(code)
    await env.DB.prepare('UPDATE room SET enable_at = ?, disable_at = ? WHERE id = ?').bind('2026-05-01T10:00:00.000Z', '2026-05-01T12:00:00.000Z', r.id).run()
    expect(await refusal(admitRoomJoin(env.DB, code, r.id, 'ana', new Date('2026-05-01T09:59:00Z')))).toMatchObject({
      cause: 'not_active',
      message: 'validation.room.not_yet_active',
    })
    expect(await refusal(admitRoomJoin(env.DB, code, r.id, 'ana', new Date('2026-05-01T12:00:00Z')))).toMatchObject({
      cause: 'not_active',
      message: 'validation.room.no_longer_active',
    })
    await admitRoomJoin(env.DB, code, r.id, 'ana', new Date('2026-05-01T11:00:00Z'))
    await env.DB.prepare('UPDATE room SET closed_at = ? WHERE id = ?').bind('2026-05-01T11:30:00.000Z', r.id).run()
    expect(await refusal(admitRoomJoin(env.DB, code, r.id, 'ana', new Date('2026-05-01T11:31:00Z')))).toMatchObject({ cause: 'closed' })
    expect(await refusal(admitRoomJoin(env.DB, code, 'nope', 'ana'))).toMatchObject({ cause: 'not_found' })
  })
})

describe('console: one room category tree, and the channel list by category', () => {
  it('serves the tree at room/category; realm/category redirects there and the sidebar names it once', async () => {
    const { cookie } = await userWith('demo', ['dashboard_dashboard_access', 'room_category_list', 'room_category_edit', 'room_card_list', 'mas_realm_list'])
    const moved = await call(DEMO, '/realm/category/edit/abc?x=1', { headers: { cookie } })
    expect(moved.status).toBe(302)
    expect(moved.headers.get('location')).toBe('/room/category/edit/abc?x=1')
    const html = await (await call(DEMO, '/room/category?view=tree', { headers: { cookie } })).text()
    expect(html).toContain('role="tree"')
    // The sidebar (the first <nav>, the main navigation) links the tree once, and no other category screen.
    const sidebar = html.slice(html.indexOf('<nav'), html.indexOf('</nav>'))
    expect(sidebar).toContain('href="/room/card"')
    expect(sidebar.match(/href="\/room\/category"/g)?.length).toBe(1)
    expect(sidebar).not.toContain('href="/realm/category"')
  })

  it('names each channel’s category in the list (API, console, CSV) and filters by it', async () => {
    const { code, host } = await freshRealm()
    const { token, nick, cookie } = await userWith(code, [
      'dashboard_dashboard_access',
      'sns_channel_list',
      'sns_channel_create',
      'sns_channel_category_list',
      'sns_channel_category_create',
    ])
    const cat = async (name: string) => json<{ id: string }>(await api(host, 'channel/category', { method: 'POST', token, json: { name } }), 201)
    const live = await cat('Ao vivo')
    const events = await cat('Eventos')
    const channel = async (name: string, category_id: string | null) =>
      json(await api(host, 'channel', { method: 'POST', token, json: { name, category_id, members: [{ nick, permission: 'owner' }] } }), 201)
    await channel('Canal Um', live.id)
    await channel('Canal Dois', events.id)
    await channel('Canal Três', null)
    const page = await json<{ items: { name: string; category_name: string | null }[] }>(await api(host, 'channel?order=name', { token }), 200)
    expect(page.items.map((c) => [c.name, c.category_name])).toEqual([
      ['Canal Dois', 'Eventos'],
      ['Canal Três', null],
      ['Canal Um', 'Ao vivo'],
    ])
    const filtered = await json<{ items: { name: string }[] }>(await api(host, `channel?category_id=${live.id}`, { token }), 200)
    expect(filtered.items.map((c) => c.name)).toEqual(['Canal Um'])
    const html = await (await call(host, `/channel?category_id=${events.id}`, { headers: { cookie } })).text()
    const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((m) => m[1]).filter((r) => r.includes('<td'))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toContain('Canal Dois')
    expect(rows[0]).toContain('Eventos')
    expect(html).toMatch(new RegExp(`<option[^>]*value="${live.id}"[^>]*>Ao vivo</option>`))
    const csv = await (await call(host, '/export/channel?order=name', { headers: { cookie } })).text()
    expect(csv.trim().split('\n')[1]).toContain('Eventos')
  })
})
