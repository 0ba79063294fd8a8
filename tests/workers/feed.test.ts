import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { FeedPage, FeedPost } from '#shared/schemas/feed'
import { room, user } from './factories'
import { api, call, expectEnvelope, signIn, userWith } from './helpers'

/** The feed of rooms (issue 13): posting, moderation, the pinning limit, the word filter, permissions and realm scoping. */

const STAFF = ['sns_feed_list', 'sns_feed_edit']

/** A realm of its own with the feed on (settings per test), served at `<code>.localhost`. */
async function feedRealm(values: Record<string, string | number> = {}) {
  const code = `f${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const host = `${code}.localhost`
  const cols = ['code', 'name', 'feed_enabled', ...Object.keys(values)]
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO realm (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(
      code,
      `Realm ${code}`,
      1,
      ...Object.values(values),
    ),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(host, code),
  ])
  const staff = await userWith(code, STAFF)
  return { code, host, staff }
}

/** A user without permissions (a student) with a password, signed in through the API; member of `rooms`. */
async function student(realm: { code: string; host: string }) {
  const s = await user(realm.code, { name: 'Aluna Teste' })
  const hash = (await env.DB.prepare("SELECT password_hash FROM user WHERE realm = 'demo' AND nick = 'student@demo'").first<string>('password_hash'))!
  await env.DB.prepare('UPDATE user SET password_hash = ? WHERE realm = ? AND nick = ?').bind(hash, realm.code, s.nick).run()
  const token = await signIn(realm.host, realm.code, s.nick)
  return { ...s, token }
}

const join = (realm: string, roomId: string, nick: string) =>
  env.DB.prepare('INSERT INTO room_member (realm, room_id, nick, added_at, added_by) VALUES (?, ?, ?, ?, ?)')
    .bind(realm, roomId, nick, new Date().toISOString(), 'test')
    .run()

async function postAs(host: string, token: string, json: Record<string, unknown>) {
  return api(host, 'feed/post', { method: 'POST', token, json })
}

async function created(res: Response): Promise<FeedPost> {
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as FeedPost
}

describe('feed posts', () => {
  it('staff post a message and media; a room feed lists pinned posts first, then the rest newest first, by pages', async () => {
    const r = await feedRealm()
    const rm = await room(r.code)
    const first = await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'Primeiro aviso, veja https://example.org/a' }))
    expect(first).toMatchObject({
      room_id: rm.id,
      room_name: rm.name,
      status: 'published',
      pinned: false,
      author: r.staff.nick,
      urls: ['https://example.org/a'],
    })
    const video = await created(await postAs(r.host, r.staff.token, { room_id: rm.id, media_type: 'video', media_url: 'https://videos.example.org/v.mp4' }))
    expect(video).toMatchObject({ message: '', media_type: 'video', media_url: 'https://videos.example.org/v.mp4' })
    for (let i = 0; i < 21; i++) await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: `post ${i}` }))

    const pin = await api(r.host, `feed/post/${first.id}/pin`, { method: 'POST', token: r.staff.token })
    expect(pin.status, await pin.clone().text()).toBe(200)
    const page1 = (await (await api(r.host, `feed/post?room=${rm.id}`, { token: r.staff.token })).json()) as FeedPage
    expect(page1.pinned.map((p) => p.id)).toEqual([first.id])
    expect(page1.items).toHaveLength(20)
    expect(page1.items[0].message).toBe('post 20')
    expect(page1.items.some((p) => p.id === first.id)).toBe(false)
    expect(page1.next).not.toBeNull()
    const page2 = (await (await api(r.host, `feed/post?room=${rm.id}&after=${page1.next}`, { token: r.staff.token })).json()) as FeedPage
    expect(page2.pinned).toEqual([])
    expect(page2.items.map((p) => p.message)).toEqual(['post 0', ''])
    expect(page2.items[1].id).toBe(video.id)
    expect(page2.next).toBeNull()
    // 23 posts, one pinned: 20 + 2, none twice.
    const seen = new Set([...page1.items, ...page2.items].map((p) => p.id))
    expect(seen.size).toBe(22)

    const unpin = await api(r.host, `feed/post/${first.id}/unpin`, { method: 'POST', token: r.staff.token })
    expect(((await unpin.json()) as FeedPost).pinned).toBe(false)
    const del = await api(r.host, `feed/post/${first.id}`, { method: 'DELETE', token: r.staff.token })
    expect(del.status).toBe(204)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM feed_post WHERE id = ?').bind(first.id).first('n')).toBe(0)
    const actions = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'feed_post' AND entity_id = ? ORDER BY id")
      .bind(first.id)
      .all<{ action: string }>()
    expect(actions.results.map((a) => a.action)).toEqual(['create', 'pin', 'unpin', 'delete'])
  })

  it('refuses pinning past the realm’s feed_max_pinned with 422 pinned_limit, and audits no refused pin', async () => {
    const r = await feedRealm({ feed_max_pinned: 2 })
    const rm = await room(r.code)
    const other = await room(r.code)
    const posts = [] as FeedPost[]
    for (let i = 0; i < 3; i++) posts.push(await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: `p${i}` })))
    for (const p of posts.slice(0, 2)) expect((await api(r.host, `feed/post/${p.id}/pin`, { method: 'POST', token: r.staff.token })).status).toBe(200)
    const refused = await api(r.host, `feed/post/${posts[2].id}/pin`, { method: 'POST', token: r.staff.token })
    const env1 = await expectEnvelope(refused, 422, 'pinned_limit')
    expect(env1.errors[0]).toMatchObject({ message: 'feed.error.pinned_limit', value: 2 })
    expect(await env.DB.prepare('SELECT pinned FROM feed_post WHERE id = ?').bind(posts[2].id).first('pinned')).toBe(0)
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE entity_id = ? AND action = 'pin'").bind(posts[2].id).first('n')).toBe(0)
    // The limit is per room: another room still pins.
    const elsewhere = await created(await postAs(r.host, r.staff.token, { room_id: other.id, message: 'noutra sala' }))
    expect((await api(r.host, `feed/post/${elsewhere.id}/pin`, { method: 'POST', token: r.staff.token })).status).toBe(200)
    // Unpinning one frees a place.
    await api(r.host, `feed/post/${posts[0].id}/unpin`, { method: 'POST', token: r.staff.token })
    expect((await api(r.host, `feed/post/${posts[2].id}/pin`, { method: 'POST', token: r.staff.token })).status).toBe(200)
  })

  it('holds a student’s post in a moderated realm until staff approve it; staff posts are published at once', async () => {
    const r = await feedRealm({ feed_moderated: 1 })
    const rm = await room(r.code)
    const s = await student(r)
    await join(r.code, rm.id, s.nick)
    const held = await created(await postAs(r.host, s.token, { room_id: rm.id, message: 'Posso entregar amanhã?' }))
    expect(held).toMatchObject({ status: 'pending', author: s.nick, author_name: 'Aluna Teste' })
    const staffPost = await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'Aviso' }))
    expect(staffPost.status).toBe('published')

    // Other members do not see it; its author does (marked pending); staff see it under pending.
    const mate = await student(r)
    await join(r.code, rm.id, mate.nick)
    const mates = (await (await api(r.host, 'feed/mine', { token: mate.token })).json()) as FeedPage
    expect(mates.items.map((p) => p.id)).toEqual([staffPost.id])
    const own = (await (await api(r.host, 'feed/mine', { token: s.token })).json()) as FeedPage
    expect(own.items.map((p) => [p.id, p.status])).toEqual([
      [staffPost.id, 'published'],
      [held.id, 'pending'],
    ])
    const pending = (await (await api(r.host, `feed/post?room=${rm.id}&status=pending`, { token: r.staff.token })).json()) as FeedPage
    expect(pending.items.map((p) => p.id)).toEqual([held.id])
    expect(pending.moderated).toBe(true)

    await expectEnvelope(await api(r.host, `feed/post/${held.id}/pin`, { method: 'POST', token: r.staff.token }), 409, 'not_published')
    const ok = await api(r.host, `feed/post/${held.id}/approve`, { method: 'POST', token: r.staff.token })
    expect(ok.status, await ok.clone().text()).toBe(200)
    await expectEnvelope(await api(r.host, `feed/post/${held.id}/approve`, { method: 'POST', token: r.staff.token }), 409, 'not_pending')
    const after = (await (await api(r.host, 'feed/mine', { token: mate.token })).json()) as FeedPage
    expect(after.items.map((p) => p.id).sort()).toEqual([staffPost.id, held.id].sort())
  })

  it('publishes a student’s post at once where the realm does not moderate', async () => {
    const r = await feedRealm({ feed_moderated: 0 })
    const rm = await room(r.code)
    const s = await student(r)
    await join(r.code, rm.id, s.nick)
    expect((await created(await postAs(r.host, s.token, { room_id: rm.id, message: 'oi' }))).status).toBe('published')
  })

  it('masks the realm’s filtered sentences in post text, and refuses a filtered link as media', async () => {
    const r = await feedRealm({ word_filter_links: 1 })
    await env.DB.batch([
      env.DB.prepare('INSERT INTO realm_word_filter (realm, sentence) VALUES (?, ?)').bind(r.code, 'palavrão'),
      env.DB.prepare('INSERT INTO realm_exemption_domain (realm, domain) VALUES (?, ?)').bind(r.code, 'escola.example.org'),
    ])
    const rm = await room(r.code)
    const p = await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'Isso é um PALAVRAO sim' }))
    expect(p.message).toBe('Isso é um ******** sim')
    expect(await env.DB.prepare('SELECT message FROM feed_post WHERE id = ?').bind(p.id).first('message')).toBe('Isso é um ******** sim')
    const refused = await postAs(r.host, r.staff.token, { room_id: rm.id, media_type: 'link', media_url: 'https://other.example.com/x' })
    await expectEnvelope(refused, 422, 'word_filter')
    await created(await postAs(r.host, r.staff.token, { room_id: rm.id, media_type: 'link', media_url: 'https://escola.example.org/x' }))
  })

  it('validates the body: media and its type together, some content, a known media type', async () => {
    const r = await feedRealm()
    const rm = await room(r.code)
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM feed_post WHERE realm = ?').bind(r.code).first('n')
    const bad = [
      { room_id: rm.id },
      { room_id: rm.id, message: '   ' },
      { room_id: rm.id, media_type: 'image' },
      { room_id: rm.id, media_url: 'https://example.org/i.png' },
      { room_id: rm.id, media_type: 'audio', media_url: 'https://example.org/a.mp3' },
      { room_id: rm.id, media_type: 'image', media_url: 'javascript:alert(1)' },
      { room_id: rm.id, message: 'x'.repeat(2001) },
    ]
    for (const json of bad) await expectEnvelope(await postAs(r.host, r.staff.token, json), 400)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM feed_post WHERE realm = ?').bind(r.code).first('n')).toBe(before)
  })

  it('lets members post only to their rooms, staff only act with sns_feed_edit, authors delete only their own', async () => {
    const r = await feedRealm()
    const rm = await room(r.code)
    const s = await student(r)
    await expectEnvelope(await postAs(r.host, s.token, { room_id: rm.id, message: 'fora' }), 403, 'not_member')
    await join(r.code, rm.id, s.nick)
    const mine = await created(await postAs(r.host, s.token, { room_id: rm.id, message: 'dentro' }))
    const staffPost = await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'aviso' }))
    // A student reads no room feed of staff, pins nothing, deletes only their own post.
    await expectEnvelope(await api(r.host, `feed/post?room=${rm.id}`, { token: s.token }), 403, 'forbidden')
    await expectEnvelope(await api(r.host, `feed/post/${staffPost.id}/pin`, { method: 'POST', token: s.token }), 403, 'forbidden')
    await expectEnvelope(await api(r.host, `feed/post/${staffPost.id}`, { method: 'DELETE', token: s.token }), 403, 'forbidden')
    expect((await api(r.host, `feed/post/${mine.id}`, { method: 'DELETE', token: s.token })).status).toBe(204)
    // A reader (sns_feed_list) lists but neither pins nor approves.
    const reader = await userWith(r.code, ['sns_feed_list'])
    expect((await api(r.host, `feed/post?room=${rm.id}`, { token: reader.token })).status).toBe(200)
    await expectEnvelope(await api(r.host, `feed/post/${staffPost.id}/pin`, { method: 'POST', token: reader.token }), 403, 'forbidden')
    await expectEnvelope(await api(r.host, `feed/post/${staffPost.id}/approve`, { method: 'POST', token: reader.token }), 403, 'forbidden')
  })

  it('keeps every realm’s feed its own', async () => {
    const a = await feedRealm()
    const b = await feedRealm()
    const roomA = await room(a.code)
    const postA = await created(await postAs(a.host, a.staff.token, { room_id: roomA.id, message: 'só de A' }))
    await expectEnvelope(await postAs(b.host, b.staff.token, { room_id: roomA.id, message: 'intruso' }), 404, 'not_found')
    await expectEnvelope(await api(b.host, `feed/post?room=${roomA.id}`, { token: b.staff.token }), 404, 'not_found')
    for (const action of ['pin', 'unpin', 'approve'])
      await expectEnvelope(await api(b.host, `feed/post/${postA.id}/${action}`, { method: 'POST', token: b.staff.token }), 404, 'not_found')
    await expectEnvelope(await api(b.host, `feed/post/${postA.id}`, { method: 'DELETE', token: b.staff.token }), 404, 'not_found')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM feed_post WHERE id = ?').bind(postA.id).first('n')).toBe(1)
  })

  it('answers 403 disabled while the realm’s feed is off', async () => {
    const r = await feedRealm()
    const rm = await room(r.code)
    await env.DB.prepare('UPDATE realm SET feed_enabled = 0 WHERE code = ?').bind(r.code).run()
    await expectEnvelope(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'x' }), 403, 'disabled')
    await expectEnvelope(await api(r.host, `feed/post?room=${rm.id}`, { token: r.staff.token }), 403, 'disabled')
    await expectEnvelope(await api(r.host, 'feed/mine', { token: r.staff.token }), 403, 'disabled')
  })
})

describe('the room screen’s feed panel (console resource route /feed/room/{id})', () => {
  const DASH = 'dashboard_dashboard_access'

  it('answers the panel to readers, with editing only for sns_feed_edit, and nothing to others', async () => {
    const r = await feedRealm()
    const rm = await room(r.code)
    await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'no painel' }))
    const get = async (cookie: string) => (await call(r.host, `/feed/room/${rm.id}`, { headers: { cookie } })).json() as Promise<Record<string, unknown>>
    const editor = await userWith(r.code, [DASH, 'sns_feed_edit'])
    const reader = await userWith(r.code, [DASH, 'sns_feed_list'])
    const other = await userWith(r.code, [DASH, 'room_room_edit'])
    const asEditor = await get(editor.cookie)
    expect(asEditor).toMatchObject({ state: 'ok', canEdit: true })
    expect((asEditor.page as FeedPage).items.map((p) => p.message)).toEqual(['no painel'])
    expect(await get(reader.cookie)).toMatchObject({ state: 'ok', canEdit: false })
    expect(await get(other.cookie)).toEqual({ state: 'forbidden' })
    await env.DB.prepare('UPDATE realm SET feed_enabled = 0 WHERE code = ?').bind(r.code).run()
    expect(await get(editor.cookie)).toEqual({ state: 'disabled' })
  })

  it('posts and pins through the panel’s actions; a reader’s action is refused and changes nothing', async () => {
    const r = await feedRealm({ feed_max_pinned: 1 })
    const rm = await room(r.code)
    const editor = await userWith(r.code, [DASH, 'sns_feed_edit'])
    const reader = await userWith(r.code, [DASH, 'sns_feed_list'])
    const post = (cookie: string, intent: string, fields: Record<string, string>) => {
      const form = new FormData()
      for (const [k, v] of Object.entries(fields)) form.set(k, v)
      return call(r.host, `/feed/room/${rm.id}?intent=${intent}`, { method: 'POST', body: form, headers: { cookie, origin: `http://${r.host}` } })
    }
    const res = await post(editor.cookie, 'post', { message: 'pelo painel', media_type: 'none', media_url: '' })
    expect(res.status, await res.clone().text()).toBe(200)
    const stored = await env.DB.prepare('SELECT id, author FROM feed_post WHERE realm = ? AND room_id = ?')
      .bind(r.code, rm.id)
      .all<{ id: string; author: string }>()
    expect(stored.results).toEqual([{ id: expect.any(String), author: editor.nick }])
    const id = stored.results[0].id
    expect((await post(reader.cookie, 'pin', { id })).status).toBe(302)
    expect(await env.DB.prepare('SELECT pinned FROM feed_post WHERE id = ?').bind(id).first('pinned')).toBe(0)
    const pinned = await post(editor.cookie, 'pin', { id })
    expect(await pinned.json()).toMatchObject({ ok: true, intent: 'pin' })
    // A second pin passes the realm's limit of one: the panel gets the API's error items.
    const second = await created(await postAs(r.host, r.staff.token, { room_id: rm.id, message: 'outra' }))
    const refused = await post(editor.cookie, 'pin', { id: second.id })
    expect(refused.status, await refused.clone().text()).toBe(422)
    expect(await refused.json()).toMatchObject({ ok: false, errors: [{ cause: 'pinned_limit', value: 1 }] })
  })
})
