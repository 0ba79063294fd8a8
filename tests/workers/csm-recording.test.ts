import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { RECORDING_MAX_MB, RECORDING_PART_BYTES } from '#shared/schemas/csm-recording'
import { signTicket } from '../../party/ticket'
import { abortAbandonedRecordings } from '../../worker/db/csm-recording'
import { lastClusterEnd, readWebmHead, webmSeconds } from '../../worker/lib/webm'
import { webmFixture } from '../support/webm'
import { realmWith, room } from './factories'
import { api, expectEnvelope, userWith } from './helpers'

/** Recording a live session (issue 20): the upload API over R2 multipart, validation, and the session it feeds. */

const STAFF = ['sns_channel_list', 'sns_channel_get', 'sns_channel_create', 'sns_channel_edit']
const SECRET = 'test-party-secret'
const MIME = 'video/webm;codecs=h264,opus'

type Realm = { code: string; host: string }
const recordingRealm = (values: Record<string, number> = {}) => realmWith({ csm_channel_enable: 1, csm_room_enable: 1, csm_max_duration: 600, ...values })

async function channel(realm: Realm, modes: Record<string, unknown>, members: { nick: string; permission: string }[] = []) {
  const staff = await userWith(realm.code, STAFF)
  const res = await api(realm.host, 'channel', {
    method: 'POST',
    token: staff.token,
    json: { name: `Rec ${crypto.randomUUID().slice(0, 8)}`, modes, members: [{ nick: staff.nick, permission: 'owner' }, ...members] },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return { id: ((await res.json()) as { id: string }).id, owner: staff }
}

/** A realm that records channels, a recorded channel and its recorder (member permission `recorder`). */
async function recordedChannel(values: Record<string, number> = {}) {
  const realm = await recordingRealm(values)
  const recorder = await userWith(realm.code, ['x_recorder'])
  const ch = await channel(realm, { session_recording: true }, [{ nick: recorder.nick, permission: 'recorder' }])
  return { realm, recorder, channel: ch }
}

const start = (realm: Realm, token: string, target: 'channel' | 'room', id: string, mime = MIME) =>
  api(realm.host, 'csm/recording', { method: 'POST', token, json: { target, id, mime } })

async function started(realm: Realm, token: string, target: 'channel' | 'room', id: string) {
  const res = await start(realm, token, target, id)
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string; session_id: string; part_size: number }
}

const put = (realm: Realm, token: string, id: string, index: number | string, bytes: Uint8Array) =>
  api(realm.host, `csm/recording/${id}/part/${index}`, {
    method: 'PUT',
    token,
    body: bytes.slice().buffer,
    headers: { 'content-type': 'application/octet-stream' },
  })
const complete = (realm: Realm, token: string, id: string) => api(realm.host, `csm/recording/${id}/complete`, { method: 'POST', token })

const session = (id: string) => env.DB.prepare('SELECT * FROM csm_session WHERE id = ?').bind(id).first<Record<string, unknown>>()
/** A large buffer compared by its digest (an element-wise comparison of megabytes exhausts the test's heap). */
const digest = async (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes).slice()))))
const partsOf = (file: Uint8Array) => {
  const out: Uint8Array[] = []
  for (let at = 0; at < file.byteLength; at += RECORDING_PART_BYTES) out.push(file.subarray(at, at + RECORDING_PART_BYTES))
  return out
}

describe('the WebM reader', () => {
  it("reads a recorder's file: doc type, codecs, and the duration from the clusters' timecodes", () => {
    const file = webmFixture({ seconds: 12 })
    const head = readWebmHead(file)
    expect(head).toMatchObject({ docType: 'webm', video: ['V_MPEG4/ISO/AVC'], audio: ['A_OPUS'], duration: null, firstCluster: 0 })
    expect(webmSeconds(head!, lastClusterEnd(file))).toBe(12)
    // The tail alone (the last cluster found by its ID, checked by its structure) gives the same end.
    expect(lastClusterEnd(file.subarray(file.byteLength - 200))).toBe(12_000)
    expect(readWebmHead(new TextEncoder().encode('not a webm file at all'))).toBeNull()
  })
})

