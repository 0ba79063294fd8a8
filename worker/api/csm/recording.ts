import { Hono } from 'hono'
import * as v from 'valibot'
import {
  RECORDING_MAX_MB,
  RECORDING_MIME_TYPES,
  RECORDING_PART_BYTES,
  RecordingPartIndex,
  RecordingPolicyQuery,
  RecordingStart,
  type RecordingPolicy,
  type RecordingRefusal,
  type RecordingState,
} from '#shared/schemas/csm-recording'
import { runBatch } from '../../db/batch'
import { liveChannelState } from '../../db/channel-live'
import {
  claimAssembly,
  completeRecordingStatements,
  endRecordingStatements,
  findRecordingPart,
  getRecording,
  insertRecordingPartStatement,
  insertRecordingStatements,
  insertUploadStatements,
  knownSessionCategories,
  listRecordingParts,
  recordingSettings,
  releaseAssemblyStatement,
  type RecordingRow,
  type RecordingTarget,
} from '../../db/csm-recording'
import { recordingStorage } from '../../db/csm-session'
import { liveRoomState } from '../../db/room-live'
import type { Auth } from '../../db/sessions'
import { ApiError, apiError } from '../../lib/errors'
import { accepts, guarded, guardedJson } from '../../lib/guard'
import { inspectVideo } from '../../lib/recording'
import { checkExtraFields } from '../../lib/extra-fields'
import { findChannel } from '../../db/channels'
import { findRoom } from '../../db/rooms'
import { SessionUpload } from '#shared/schemas/session'
import { readCapped } from '../../lib/stream'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/**
 * /csm/recording: recording a channel's or room's live session (issue 20 "Recording"). The recorder's browser
 * (app/components/live/recorder.tsx) composes the call and uploads it while recording:
 * - `GET /policy?target=&id=`: whether the caller records there — a channel's recorder (member permission) or
 *   moderator (owner, admin, operator; staff holding `sns_channel_edit`), a room's moderator (`room_room_edit`); the
 *   channel's `session_recording` mode or the room's `recording`; the realm's `csm_channel_enable`/`csm_room_enable`
 *   — and the realm's `csm_*` limits the recorder obeys.
 * - `POST /` `{ target, id, mime }`: starts one — an R2 multipart upload and the session it feeds (`csm_session`,
 *   status started) — refused with the policy's cause (403 `not_recorder`, 409 `not_recorded`, 409 `recording_disabled`).
 * - `PUT /{id}/part/{index}` (the part's bytes): stored once per index — a part sent again answers `stored: false`
 *   and is not uploaded again; parts arrive in any order. Every part but the last is `part_size` bytes.
 * - `POST /{id}/complete`: assembles the parts once (a second call answers the first one's result), validates the
 *   file on its own container (worker/lib/recording.ts); the session receives the video (status pending, video status
 *   processed) — or the file is refused with its cause and removed, nothing partial kept.
 * - `POST /{id}/abort`, `GET /{id}` (what was received, to resume). Only the recording's recorder calls these.
 */

type Access = { allowed: boolean; cause: RecordingRefusal | null; session: { title: string; owner: string; category_id: string | null } }

async function recordingAccess(db: D1Database, auth: Auth, target: RecordingTarget, id: string): Promise<Access & { settings: RecordingPolicy }> {
  const settings = await recordingSettings(db, auth.realm)
  if (!settings) throw apiError(404, 'not_found', 'No such realm.', 'realm', auth.realm)
  let access: Access
  if (target === 'channel') {
    const state = await liveChannelState(db, auth.realm, id)
    if (!state) throw apiError(404, 'not_found', 'channel.not_found', 'id', id)
    const permission = state.members[auth.nick]
    const recorder =
      ['owner', 'admin', 'operator', 'recorder'].includes(permission ?? '') || (permission !== 'banned' && auth.permissions.has('sns_channel_edit'))
    access = {
      allowed: false,
      cause: !recorder
        ? 'not_recorder'
        : state.channel.modes.session_recording !== true
          ? 'not_recorded'
          : !settings.csm_channel_enable
            ? 'recording_disabled'
            : null,
      session: { title: state.channel.name, owner: state.channel.owner, category_id: state.channel.category_id },
    }
  } else {
    const state = await liveRoomState(db, auth.realm, id)
    if (!state) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
    access = {
      allowed: false,
      cause: !auth.permissions.has('room_room_edit')
        ? 'not_recorder'
        : !state.room?.recording
          ? 'not_recorded'
          : !settings.csm_room_enable
            ? 'recording_disabled'
            : null,
      session: { title: state.channel.name, owner: state.channel.owner, category_id: state.channel.category_id },
    }
  }
  access.allowed = access.cause === null
  return {
    ...access,
    settings: {
      allowed: access.allowed,
      cause: access.cause,
      must_record: settings.csm_must_record === 1,
      max_duration: settings.csm_max_duration,
      max_idle_time: settings.csm_max_idle_time,
      part_size: RECORDING_PART_BYTES,
      mime_types: RECORDING_MIME_TYPES,
    },
  }
}

