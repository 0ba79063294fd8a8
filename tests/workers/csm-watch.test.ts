import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { WatchPlayer, WatchableSession, WatchersPage } from '#shared/schemas/csm-watch'
import { createSession } from '../../worker/db/sessions'
import { deleteSessionWatchStatements } from '../../worker/db/csm-watch'
import { mp4Fixture } from '../support/mp4'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'
import { csmSession, room, user } from './factories'

/**
 * Watching recorded sessions (issue 15): the video streamed with range requests, who may watch what, the watch slots
 * counted once with the last slot capped at the duration, the "who watched" table and its aggregate.
 */

/** A student of `realm` (a user without console permissions) with a web session. */
async function student(realm = 'demo') {
  const u = await user(realm)
  const { token } = await createSession(env.DB, realm, u.nick, { platform: 'web' })
  return { ...u, token }
}

/** A session of a new room with `members`, a video of `seconds` stored in R2 (an MP4 fixture), and its status. */
async function watchable(options: { realm?: string; seconds?: number; status?: string; members?: string[]; mdatBytes?: number } = {}) {
  const realm = options.realm ?? 'demo'
  const r = await room(realm, { members: options.members ?? [] })
  const seconds = options.seconds ?? 95
  const bytes = mp4Fixture({ tracks: ['avc', 'aac'], seconds, mdatBytes: options.mdatBytes ?? 4096 })
  const s = await csmSession(realm, {
    room: r.id,
    status: options.status ?? 'published',
    video_status: 'processed',
    video: { duration_seconds: seconds, size: bytes.byteLength, video_codec: 'avc', audio_codec: 'mp4a.40.2' },
  })
  const key = `recordings/${realm}/${s.id}.mp4`
  await env.DB.prepare("UPDATE csm_recording SET r2_key = ?, mime = 'video/mp4' WHERE session_id = ?").bind(key, s.id).run()
  await env.FILES.put(key, bytes)
  return { ...s, room: r, bytes, key }
}

const report = (id: string, token: string, slots: unknown, host = DEMO) => api(host, `/csm/session/${id}/watch`, { method: 'POST', token, json: { slots } })