describe('who records', () => {
  it("answers the policy: a channel's recorder and moderators record, others not; the channel's mode and the realm's switch decide", async () => {
    const { realm, recorder, channel: ch } = await recordedChannel({ csm_max_duration: 90, csm_max_idle_time: 30 })
    const policy = (token: string, target = 'channel', id = ch.id) => api(realm.host, `csm/recording/policy?target=${target}&id=${id}`, { token })
    expect(await (await policy(recorder.token)).json()).toMatchObject({
      allowed: true,
      cause: null,
      must_record: true,
      max_duration: 90,
      max_idle_time: 30,
      part_size: RECORDING_PART_BYTES,
    })
    expect(await (await policy(ch.owner.token)).json()).toMatchObject({ allowed: true })
    const participant = await userWith(realm.code, ['x_participant'])
    expect(await (await policy(participant.token)).json()).toMatchObject({ allowed: false, cause: 'not_recorder' })
    await expectEnvelope(await start(realm, participant.token, 'channel', ch.id), 403, 'not_recorder')

    const plain = await channel(realm, {}, [{ nick: recorder.nick, permission: 'recorder' }])
    expect(await (await policy(recorder.token, 'channel', plain.id)).json()).toMatchObject({ allowed: false, cause: 'not_recorded' })
    await expectEnvelope(await start(realm, recorder.token, 'channel', plain.id), 409, 'not_recorded')

    await env.DB.prepare('UPDATE realm SET csm_channel_enable = 0 WHERE code = ?').bind(realm.code).run()
    await expectEnvelope(await start(realm, recorder.token, 'channel', ch.id), 409, 'recording_disabled')
    await expectEnvelope(await policy(recorder.token, 'nothing'), 400, 'picklist')
    await expectEnvelope(await start(realm, recorder.token, 'channel', 'c-none'), 404, 'not_found')
    await expectEnvelope(await start(realm, ch.owner.token, 'channel', ch.id, 'text/html'), 400)
    const none = await env.DB.prepare('SELECT COUNT(*) AS n FROM csm_recording WHERE realm = ?').bind(realm.code).first<{ n: number }>()
    expect(none?.n).toBe(0)
  })

  it("records a recorded room for its moderators (room_room_edit) only; another realm's room is not found", async () => {
    const realm = await recordingRealm()
    const r = await room(realm.code)
    await env.DB.prepare('UPDATE room SET recording = 1 WHERE id = ?').bind(r.id).run()
    const editor = await userWith(realm.code, ['room_room_get', 'room_room_edit'])
    const reader = await userWith(realm.code, ['room_room_get'])
    await expectEnvelope(await start(realm, reader.token, 'room', r.id), 403, 'not_recorder')
    const rec = await started(realm, editor.token, 'room', r.id)
    expect(await session(rec.session_id)).toMatchObject({ realm: realm.code, recorded_in: 'room', status: 'started', video_status: 'no_video', title: r.name })
    const link = await env.DB.prepare('SELECT room_id FROM csm_session_room WHERE session_id = ?').bind(rec.session_id).first<{ room_id: string }>()
    expect(link?.room_id).toBe(r.id)

    const other = await recordingRealm()
    await expectEnvelope(await start(other, (await userWith(other.code, ['room_room_get', 'room_room_edit'])).token, 'room', r.id), 404, 'not_found')
  })
})

