import * as v from 'valibot'
import { CalendarDay } from './common'
import { defineEntity } from './entity'
import { RECORDING_MAX_MB, UPLOAD_MIME_TYPES } from './csm-recording'
import { ExtraValues } from './user'

/** Seed 002 §3 session statuses and video statuses (the csm_session CHECKs, migration 0034). */
export const SESSION_STATUSES = ['created', 'started', 'pending', 'published', 'finished', 'rerecord', 'unpublished'] as const
export const VIDEO_STATUSES = ['processed', 'complete', 'partial', 'no_video', 'unavailable'] as const
/** Where a session was recorded: a channel's live session, a console room's, or uploaded by hand (session/create). */
export const RECORDED_IN = ['live', 'room', 'upload'] as const

/** A session (seed 002 §3 "Session (recording)") as the sessions list and detail read it (issue 15). */
export type Session = {
  id: string
  realm: string
  title: string
  owner: string
  channel_id: string
  channel_topic: string
  category_ids: string[]
  reference_date: string
  recorded_in: string
  extras: Record<string, unknown>
  status: (typeof SESSION_STATUSES)[number]
  video_status: (typeof VIDEO_STATUSES)[number]
  started_at: string
  ended_at: string
  ended_by: string
  live_seconds: number
  live_durations: Record<string, number>
  peak_participants: number
  chat_count: number
  attachment_count: number
  hand_raise_count: number
  created_at: string
}

/**
 * The sessions list (`GET /api/csm/session`): channel, owner, status, video status and where it was recorded are the
 * descriptor's filters; the room, a category and the reference-date range are read by worker/db/csm-session.ts
 * (SessionListFilter), since they are not plain column comparisons.
 */
export const sessionEntity = defineEntity<Session>({
  name: 'csm_session',
  table: 'csm_session',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    title: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    owner: { type: 'text', list: true, filter: 'eq' },
    channel_id: { type: 'text', list: true, filter: 'eq' },
    channel_topic: { type: 'text', list: true },
    category_ids: { type: 'json', list: true },
    reference_date: { type: 'text', sort: true, list: true },
    recorded_in: { type: 'text', list: true, filter: 'eq' },
    extras: { type: 'json' },
    status: { type: 'text', list: true, filter: 'eq' },
    video_status: { type: 'text', list: true, filter: 'eq' },
    started_at: { type: 'text', sort: true, list: true },
    ended_at: { type: 'text', list: true },
    ended_by: { type: 'text' },
    live_seconds: { type: 'int', sort: true, list: true },
    live_durations: { type: 'json' },
    peak_participants: { type: 'int', list: true },
    chat_count: { type: 'int', list: true },
    attachment_count: { type: 'int', list: true },
    hand_raise_count: { type: 'int', list: true },
    created_at: { type: 'text' },
  },
  defaultOrder: '-reference_date',
})

const Id = v.pipe(v.string(), v.trim(), v.maxLength(64, 'validation.max_length'))
const Day = v.union([v.literal(''), v.pipe(v.string(), v.isoDate('validation.day'))], 'validation.day')

/** The sessions list's filters beyond the descriptor's: room, a category among the session's, reference dates. */
export const SessionListFilter = v.object({
  room_id: v.optional(Id, ''),
  category_id: v.optional(Id, ''),
  reference_date_from: v.optional(Day, ''),
  reference_date_to: v.optional(Day, ''),
})
export type SessionListFilter = v.InferOutput<typeof SessionListFilter>

/** A list item: the session with its channel's and room's names (computed by the list). */
export type SessionItem = Session & { channel_name: string | null; room_id: string | null; room_name: string | null }

/** The detail (`GET /api/csm/session/{id}`): the list item's names, the categories' names and the recording's video. */
export type SessionDetail = SessionItem & {
  categories: { id: string; name: string | null }[]
  video: { status: string; duration_seconds: number; size: number; video_codec: string; audio_codec: string; reason: string } | null
}