/**
 * Seed 002 §8 "No space to store the videos": a new recording is refused (422 `storage_full`, value the quota in MB)
 * when the realm has a storage quota (`csm_storage_quota_mb`) and what its recordings hold plus `declared` bytes (an
 * upload's size; a live recording's is unknown, so it needs the realm not to be full) would pass it.
 */
async function assertStorageRoom(db: D1Database, realm: string, declared: number, field: string): Promise<void> {
  const { quota_mb, used_bytes } = await recordingStorage(db, realm)
  const quota = quota_mb * 1024 * 1024
  if (quota > 0 && (declared > 0 ? used_bytes + declared > quota : used_bytes >= quota))
    throw apiError(422, 'storage_full', 'No space to store the videos.', field, quota_mb)
}

/** The caller's own recording, or 404 (another realm's, unknown) / 403 (someone else's). */
async function ownRecording(c: Ctx, auth: Auth): Promise<RecordingRow> {
  const id = pathParam(c, 'id')
  const rec = await getRecording(c.env.DB, auth.realm, id)
  if (!rec) throw apiError(404, 'not_found', 'No such recording.', 'id', id)
  if (rec.recorder !== auth.nick) throw apiError(403, 'not_recorder', 'Only the recording’s recorder sends it.', 'id', id)
  return rec
}

async function stateOf(db: D1Database, rec: RecordingRow): Promise<RecordingState> {
  const parts = rec.status === 'recording' || rec.status === 'assembling' ? await listRecordingParts(db, rec.id) : []
  return {
    id: rec.id,
    session_id: rec.session_id,
    status: rec.status,
    reason: rec.reason,
    part_size: rec.part_size,
    parts: parts.map((p) => p.idx),
    size: rec.size,
    duration_seconds: rec.duration_seconds,
    video_codec: rec.video_codec,
    audio_codec: rec.audio_codec,
  }
}

/** A refused recording answers its cause again (the message names it; the value is what validation found). */
function refusedError(rec: RecordingRow) {
  return apiError(422, rec.reason, `The recording was refused (${rec.reason}).`, 'file', null)
}

