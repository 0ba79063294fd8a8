import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { INTRO_MAX_KBPS, INTRO_MAX_SECONDS, RECORDING_MAX_KBPS, RECORDING_PART_BYTES } from '#shared/schemas/csm-recording'
import { mp4AudioCodec, mp4VideoCodec } from '../../worker/lib/mp4'
import { inspectVideo, type VideoProfile } from '../../worker/lib/recording'
import { mp4Fixture, type Mp4Options } from '../support/mp4'
import { webmFixture } from '../support/webm'
import { realmWith, room } from './factories'
import { api, expectEnvelope, userWith } from './helpers'

/**
 * session/create (issue 15): a session made by hand around an uploaded recording — MP4/MOV validated on its own boxes
 * (worker/lib/mp4.ts, mp4box), WebM on its EBML header — the resumable upload over the recording API's parts, and a
 * refused file removed with its session.
 */

type Realm = { code: string; host: string }

/** Inspects a file held in memory, counting the bytes read (a recording is never read whole). */
async function inspect(file: Uint8Array, profile: VideoProfile, maxDuration = 0) {
  let read = 0
  const result = await inspectVideo(
    async (offset, length) => {
      read += Math.min(length, file.byteLength - offset)
      return file.subarray(offset, offset + length)
    },
    file.byteLength,
    profile,
    maxDuration,
  )
  return { result, read }
}
const mp4 = (o: Partial<Mp4Options> = {}) => mp4Fixture({ tracks: ['avc', 'aac'], seconds: 10, ...o })

describe('validating an uploaded file on its own container', () => {
  it('accepts H.264 + AAC in MP4 (moov after mdat) and HEVC + HE-AAC in MOV, reading only the box headers and the moov', async () => {
    const big = mp4({ mdatBytes: 3 * 1024 * 1024, seconds: 60 })
    const { result, read } = await inspect(big, 'upload')
    expect(result).toEqual({ size: big.byteLength, duration_seconds: 60, video_codec: 'avc', audio_codec: 'mp4a.40.2' })
    expect(read).toBeLessThan(4096)
    const mov = mp4Fixture({ tracks: ['hevc', 'he-aac'], seconds: 4.5, quicktime: true, moovFirst: true })
    expect((await inspect(mov, 'upload')).result).toEqual({ size: mov.byteLength, duration_seconds: 4.5, video_codec: 'hevc', audio_codec: 'mp4a.40.5' })
    // A video without audio is a valid recording; AC-3 and Opus are supported audio codecs.
    expect((await inspect(mp4({ tracks: ['avc'] }), 'upload')).result).toMatchObject({ video_codec: 'avc', audio_codec: '' })
    expect((await inspect(mp4({ tracks: ['avc', 'ac3'] }), 'upload')).result).toMatchObject({ audio_codec: 'ac3' })
    expect((await inspect(mp4({ tracks: ['hevc', 'opus'] }), 'upload')).result).toMatchObject({ video_codec: 'hevc', audio_codec: 'opus' })
  })

  it('refuses an unsupported video codec, a file that is no video, an excessive bitrate and a duration over the realm limit', async () => {
    expect((await inspect(mp4({ tracks: ['vp08', 'aac'] }), 'upload')).result).toMatchObject({ cause: 'video_codec', value: ['vp08.00.10.08'] })
    expect((await inspect(mp4({ tracks: ['aac'] }), 'upload')).result).toMatchObject({ cause: 'video_codec', value: [] })
    expect((await inspect(new TextEncoder().encode('just some text, not a video at all'), 'upload')).result).toMatchObject({ cause: 'not_video' })
    // 1 MiB over one second is ~8,389 kbps.
    expect((await inspect(mp4({ seconds: 1, mdatBytes: 1024 * 1024 }), 'upload')).result).toMatchObject({ cause: 'bitrate', value: RECORDING_MAX_KBPS })
    expect((await inspect(mp4({ seconds: 61 }), 'upload', 60)).result).toMatchObject({ cause: 'too_long', value: 60 })
    expect((await inspect(mp4({ seconds: 60 }), 'upload', 60)).result).toMatchObject({ duration_seconds: 60 })
    // A live recording is WebM only: an MP4 sent by the browser recorder is refused as before.
    expect((await inspect(mp4(), 'live')).result).toMatchObject({ cause: 'not_webm' })
    // WebM uploads are read as the recorder's are.
    expect((await inspect(webmFixture({ seconds: 7 }), 'upload')).result).toMatchObject({ duration_seconds: 7, video_codec: 'avc', audio_codec: 'opus' })
  })

  it('holds an intro video to both tracks and the max_intro limits', async () => {
    expect((await inspect(mp4({ tracks: ['avc'] }), 'intro')).result).toMatchObject({ cause: 'no_audio' })
    expect((await inspect(mp4({ tracks: ['aac'] }), 'intro')).result).toMatchObject({ cause: 'no_video' })
    expect((await inspect(mp4({ tracks: ['vp08', 'aac'] }), 'intro')).result).toMatchObject({ cause: 'video_codec' })
    expect((await inspect(mp4({ seconds: INTRO_MAX_SECONDS + 1 }), 'intro')).result).toMatchObject({ cause: 'too_long', value: INTRO_MAX_SECONDS })
    // 800 KiB over one second (~6,550 kbps) passes for a recording, not for an intro.
    const dense = mp4({ seconds: 1, mdatBytes: 800 * 1024 })
    expect((await inspect(dense, 'intro')).result).toMatchObject({ cause: 'bitrate', value: INTRO_MAX_KBPS })
    expect((await inspect(dense, 'upload')).result).toMatchObject({ video_codec: 'avc' })
    expect((await inspect(mp4(), 'intro')).result).toMatchObject({ video_codec: 'avc', audio_codec: 'mp4a.40.2' })
  })

  it("names codecs as the seed does, from the sample entries' codec strings", () => {
    expect(['avc1.64001f', 'avc3.42c01e', 'hvc1.1.6.L93.90', 'hev1.2.4.L120.B0', 'vp09.00.10.08', 'av01.0.04M.08'].map(mp4VideoCodec)).toEqual([
      'avc',
      'avc',
      'hevc',
      'hevc',
      null,
      null,
    ])
    expect(['mp4a.40.2', 'mp4a.40.5', 'mp4a.40.29', 'mp4a.6B', 'Opus', 'ac-3', 'ec-3', 'fLaC', 'alac'].map(mp4AudioCodec)).toEqual([
      'mp4a.40.2',
      'mp4a.40.5',
      'aac',
      'mp3',
      'opus',
      'ac3',
      'eac3',
      null,
      null,
    ])
  })
})