/** A session's own fields, as session/create and session/edit take them. */
const Title = v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(200, 'validation.max_length'))
const CategoryIds = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.regex(/^[\w-]{1,64}$/, 'validation.id'))),
  v.maxLength(20, 'validation.max_items'),
  v.check((ids) => new Set(ids).size === ids.length, 'validation.duplicate'),
)
const ReferenceDate = CalendarDay('validation.required')

/**
 * `POST /api/csm/recording/upload` (session/create, issue 15): a session made by hand around a recording uploaded to
 * it — its metadata, where it belongs (a channel or a room of the realm), and the file's declared type and size (the
 * upload then goes through the recording's parts; the file is validated on its own container once complete).
 */
export const SessionUpload = v.object({
  title: Title,
  target: v.picklist(['channel', 'room'] as const, 'validation.picklist'),
  target_id: v.pipe(v.string('validation.required'), v.trim(), v.regex(/^[\w-]{1,64}$/, 'validation.required')),
  category_ids: v.optional(CategoryIds, []),
  reference_date: ReferenceDate,
  extra: v.optional(ExtraValues, {}),
  mime: v.picklist(UPLOAD_MIME_TYPES, 'validation.csm.upload_type'),
  size: v.pipe(
    v.number('validation.integer'),
    v.integer('validation.integer'),
    v.minValue(1, 'validation.csm.upload_empty'),
    v.maxValue(RECORDING_MAX_MB * 1024 * 1024, 'validation.csm.upload_size'),
  ),
})
export type SessionUpload = v.InferOutput<typeof SessionUpload>

/**
 * `PUT /api/csm/session/{id}` (session/edit, issue 15): the session's title, categories, reference date and extra
 * fields (the realm's extra fields of sessions, checked as session/create checks them). Each is optional: only the
 * fields sent change; `extra`, when sent, is the whole set of values.
 */
export const SessionEdit = v.object({
  title: v.optional(Title),
  category_ids: v.optional(CategoryIds),
  reference_date: v.optional(ReferenceDate),
  extra: v.optional(ExtraValues),
})
export type SessionEdit = v.InferOutput<typeof SessionEdit>

/** A rerecord's justification (seed 002 §4: required), kept in the audit record. */
export const SESSION_JUSTIFICATION_MAX = 1000
export const SessionRerecord = v.object({
  justification: v.pipe(
    v.string('validation.required'),
    v.trim(),
    v.minLength(1, 'validation.required'),
    v.maxLength(SESSION_JUSTIFICATION_MAX, 'validation.max_length'),
  ),
})
export type SessionRerecord = v.InferOutput<typeof SessionRerecord>

/**
 * The lifecycle moves of a session (issue 15, seed 002 §3–§4), from which statuses each is allowed:
 * - publish: a session whose video is there (`video_status` processed, complete or partial) waiting for publication
 *   (pending), unpublished, or finished;
 * - unpublish: a published one;
 * - rerecord: any session whose live part is over (pending, published, unpublished, finished) — not one still being
 *   created or recorded (created, started), nor one already waiting for its re-recording (rerecord).
 */
export const SESSION_MOVES = {
  publish: ['pending', 'unpublished', 'finished'],
  unpublish: ['published'],
  rerecord: ['pending', 'published', 'unpublished', 'finished'],
} as const satisfies Record<string, readonly (typeof SESSION_STATUSES)[number][]>
export type SessionMove = keyof typeof SESSION_MOVES
/** The video statuses a session can be published with (there is a file to watch). */
export const PUBLISHABLE_VIDEO: readonly string[] = ['processed', 'complete', 'partial']

/** Whether `move` is allowed for a session in this status with this video status. */
export function sessionMoveAllowed(move: SessionMove, s: { status: string; video_status: string }): boolean {
  return (SESSION_MOVES[move] as readonly string[]).includes(s.status) && (move !== 'publish' || PUBLISHABLE_VIDEO.includes(s.video_status))
}