describe('uploading and assembling', () => {
  it('a recording of 10 seconds uploads and its session receives the video with its duration', async () => {
    const { realm, recorder, channel: ch } = await recordedChannel()
    const rec = await started(realm, recorder.token, 'channel', ch.id)
    expect(rec.part_size).toBe(RECORDING_PART_BYTES)
    expect(await session(rec.session_id)).toMatchObject({ channel_id: ch.id, recorded_in: 'live', status: 'started', video_status: 'no_video' })

    const file = webmFixture({ seconds: 10 })
    const res = await put(realm, recorder.token, rec.id, 1, file)
    expect(res.status, await res.clone().text()).toBe(201)
    expect(await res.json()).toEqual({ index: 1, size: file.byteLength, stored: true })
    const done = await complete(realm, recorder.token, rec.id)
    expect(done.status, await done.clone().text()).toBe(200)
    expect(await done.json()).toMatchObject({
      status: 'complete',
      assembled: true,
      size: file.byteLength,
      duration_seconds: 10,
      video_codec: 'avc',
      audio_codec: 'opus',
    })
    expect(await session(rec.session_id)).toMatchObject({ status: 'pending', video_status: 'processed' })
    const stored = await env.FILES.get(`recordings/${realm.code}/${rec.id}.webm`)
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(file)
  })

  it('parts arrive out of order and one twice: each index is stored once and the file is assembled once', async () => {
    const { realm, recorder, channel: ch } = await recordedChannel()
    const rec = await started(realm, recorder.token, 'channel', ch.id)
    const file = webmFixture({ seconds: 30, padTo: 2 * RECORDING_PART_BYTES + 1234 })
    const [p1, p2, p3] = partsOf(file)
    expect(p3.byteLength).toBe(1234)
    expect((await put(realm, recorder.token, rec.id, 3, p3)).status).toBe(201)
    expect((await put(realm, recorder.token, rec.id, 1, p1)).status).toBe(201)
    // A part sent again (its answer was lost) is not stored again.
    const again = await put(realm, recorder.token, rec.id, 1, p1)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ index: 1, size: RECORDING_PART_BYTES, stored: false })
    // Completing with a gap names the missing part; nothing is assembled.
    const gap = await expectEnvelope(await complete(realm, recorder.token, rec.id), 422, 'missing_parts')
    expect(gap.errors[0].value).toEqual([2])
    const state = (await (await api(realm.host, `csm/recording/${rec.id}`, { token: recorder.token })).json()) as { parts: number[]; status: string }
    expect(state).toMatchObject({ status: 'recording', parts: [1, 3] })

    expect((await put(realm, recorder.token, rec.id, 2, p2)).status).toBe(201)
    const rows = await env.DB.prepare('SELECT idx, size FROM csm_recording_part WHERE recording_id = ? ORDER BY idx').bind(rec.id).all()
    expect(rows.results).toEqual([
      { idx: 1, size: RECORDING_PART_BYTES },
      { idx: 2, size: RECORDING_PART_BYTES },
      { idx: 3, size: 1234 },
    ])
    const first = await complete(realm, recorder.token, rec.id)
    expect(first.status, await first.clone().text()).toBe(200)
    expect(await first.json()).toMatchObject({ assembled: true, size: file.byteLength, duration_seconds: 30 })
    // Completed again (a retried call): the stored result, not a second assembly.
    expect(await (await complete(realm, recorder.token, rec.id)).json()).toMatchObject({ assembled: false, status: 'complete', size: file.byteLength })
    const object = await env.FILES.get(`recordings/${realm.code}/${rec.id}.webm`)
    expect(await digest(await object!.arrayBuffer())).toBe(await digest(file))
    // A completed recording takes no more parts.
    await expectEnvelope(await put(realm, recorder.token, rec.id, 4, p3), 409, 'recording_closed')
  })

  it("refuses another recorder's recording, another realm's, a bad index and an oversized part", async () => {
    const { realm, recorder, channel: ch } = await recordedChannel()
    const rec = await started(realm, recorder.token, 'channel', ch.id)
    const bytes = new Uint8Array(10)
    await expectEnvelope(await put(realm, ch.owner.token, rec.id, 1, bytes), 403, 'not_recorder')
    await expectEnvelope(await complete(realm, ch.owner.token, rec.id), 403, 'not_recorder')
    const other = await recordingRealm()
    await expectEnvelope(await put(other, (await userWith(other.code, ['x_other'])).token, rec.id, 1, bytes), 404, 'not_found')
    await expectEnvelope(await put(realm, recorder.token, 'no-such-recording', 1, bytes), 404, 'not_found')
    await expectEnvelope(await put(realm, recorder.token, rec.id, 0, bytes), 400)
    await expectEnvelope(await put(realm, recorder.token, rec.id, 'x', bytes), 400)
    await expectEnvelope(await put(realm, recorder.token, rec.id, 1, new Uint8Array(0)), 400, 'empty_part')
    await expectEnvelope(await put(realm, recorder.token, rec.id, 1, new Uint8Array(RECORDING_PART_BYTES + 1)), 422, 'part_too_large')
    // Past the largest recording: refused before anything is stored.
    const past = Math.ceil((RECORDING_MAX_MB * 1024 * 1024) / RECORDING_PART_BYTES) + 1
    await expectEnvelope(await put(realm, recorder.token, rec.id, past, bytes), 422, 'too_large')
    const parts = await env.DB.prepare('SELECT COUNT(*) AS n FROM csm_recording_part WHERE recording_id = ?').bind(rec.id).first<{ n: number }>()
    expect(parts?.n).toBe(0)
  })
})