export const recording = new Hono<AppEnv>()
  /** GET /csm/recording/policy?target=&id=: whether the caller records this channel or room, and the realm's limits. */
  .get(
    '/policy',
    accepts<{ query: { target: string; id: string } }>()(
      guarded({}, async (c, auth) => {
        const q = parse(RecordingPolicyQuery, c.req.query())
        const { settings } = await recordingAccess(c.env.DB, auth, q.target, q.id)
        return c.json(settings)
      }),
    ),
  )
  /** POST /csm/recording: starts recording a live session: the R2 multipart upload and the session it feeds. */
  .post(
    '/',
    guardedJson({}, RecordingStart, async (c, auth, body) => {
      const db = c.env.DB
      const access = await recordingAccess(db, auth, body.target, body.id)
      if (access.cause === 'not_recorder') throw apiError(403, 'not_recorder', 'Only a recorder or a moderator records here.', 'id', body.id)
      if (access.cause === 'not_recorded') throw apiError(409, 'not_recorded', 'This channel or room does not record its sessions.', 'id', body.id)
      if (access.cause === 'recording_disabled') throw apiError(409, 'recording_disabled', 'The realm does not record these sessions.', 'target', body.target)
      await assertStorageRoom(db, auth.realm, 0, 'target')
      const id = crypto.randomUUID()
      const key = `recordings/${auth.realm}/${id}.${body.mime.includes('matroska') ? 'mkv' : 'webm'}`
      const upload = await c.env.FILES.createMultipartUpload(key, { httpMetadata: { contentType: body.mime.split(';')[0] } })
      const row = {
        id,
        realm: auth.realm,
        target: body.target,
        target_id: body.id,
        session_id: crypto.randomUUID(),
        recorder: auth.nick,
        r2_key: key,
        upload_id: upload.uploadId,
        part_size: RECORDING_PART_BYTES,
        mime: body.mime,
        started_at: new Date().toISOString(),
      }
      try {
        await runBatch(db, insertRecordingStatements(db, row, { ...access.session, topic: '' }))
      } catch (err) {
        await upload.abort().catch(() => undefined)
        throw err
      }
      return c.json({ id, session_id: row.session_id, part_size: row.part_size, status: 'recording' as const }, 201)
    }),
  )
  /**
   * POST /csm/recording/upload: session/create (issue 15) — a session made by hand (status created) in a channel or
   * room of the realm, and the R2 multipart upload of its recording; the file then goes through the parts and
   * completion below like a live recording's, validated as an upload (MP4/MOV or WebM/Matroska).
   */
  .post(
    '/upload',
    guardedJson({ all: ['csm_session_create'] }, SessionUpload, async (c, auth, body) => {
      const db = c.env.DB
      const place = body.target === 'channel' ? await findChannel(db, auth.realm, body.target_id) : await findRoom(db, auth.realm, body.target_id)
      if (!place) throw apiError(404, 'not_found', `No such ${body.target}.`, 'target_id', body.target_id)
      const known = await knownSessionCategories(db, auth.realm, body.category_ids)
      const unknown = body.category_ids.filter((id) => !known.has(id))
      if (unknown.length) throw apiError(422, 'category_not_found', 'No such session category.', 'category_ids', unknown)
      const extraErrors = await checkExtraFields(db, auth.realm, 'session', body.extra)
      if (extraErrors.length) throw new ApiError(422, extraErrors)
      await assertStorageRoom(db, auth.realm, body.size, 'size')
      const id = crypto.randomUUID()
      const ext = { 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm', 'video/x-matroska': 'mkv' }[body.mime]
      const key = `recordings/${auth.realm}/${id}.${ext}`
      const upload = await c.env.FILES.createMultipartUpload(key, { httpMetadata: { contentType: body.mime } })
      const row = {
        id,
        realm: auth.realm,
        target: body.target,
        target_id: body.target_id,
        session_id: crypto.randomUUID(),
        recorder: auth.nick,
        r2_key: key,
        upload_id: upload.uploadId,
        part_size: RECORDING_PART_BYTES,
        mime: body.mime,
        started_at: new Date().toISOString(),
        expected_size: body.size,
      }
      try {
        await runBatch(
          db,
          insertUploadStatements(db, row, { title: body.title, category_ids: body.category_ids, reference_date: body.reference_date, extras: body.extra }),
        )
      } catch (err) {
        await upload.abort().catch(() => undefined)
        throw err
      }
      return c.json({ id, session_id: row.session_id, part_size: row.part_size, status: 'recording' as const }, 201)
    }),
  )
  /** GET /csm/recording/{id}: the recording's state and the parts received (a resumed upload sends the others). */
  .get(
    '/:id',
    guarded({}, async (c, auth) => c.json(await stateOf(c.env.DB, await ownRecording(c, auth)))),
  )
  /** PUT /csm/recording/{id}/part/{index}: one part's bytes; an index already received is not stored again. */
  .put(
    '/:id/part/:index',
    guarded({}, async (c, auth) => {
      const index = parse(v.object({ index: RecordingPartIndex }), { index: pathParam(c, 'index') }).index
      const rec = await ownRecording(c, auth)
      if (rec.status !== 'recording') throw apiError(409, 'recording_closed', 'The recording takes no more parts.', 'id', rec.status)
      const known = await findRecordingPart(c.env.DB, rec.id, index)
      if (known) {
        await c.req.raw.body?.cancel()
        return c.json({ index, size: known.size, stored: false })
      }
      const tooLarge = () => apiError(422, 'part_too_large', `A part has at most ${rec.part_size} bytes.`, 'body', rec.part_size)
      const declared = Number(c.req.header('content-length') ?? '0')
      if (declared > rec.part_size) throw tooLarge()
      const bytes = await readCapped(c.req.raw.body, rec.part_size, tooLarge)
      if (!bytes.byteLength) throw apiError(400, 'empty_part', 'A part has at least one byte.', 'body', 0)
      if (rec.expected_size > 0 && (index - 1) * rec.part_size + bytes.byteLength > rec.expected_size) {
        throw apiError(422, 'upload_size', `The file has ${rec.expected_size} bytes.`, 'index', rec.expected_size)
      }
      if ((index - 1) * rec.part_size + bytes.byteLength > RECORDING_MAX_MB * 1024 * 1024) {
        throw apiError(422, 'too_large', `A recording has at most ${RECORDING_MAX_MB} MB.`, 'index', RECORDING_MAX_MB)
      }
      const uploaded = await c.env.FILES.resumeMultipartUpload(rec.r2_key, rec.upload_id).uploadPart(index, bytes)
      const [res] = await runBatch(c.env.DB, [insertRecordingPartStatement(c.env.DB, rec.id, { idx: index, etag: uploaded.etag, size: bytes.byteLength })])
      return c.json({ index, size: bytes.byteLength, stored: (res.meta.changes ?? 0) > 0 }, 201)
    }),
  )
  /**
   * POST /csm/recording/{id}/complete: assembles the parts once and validates the file; the session receives the
   * video. A second call answers the stored result; a refused file is removed and answered with its cause.
   */
  .post(
    '/:id/complete',
    guarded({}, async (c, auth) => {
      const db = c.env.DB
      const rec = await ownRecording(c, auth)
      const settled = async (r: RecordingRow) => {
        if (r.status === 'complete') return c.json({ ...(await stateOf(db, r)), assembled: false })
        if (r.status === 'refused') throw refusedError(r)
        if (r.status === 'aborted') throw apiError(409, 'recording_closed', 'The recording was aborted.', 'id', r.status)
        throw apiError(409, 'assembling', 'The recording is being assembled.', 'id', r.status)
      }
      if (rec.status !== 'recording') return settled(rec)
      const parts = await listRecordingParts(db, rec.id)
      // An upload's size is declared: every part it needs must be there (a live recording's last part ends it).
      const count = rec.expected_size > 0 ? Math.ceil(rec.expected_size / rec.part_size) : parts.length ? parts[parts.length - 1].idx : 0
      const have = new Set(parts.map((p) => p.idx))
      const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i))
      if (!count || missing.length) throw apiError(422, 'missing_parts', 'Parts are missing; send them, then complete.', 'parts', count ? missing : [1])
      const uneven = parts.slice(0, -1).filter((p) => p.size !== rec.part_size)
      if (uneven.length)
        throw apiError(
          422,
          'part_size',
          `Every part but the last has ${rec.part_size} bytes.`,
          'parts',
          uneven.map((p) => p.idx),
        )
      const received = parts.reduce((n, p) => n + p.size, 0)
      if (rec.expected_size > 0 && (parts.length !== count || received !== rec.expected_size))
        throw apiError(422, 'upload_size', `The parts hold ${received} bytes; the file has ${rec.expected_size}.`, 'parts', received)
      if (!(await claimAssembly(db, auth.realm, rec.id))) return settled((await getRecording(db, auth.realm, rec.id)) ?? rec)

      const bucket = c.env.FILES
      let size: number
      try {
        const object = await bucket.resumeMultipartUpload(rec.r2_key, rec.upload_id).complete(parts.map((p) => ({ partNumber: p.idx, etag: p.etag })))
        size = object.size
      } catch (err) {
        await runBatch(db, [releaseAssemblyStatement(db, auth.realm, rec.id)])
        throw err
      }
      // Only the headers are read back (ranges): a recording may be gigabytes.
      const read = async (offset: number, length: number) =>
        new Uint8Array(await ((await bucket.get(rec.r2_key, { range: { offset, length } }))?.arrayBuffer() ?? new ArrayBuffer(0)))
      const settings = await recordingSettings(db, auth.realm)
      const checked = await inspectVideo(read, size, rec.source === 'upload' ? 'upload' : 'live', settings?.csm_max_duration ?? 0)
      if ('cause' in checked) {
        await bucket.delete(rec.r2_key)
        await runBatch(db, endRecordingStatements(db, rec, 'refused', checked.cause, size))
        throw apiError(422, checked.cause, checked.message, 'file', checked.value)
      }
      await runBatch(db, completeRecordingStatements(db, rec, checked))
      const done = await getRecording(db, auth.realm, rec.id)
      return c.json({ ...(await stateOf(db, done ?? rec)), assembled: true })
    }),
  )
  /** POST /csm/recording/{id}/abort: gives up a recording still receiving parts (its parts are dropped). */
  .post(
    '/:id/abort',
    guarded({}, async (c, auth) => {
      const db = c.env.DB
      const rec = await ownRecording(c, auth)
      if (rec.status !== 'recording') throw apiError(409, 'recording_closed', 'Only a recording still receiving parts is aborted.', 'id', rec.status)
      await c.env.FILES.resumeMultipartUpload(rec.r2_key, rec.upload_id)
        .abort()
        .catch(() => undefined)
      await runBatch(db, endRecordingStatements(db, rec, 'aborted', 'aborted'))
      return c.json({ id: rec.id, status: 'aborted' as const })
    }),
  )