const CREATE = ['csm_session_create', 'csm_session_get']

async function category(realm: string) {
  const id = `cat-${crypto.randomUUID().slice(0, 8)}`
  const at = new Date().toISOString()
  await env.DB.prepare('INSERT INTO csm_category (id, realm, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(id, realm, `Cat ${id}`, at, at).run()
  return id
}

const startUpload = (realm: Realm, token: string, json: Record<string, unknown>) => api(realm.host, 'csm/recording/upload', { method: 'POST', token, json })
const put = (realm: Realm, token: string, id: string, index: number, bytes: Uint8Array) =>
  api(realm.host, `csm/recording/${id}/part/${index}`, {
    method: 'PUT',
    token,
    body: bytes.slice().buffer,
    headers: { 'content-type': 'application/octet-stream' },
  })
const complete = (realm: Realm, token: string, id: string) => api(realm.host, `csm/recording/${id}/complete`, { method: 'POST', token })
const sessionRow = (id: string) => env.DB.prepare('SELECT * FROM csm_session WHERE id = ?').bind(id).first<Record<string, unknown>>()

async function setup() {
  const realm = await realmWith({ csm_max_duration: 3600 })
  const staff = await userWith(realm.code, CREATE)
  const place = await room(realm.code)
  return { realm, staff, place }
}

describe('session/create: the hand-made session and its resumable upload', () => {
  it('uploads an MP4 in parts, interrupted and resumed, and the session gets its video (pending, processed)', async () => {
    const { realm, staff, place } = await setup()
    const cat = await category(realm.code)
    // Two parts: 5 MiB and the rest; 60 s keeps the bitrate under the limit.
    const file = mp4({ seconds: 60, mdatBytes: RECORDING_PART_BYTES + 200 * 1024 })
    const res = await startUpload(realm, staff.token, {
      title: 'Aula gravada',
      target: 'room',
      target_id: place.id,
      category_ids: [cat],
      reference_date: '2026-03-02',
      mime: 'video/mp4',
      size: file.byteLength,
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const up = (await res.json()) as { id: string; session_id: string; part_size: number }
    expect(up.part_size).toBe(RECORDING_PART_BYTES)
    expect(await sessionRow(up.session_id)).toMatchObject({
      status: 'created',
      video_status: 'no_video',
      recorded_in: 'upload',
      title: 'Aula gravada',
      owner: staff.nick,
    })

    // The first part arrives; the connection drops before the second.
    expect((await put(realm, staff.token, up.id, 1, file.subarray(0, RECORDING_PART_BYTES))).status).toBe(201)
    expect(await expectEnvelope(await complete(realm, staff.token, up.id), 422, 'missing_parts')).toBeTruthy()
    // Resuming (after a reload): the state names what the server holds; part 1 sent again is not stored twice.
    const state = (await (await api(realm.host, `csm/recording/${up.id}`, { token: staff.token })).json()) as { status: string; parts: number[] }
    expect(state).toMatchObject({ status: 'recording', parts: [1] })
    expect(await (await put(realm, staff.token, up.id, 1, file.subarray(0, RECORDING_PART_BYTES))).json()).toMatchObject({ stored: false })
    // Bytes past the declared size are refused.
    await expectEnvelope(await put(realm, staff.token, up.id, 3, new Uint8Array(10)), 422, 'upload_size')
    expect((await put(realm, staff.token, up.id, 2, file.subarray(RECORDING_PART_BYTES))).status).toBe(201)

    const done = await complete(realm, staff.token, up.id)
    expect(done.status, await done.clone().text()).toBe(200)
    expect(await done.json()).toMatchObject({ status: 'complete', size: file.byteLength, duration_seconds: 60, video_codec: 'avc', audio_codec: 'mp4a.40.2' })
    expect(await sessionRow(up.session_id)).toMatchObject({
      status: 'pending',
      video_status: 'processed',
      reference_date: '2026-03-02',
      category_ids: JSON.stringify([cat]),
    })
    const stored = await env.FILES.get(`recordings/${realm.code}/${up.id}.mp4`)
    expect(stored?.size).toBe(file.byteLength)
    await stored?.body.cancel()
    // The detail answers it with its room and video.
    const detail = (await (await api(realm.host, `csm/session/${up.session_id}`, { token: staff.token })).json()) as Record<string, unknown>
    expect(detail).toMatchObject({ room_id: place.id, recorded_in: 'upload', video: { status: 'complete', video_codec: 'avc', duration_seconds: 60 } })
  })

  it('refuses a file with an unsupported codec with its reason, and removes the file and the session', async () => {
    const { realm, staff, place } = await setup()
    const file = mp4({ tracks: ['vp08', 'aac'] })
    const up = (await (
      await startUpload(realm, staff.token, {
        title: 'VP8',
        target: 'room',
        target_id: place.id,
        reference_date: '2026-03-02',
        mime: 'video/mp4',
        size: file.byteLength,
      })
    ).json()) as { id: string; session_id: string }
    expect((await put(realm, staff.token, up.id, 1, file)).status).toBe(201)
    const envelope = await expectEnvelope(await complete(realm, staff.token, up.id), 422, 'video_codec')
    expect(envelope.errors[0]).toMatchObject({ field: 'file', value: ['vp08.00.10.08'] })
    expect(await env.FILES.head(`recordings/${realm.code}/${up.id}.mp4`)).toBeNull()
    expect(await sessionRow(up.session_id)).toBeNull()
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM csm_session_room WHERE session_id = ?').bind(up.session_id).first('n')).toBe(0)
    // Completing again answers the same reason; the state says refused.
    await expectEnvelope(await complete(realm, staff.token, up.id), 422, 'video_codec')
    expect(await (await api(realm.host, `csm/recording/${up.id}`, { token: staff.token })).json()).toMatchObject({ status: 'refused', reason: 'video_codec' })
  })

  it('an aborted upload leaves no session behind', async () => {
    const { realm, staff, place } = await setup()
    const up = (await (
      await startUpload(realm, staff.token, {
        title: 'Gave up',
        target: 'room',
        target_id: place.id,
        reference_date: '2026-03-02',
        mime: 'video/quicktime',
        size: 5000,
      })
    ).json()) as { id: string; session_id: string }
    expect((await api(realm.host, `csm/recording/${up.id}/abort`, { method: 'POST', token: staff.token })).status).toBe(200)
    expect(await sessionRow(up.session_id)).toBeNull()
  })

  it('needs csm_session_create, a channel or room of the realm, known categories and valid input; refusals change nothing', async () => {
    const { realm, staff, place } = await setup()
    const other = await setup()
    const good = { title: 'Aula', target: 'room', target_id: place.id, reference_date: '2026-03-02', mime: 'video/mp4', size: 1000 }
    const count = () => env.DB.prepare('SELECT COUNT(*) AS n FROM csm_session WHERE realm = ?').bind(realm.code).first<number>('n')
    const before = await count()
    const reader = await userWith(realm.code, ['csm_session_list', 'csm_session_get'])
    await expectEnvelope(await startUpload(realm, reader.token, good), 403)
    await expectEnvelope(await startUpload(realm, staff.token, { ...good, target_id: other.place.id }), 404, 'not_found')
    await expectEnvelope(await startUpload(realm, staff.token, { ...good, target: 'channel', target_id: 'nope' }), 404, 'not_found')
    await expectEnvelope(await startUpload(realm, staff.token, { ...good, category_ids: [await category(other.realm.code)] }), 422, 'category_not_found')
    await expectEnvelope(await startUpload(realm, staff.token, { ...good, extra: { unknown_key: 'x' } }), 422, 'unknown_field')
    for (const bad of [
      { ...good, title: 'A' },
      { ...good, mime: 'video/ogg' },
      { ...good, size: 0 },
      { ...good, size: 3 * 1024 * 1024 * 1024 },
      { ...good, reference_date: '2026-02-30' },
      { ...good, target: 'planet' },
    ]) {
      const res = await startUpload(realm, staff.token, bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
    }
    expect(await count()).toBe(before)
  })
})
