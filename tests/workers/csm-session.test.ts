import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import type { SessionItem } from '#shared/schemas/session'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'
import { csmSession, room } from './factories'
import type { SessionDetail } from '#shared/schemas/session'

/** The sessions list and read (issue 15): filters, realm scoping and permissions (GET /api/csm/session). */

const list = async (token: string, query: Record<string, string>, host = DEMO) => {
  const res = await api(host, `/csm/session?${new URLSearchParams({ limit: '100', ...query })}`, { token })
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`)
  return (await res.json()) as ListPage<SessionItem>
}
const ids = (page: ListPage<SessionItem>) => page.items.map((s) => s.id).sort()

describe('sessions list', () => {
  it('filters by channel, room, category, status, video status, owner and reference date, with the names of channel and room', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const { token } = await userWith('demo', ['csm_session_list'])
    const r = await room('demo', { name: `Sala ${tag}` })
    const a = await csmSession('demo', {
      title: `A ${tag}`,
      channel: `ch-${tag}`,
      owner: `ana-${tag}`,
      categories: [`cat-${tag}`],
      reference_date: '2026-03-10',
      status: 'pending',
      video_status: 'processed',
    })
    const b = await csmSession('demo', {
      title: `B ${tag}`,
      room: r.id,
      owner: `bia-${tag}`,
      categories: [`cat-${tag}`, `other-${tag}`],
      reference_date: '2026-03-12',
      status: 'published',
      video_status: 'complete',
    })
    const c = await csmSession('demo', { title: `C ${tag}`, channel: `ch-${tag}`, owner: `bia-${tag}`, reference_date: '2026-04-01' })

    expect(ids(await list(token, { like: tag }))).toEqual([a.id, b.id, c.id].sort())
    expect(ids(await list(token, { channel_id: `ch-${tag}` }))).toEqual([a.id, c.id].sort())
    const inRoom = await list(token, { room_id: r.id })
    expect(ids(inRoom)).toEqual([b.id])
    expect(inRoom.items[0]).toMatchObject({ room_id: r.id, room_name: `Sala ${tag}`, recorded_in: 'room', category_ids: [`cat-${tag}`, `other-${tag}`] })
    expect(ids(await list(token, { category_id: `cat-${tag}` }))).toEqual([a.id, b.id].sort())
    expect(ids(await list(token, { category_id: `other-${tag}` }))).toEqual([b.id])
    expect(ids(await list(token, { like: tag, status: 'pending' }))).toEqual([a.id])
    expect(ids(await list(token, { like: tag, video_status: 'complete' }))).toEqual([b.id])
    expect(ids(await list(token, { owner: `bia-${tag}` }))).toEqual([b.id, c.id].sort())
    // Reference dates are days, both ends included.
    expect(ids(await list(token, { like: tag, reference_date_from: '2026-03-10', reference_date_to: '2026-03-12' }))).toEqual([a.id, b.id].sort())
    expect(ids(await list(token, { like: tag, reference_date_from: '2026-03-11' }))).toEqual([b.id, c.id].sort())
    expect(ids(await list(token, { like: tag, reference_date_to: '2026-03-10' }))).toEqual([a.id])
    // Newest reference date first by default.
    expect((await list(token, { like: tag })).items.map((s) => s.id)).toEqual([c.id, b.id, a.id])
    // Filters combine.
    expect(ids(await list(token, { owner: `bia-${tag}`, channel_id: `ch-${tag}` }))).toEqual([c.id])
  })

  it('refuses malformed filters with the envelope', async () => {
    const { token } = await userWith('demo', ['csm_session_list'])
    await expectEnvelope(await api(DEMO, '/csm/session?reference_date_from=10/03/2026', { token }), 400)
    await expectEnvelope(await api(DEMO, `/csm/session?room_id=${'x'.repeat(65)}`, { token }), 400)
    await expectEnvelope(await api(DEMO, '/csm/session?order=ended_by', { token }), 400)
  })

  it('keeps each realm to its own sessions', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const mine = await csmSession('demo', { title: `Mine ${tag}`, channel: `ch-${tag}` })
    const theirs = await csmSession('escola', { title: `Theirs ${tag}`, channel: `ch-${tag}` })
    const demo = await userWith('demo', ['csm_session_list', 'csm_session_get'])
    const escola = await userWith('escola', ['csm_session_list', 'csm_session_get'])
    expect(ids(await list(demo.token, { channel_id: `ch-${tag}` }))).toEqual([mine.id])
    expect(ids(await list(escola.token, { channel_id: `ch-${tag}` }, ESCOLA))).toEqual([theirs.id])
    expect((await api(DEMO, `/csm/session/${mine.id}`, { token: demo.token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, `/csm/session/${theirs.id}`, { token: demo.token }), 404, 'not_found')
    await expectEnvelope(await api(ESCOLA, `/csm/session/${mine.id}`, { token: escola.token }), 404, 'not_found')
  })

  it('answers 403 without csm_session_list (list) or csm_session_get (read), and writes nothing', async () => {
    const s = await csmSession('demo')
    const { token } = await userWith('demo', ['csm_category_list'])
    await expectEnvelope(await api(DEMO, '/csm/session', { token }), 403)
    await expectEnvelope(await api(DEMO, `/csm/session/${s.id}`, { token }), 403)
    const reader = await userWith('demo', ['csm_session_list', 'csm_session_get'])
    // The list is read-only: no create, change or delete through it.
    expect((await api(DEMO, '/csm/session', { method: 'POST', token: reader.token, json: { title: 'x' } })).status).toBe(404)
    expect((await api(DEMO, `/csm/session/${s.id}`, { method: 'DELETE', token: reader.token })).status).toBe(404)
    expect((await api(DEMO, `/csm/session/${s.id}`, { token: reader.token })).status).toBe(200)
  })

  it("answers one session with its room, category names, metrics and its recording's video", async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const { token } = await userWith('demo', ['csm_session_get', 'csm_category_create'])
    const r = await room('demo', { name: `Sala ${tag}` })
    const cat = (await (await api(DEMO, '/csm/category', { method: 'POST', token, json: { name: `Aulas ${tag}` } })).json()) as { id: string }
    const s = await csmSession('demo', {
      room: r.id,
      categories: [cat.id, 'gone'],
      status: 'pending',
      video_status: 'processed',
      live_seconds: 95,
      live_durations: { ana: 90, bia: 40 },
      chat_count: 7,
      hand_raise_count: 2,
      video: { duration_seconds: 93.5, size: 3_145_728, video_codec: 'V_MPEG4/ISO/AVC', audio_codec: 'A_OPUS' },
    })
    const res = await api(DEMO, `/csm/session/${s.id}`, { token })
    expect(res.status).toBe(200)
    const body = (await res.json()) as SessionDetail
    expect(body).toMatchObject({
      id: s.id,
      status: 'pending',
      video_status: 'processed',
      room_id: r.id,
      room_name: `Sala ${tag}`,
      channel_name: null,
      categories: [
        { id: cat.id, name: `Aulas ${tag}` },
        { id: 'gone', name: null },
      ],
      live_seconds: 95,
      live_durations: { ana: 90, bia: 40 },
      chat_count: 7,
      hand_raise_count: 2,
      video: { status: 'complete', duration_seconds: 93.5, size: 3_145_728, video_codec: 'V_MPEG4/ISO/AVC', audio_codec: 'A_OPUS', reason: '' },
    })
    // A session without a recording has no video.
    const bare = await csmSession('demo')
    expect(((await (await api(DEMO, `/csm/session/${bare.id}`, { token })).json()) as SessionDetail).video).toBeNull()
  })
})