describe('validation of the assembled file', () => {
  const refused = async (values: Record<string, number>, file: Uint8Array, cause: string) => {
    const { realm, recorder, channel: ch } = await recordedChannel(values)
    const rec = await started(realm, recorder.token, 'channel', ch.id)
    expect((await put(realm, recorder.token, rec.id, 1, file)).status).toBe(201)
    await expectEnvelope(await complete(realm, recorder.token, rec.id), 422, cause)
    // Removed from storage; the session keeps no video; asked again, the same refusal.
    expect(await env.FILES.head(`recordings/${realm.code}/${rec.id}.webm`)).toBeNull()
    expect(await session(rec.session_id)).toMatchObject({ video_status: 'no_video' })
    expect(await env.DB.prepare('SELECT status, reason FROM csm_recording WHERE id = ?').bind(rec.id).first()).toEqual({ status: 'refused', reason: cause })
    await expectEnvelope(await complete(realm, recorder.token, rec.id), 422, cause)
  }

  it("refuses a recording longer than the realm's max_duration", () => refused({ csm_max_duration: 20 }, webmFixture({ seconds: 30 }), 'too_long'))
  it('refuses a video codec outside seed 002 §5 (VP8)', () => refused({}, webmFixture({ video: 'V_VP8' }), 'video_codec'))
  it('refuses an unsupported audio codec (Vorbis)', () => refused({}, webmFixture({ audio: 'A_VORBIS' }), 'audio_codec'))
  it('refuses a file that is not WebM or Matroska', () => refused({}, new TextEncoder().encode('<html>not a video</html>'), 'not_webm'))
})

describe('the call’s metrics from the party', () => {
  it("the party's hand-over fills the recording's session instead of a second row, once", async () => {
    const { realm, recorder, channel: ch } = await recordedChannel()
    const rec = await started(realm, recorder.token, 'channel', ch.id)
    expect((await put(realm, recorder.token, rec.id, 1, webmFixture({ seconds: 10 }))).status).toBe(201)
    expect((await complete(realm, recorder.token, rec.id)).status).toBe(200)
    const startedAt = Date.now() - 120_000
    const ended = {
      id: crypto.randomUUID(),
      topic: 'Frações',
      started_at: startedAt,
      ended_at: Date.now(),
      ended_by: ch.owner.nick,
      peak_participants: 3,
      live_durations: { [recorder.nick]: 100 },
      chat_count: 5,
      attachment_count: 1,
      hand_raise_count: 2,
    }
    const headers = { 'x-party-ticket': await signTicket(SECRET, { party: 'channel-api', room: ch.id, realm: realm.code, nick: 'party', name: 'party' }) }
    const handOver = () => api(realm.host, `channel/live/${ch.id}/session`, { method: 'POST', headers, json: ended })
    expect(await (await handOver()).json()).toEqual({ id: ended.id, stored: true })
    expect(await (await handOver()).json()).toEqual({ id: ended.id, stored: false })
    const rows = await env.DB.prepare('SELECT id, status, video_status, chat_count, live_seconds, channel_topic FROM csm_session WHERE realm = ?')
      .bind(realm.code)
      .all()
    expect(rows.results).toEqual([
      { id: rec.session_id, status: 'pending', video_status: 'processed', chat_count: 5, live_seconds: 120, channel_topic: 'Frações' },
    ])
    // The console's list shows the session with its video's duration.
    const list = (await (await api(realm.host, `channel/live/${ch.id}/session`, { token: ch.owner.token })).json()) as { items: Record<string, unknown>[] }
    expect(list.items).toEqual([expect.objectContaining({ id: rec.session_id, video_status: 'processed', video_seconds: 10 })])
  })
})

describe('abort and abandoned recordings', () => {
  it('an aborted recording takes no more parts; an abandoned one is aborted by the hourly cleanup', async () => {
    const { realm, recorder, channel: ch } = await recordedChannel()
    const a = await started(realm, recorder.token, 'channel', ch.id)
    expect((await api(realm.host, `csm/recording/${a.id}/abort`, { method: 'POST', token: recorder.token })).status).toBe(200)
    await expectEnvelope(await put(realm, recorder.token, a.id, 1, new Uint8Array(4)), 409, 'recording_closed')
    await expectEnvelope(await complete(realm, recorder.token, a.id), 409, 'recording_closed')

    const b = await started(realm, recorder.token, 'channel', ch.id)
    expect((await put(realm, recorder.token, b.id, 1, new Uint8Array(8))).status).toBe(201)
    expect(await abortAbandonedRecordings(env)).toBe(0)
    const later = new Date(Date.now() + 7 * 3600_000)
    expect(await abortAbandonedRecordings(env, later)).toBeGreaterThanOrEqual(1)
    expect(await env.DB.prepare('SELECT status, reason FROM csm_recording WHERE id = ?').bind(b.id).first()).toEqual({ status: 'aborted', reason: 'abandoned' })
  })
})