describe('video streaming', () => {
  it('answers the whole video (200), a range (206), a suffix and an open range, and 416 past the end', async () => {
    const s1 = await student()
    const s = await watchable({ members: [s1.nick] })
    const size = s.bytes.byteLength

    const whole = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('video/mp4')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('content-length')).toBe(String(size))
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(s.bytes)

    const part = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: 'bytes=100-199' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`)
    expect(part.headers.get('content-length')).toBe('100')
    expect(part.headers.get('accept-ranges')).toBe('bytes')
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(s.bytes.slice(100, 200))

    const open = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: `bytes=${size - 10}-` } })
    expect(open.status).toBe(206)
    expect(open.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`)
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(s.bytes.slice(size - 10))

    const suffix = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: 'bytes=-16' } })
    expect(suffix.status).toBe(206)
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(s.bytes.slice(size - 16))

    // A range running past the end is cut at the end.
    const past = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: `bytes=${size - 4}-${size + 100}` } })
    expect(past.status).toBe(206)
    expect(past.headers.get('content-range')).toBe(`bytes ${size - 4}-${size - 1}/${size}`)

    const beyond = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: `bytes=${size}-` } })
    expect(beyond.status).toBe(416)
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`)
    await expectEnvelope(beyond, 416, 'range_not_satisfiable')

    // A malformed Range is ignored (the whole video), as HTTP allows.
    const odd = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: 'lines=1-2' } })
    expect(odd.status).toBe(200)
    await odd.arrayBuffer()
  })

  it('names the container of a WebM recording', async () => {
    const s1 = await student()
    const s = await watchable({ members: [s1.nick] })
    await env.DB.prepare("UPDATE csm_recording SET mime = 'video/webm;codecs=h264,opus' WHERE session_id = ?").bind(s.id).run()
    const res = await api(DEMO, `/csm/session/${s.id}/video`, { token: s1.token, headers: { range: 'bytes=0-0' } })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-type')).toBe('video/webm')
    await res.arrayBuffer()
  })
})

describe('who may watch', () => {
  it('lets a member watch a published session, and nobody else a session not published or of another room', async () => {
    const member = await student()
    const outsider = await student()
    const published = await watchable({ members: [member.nick] })
    const pending = await watchable({ members: [member.nick], status: 'pending' })
    const staff = await userWith('demo', ['csm_session_get'])

    for (const path of ['video', 'player']) {
      expect((await api(DEMO, `/csm/session/${published.id}/${path}`, { token: member.token })).status).toBe(200)
      await expectEnvelope(await api(DEMO, `/csm/session/${published.id}/${path}`, { token: outsider.token }), 404, 'not_found')
      await expectEnvelope(await api(DEMO, `/csm/session/${pending.id}/${path}`, { token: member.token }), 404, 'not_found')
      // Staff see any session of the realm with a video, published or not.
      expect((await api(DEMO, `/csm/session/${pending.id}/${path}`, { token: staff.token })).status).toBe(200)
    }
    await expectEnvelope(await report(published.id, outsider.token, [0]), 404, 'not_found')
    await expectEnvelope(await report(pending.id, member.token, [0]), 404, 'not_found')
    await expectEnvelope(await api(DEMO, `/csm/session/${published.id}/video`), 401)

    // The list: only the published session of the member's room.
    const list = (await (await api(DEMO, '/csm/session/watchable', { token: member.token })).json()) as { items: WatchableSession[] }
    expect(list.items.map((s) => s.id)).toContain(published.id)
    expect(list.items.map((s) => s.id)).not.toContain(pending.id)
    const none = (await (await api(DEMO, '/csm/session/watchable', { token: outsider.token })).json()) as { items: WatchableSession[] }
    expect(none.items.map((s) => s.id)).not.toContain(published.id)
  })

  it('lets a channel member watch a channel session, but not a banned one', async () => {
    const member = await student()
    const banned = await student()
    const channel = `ch${crypto.randomUUID().slice(0, 8)}`
    const at = new Date().toISOString()
    await env.DB.batch([
      env.DB.prepare("INSERT INTO channel (id, realm, name, owner, created_at, updated_at) VALUES (?, 'demo', ?, '', ?, ?)").bind(
        channel,
        `Canal ${channel}`,
        at,
        at,
      ),
      env.DB.prepare("INSERT INTO channel_member (realm, channel_id, nick, permission, added_at) VALUES ('demo', ?, ?, 'mobile', ?)").bind(
        channel,
        member.nick,
        at,
      ),
      env.DB.prepare("INSERT INTO channel_member (realm, channel_id, nick, permission, added_at) VALUES ('demo', ?, ?, 'banned', ?)").bind(
        channel,
        banned.nick,
        at,
      ),
    ])
    const s = await watchable()
    await env.DB.batch([
      env.DB.prepare('DELETE FROM csm_session_room WHERE session_id = ?').bind(s.id),
      env.DB.prepare('UPDATE csm_session SET channel_id = ? WHERE id = ?').bind(channel, s.id),
    ])
    expect((await api(DEMO, `/csm/session/${s.id}/player`, { token: member.token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, `/csm/session/${s.id}/player`, { token: banned.token }), 404, 'not_found')
    const list = (await (await api(DEMO, '/csm/session/watchable', { token: member.token })).json()) as { items: WatchableSession[] }
    expect(list.items.find((i) => i.id === s.id)).toMatchObject({ channel_id: channel, channel_name: `Canal ${channel}`, room_id: null })
  })

  it('keeps each realm to its own sessions', async () => {
    const theirs = await student('escola')
    const mineStudent = await student()
    const s = await watchable({ members: [mineStudent.nick] })
    const escolaStaff = await userWith('escola', ['csm_session_get'])
    await expectEnvelope(await api(ESCOLA, `/csm/session/${s.id}/video`, { token: escolaStaff.token }), 404, 'not_found')
    await expectEnvelope(await api(ESCOLA, `/csm/session/${s.id}/watchers`, { token: escolaStaff.token }), 404, 'not_found')
    await expectEnvelope(await report(s.id, theirs.token, [0], ESCOLA), 404, 'not_found')
    const list = (await (await api(ESCOLA, '/csm/session/watchable', { token: theirs.token })).json()) as { items: WatchableSession[] }
    expect(list.items.map((i) => i.id)).not.toContain(s.id)
  })
})

describe('watch slots', () => {
  it('counts a slot once, caps the last slot at the duration, and sums the session over its viewers', async () => {
    const ana = await student()
    const bia = await student()
    // 95 s in slots of 30 s: 0–30, 30–60, 60–90, 90–95 (the last is 5 s).
    const s = await watchable({ members: [ana.nick, bia.nick], seconds: 95 })

    let res = await report(s.id, ana.token, [0, 1])
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ stored: 2, slots: 2, watched_seconds: 60, percent: 63.16 })
    // Re-watching slot 1 (and saying 0 twice) counts nothing new.
    res = await report(s.id, ana.token, [1, 0, 0])
    expect(await res.json()).toEqual({ stored: 0, slots: 2, watched_seconds: 60, percent: 63.16 })
    // The last slot is 5 s: 65 of 95 s.
    res = await report(s.id, ana.token, [3])
    expect(await res.json()).toEqual({ stored: 1, slots: 3, watched_seconds: 65, percent: 68.42 })
    res = await report(s.id, ana.token, [2])
    expect(await res.json()).toEqual({ stored: 1, slots: 4, watched_seconds: 95, percent: 100 })
    res = await report(s.id, bia.token, [3])
    expect(await res.json()).toEqual({ stored: 1, slots: 1, watched_seconds: 5, percent: 5.26 })

    const player = (await (await api(DEMO, `/csm/session/${s.id}/player`, { token: bia.token })).json()) as WatchPlayer
    expect(player).toMatchObject({ bucket: 30, slot_count: 4, duration_seconds: 95, watched: [3], watched_seconds: 5, controls_list: expect.any(String) })

    const staff = await userWith('demo', ['csm_session_get'])
    const page = (await (await api(DEMO, `/csm/session/${s.id}/watchers`, { token: staff.token })).json()) as WatchersPage
    expect(page.items.map((w) => [w.nick, w.watched_seconds, w.percent])).toEqual([
      [ana.nick, 95, 100],
      [bia.nick, 5, 5.26],
    ])
    expect(page.items[0].name).toBe(ana.name)
    // Aggregate: 100 s watched by 2 viewers of a 95 s video → mean 50 s each, 52.63 %.
    expect(page.aggregate).toEqual({ viewers: 2, watched_seconds: 100, average_percent: 52.63, duration_seconds: 95, bucket: 30 })
    expect(page).toMatchObject({ total: 2, page: 1, pages: 1 })
    // The watchers table is staff's.
    await expectEnvelope(await api(DEMO, `/csm/session/${s.id}/watchers`, { token: ana.token }), 403, 'forbidden')

    // The list shows the student's own progress.
    const list = (await (await api(DEMO, '/csm/session/watchable', { token: bia.token })).json()) as { items: WatchableSession[] }
    expect(list.items.find((i) => i.id === s.id)).toMatchObject({ watched_seconds: 5, percent: 5.26, slots: 1, room_id: s.room.id })
  })

  it('keeps the slot length of the first report when the realm changes it, and forgets all on deletion', async () => {
    const ana = await student()
    const s = await watchable({ members: [ana.nick], seconds: 95 })
    await report(s.id, ana.token, [0])
    const before = await env.DB.prepare("SELECT csm_vod_slot_bucket AS b FROM realm WHERE code = 'demo'").first<number>('b')
    await env.DB.prepare("UPDATE realm SET csm_vod_slot_bucket = 10 WHERE code = 'demo'").run()
    try {
      const player = (await (await api(DEMO, `/csm/session/${s.id}/player`, { token: ana.token })).json()) as WatchPlayer
      expect(player).toMatchObject({ bucket: 30, watched_seconds: 30 })
      await env.DB.batch(deleteSessionWatchStatements(env.DB, 'demo', s.id))
      const after = (await (await api(DEMO, `/csm/session/${s.id}/player`, { token: ana.token })).json()) as WatchPlayer
      // No slot stored: the realm's current length (10 s: 10 slots) applies from the next report.
      expect(after).toMatchObject({ bucket: 10, slot_count: 10, watched: [], watched_seconds: 0 })
    } finally {
      await env.DB.prepare("UPDATE realm SET csm_vod_slot_bucket = ? WHERE code = 'demo'").bind(before).run()
    }
  })

  it('refuses bad reports with the envelope and stores nothing', async () => {
    const ana = await student()
    const s = await watchable({ members: [ana.nick], seconds: 95 })
    await expectEnvelope(await report(s.id, ana.token, [4]), 422, 'slot_out_of_range')
    await expectEnvelope(await report(s.id, ana.token, [0, 99]), 422, 'slot_out_of_range')
    await expectEnvelope(await report(s.id, ana.token, [-1]), 400)
    await expectEnvelope(await report(s.id, ana.token, [1.5]), 400)
    await expectEnvelope(await report(s.id, ana.token, ['1']), 400)
    await expectEnvelope(await report(s.id, ana.token, []), 400)
    await expectEnvelope(
      await report(
        s.id,
        ana.token,
        Array.from({ length: 201 }, () => 0),
      ),
      400,
    )
    await expectEnvelope(await api(DEMO, `/csm/session/${s.id}/watch`, { method: 'POST', token: ana.token, json: { other: 1 } }), 400)
    await expectEnvelope(await report('bad id!', ana.token, [0]), 400)
    const staff = await userWith('demo', ['csm_session_get'])
    await expectEnvelope(await api(DEMO, `/csm/session/${s.id}/watchers?page=0`, { token: staff.token }), 400)
    await expectEnvelope(await api(DEMO, '/csm/session/watchable?room_id=x%20y', { token: ana.token }), 400)
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM csm_watch WHERE session_id = ?').bind(s.id).first<number>('n')
    expect(rows).toBe(0)
  })

  it('pages the watchers table', async () => {
    const staff = await userWith('demo', ['csm_session_get'])
    const viewers = await Promise.all(Array.from({ length: 23 }, () => student()))
    const s = await watchable({ members: viewers.map((v) => v.nick), seconds: 95 })
    for (const [i, v] of viewers.entries()) expect((await report(s.id, v.token, i < 3 ? [0, 1, 2] : [0])).status).toBe(200)
    const first = (await (await api(DEMO, `/csm/session/${s.id}/watchers`, { token: staff.token })).json()) as WatchersPage
    expect(first).toMatchObject({ total: 23, page: 1, pages: 2 })
    expect(first.items).toHaveLength(20)
    expect(first.items.slice(0, 3).every((w) => w.watched_seconds === 90)).toBe(true)
    const second = (await (await api(DEMO, `/csm/session/${s.id}/watchers?page=2`, { token: staff.token })).json()) as WatchersPage
    expect(second.items).toHaveLength(3)
    expect(new Set([...first.items, ...second.items].map((w) => w.nick)).size).toBe(23)
    expect(second.aggregate).toMatchObject({ viewers: 23, watched_seconds: 3 * 90 + 20 * 30 })
  })
})
