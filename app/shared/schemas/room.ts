import * as v from 'valibot'
import { defineEntity } from './entity'
import { Id, Instant, fieldPath } from './tms/common'
import { ExtraValues } from './user'

/**
 * Rooms (seed 002 §3 "Room": name, topic, session recording, category, type lecture or meeting, activity window
 * enable_at < disable_at, breakout rooms, cards), with members and room groups (a room's "group": named lists of
 * rooms tasks are published to). Breakouts are rooms whose `parent_id` names a top-level room (one level; created
 * and closed from the parent, `POST /room/room/{id}/breakout`, `POST /room/room/{id}/close`).
 */
export const ROOM_TYPES = ['lecture', 'meeting'] as const
export const ROOM_CARDS_MAX = 50

export const RoomName = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.minLength(2, 'validation.min_length'),
  v.maxLength(60, 'validation.max_length'),
  v.regex(/^[^/\\?#%]+$/, 'validation.room.name'),
)

export const RoomInput = v.pipe(
  v.object({
    name: RoomName,
    topic: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
    type: v.optional(v.picklist(ROOM_TYPES, 'validation.picklist'), 'lecture'),
    enable_at: v.optional(v.nullable(Instant), null),
    disable_at: v.optional(v.nullable(Instant), null),
    /** Sessions of the room are recorded (seed 002 §3 "session recording"; the realm's csm `room_enable` governs the recorder). */
    recording: v.optional(v.boolean('validation.boolean'), false),
    /** A room category of the realm (the tree of `room/category`), or none. */
    category_id: v.optional(v.nullable(Id), null),
    /**
     * The track (`achievement/track`) the room follows, or null (issue 19: at most one). Left out, an update keeps
     * the room's track (a form that does not show it never clears it); a create stores null.
     */
    track_id: v.optional(v.nullable(Id)),
    /** The room's cards (ids of `room/card`), in the order shown; at most 50, no repeats. */
    cards: v.optional(
      v.pipe(
        v.array(Id),
        v.maxLength(ROOM_CARDS_MAX, 'validation.max_items'),
        v.check((ids) => new Set(ids).size === ids.length, 'validation.room.card_duplicate'),
      ),
      [],
    ),
    /** Values of the realm's extra fields of rooms, by key (required ones are checked by the API). */
    extra: v.optional(ExtraValues, {}),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const r = dataset.value
    if (r.enable_at && r.disable_at && r.disable_at <= r.enable_at)
      addIssue({ message: 'validation.room.disable_before_enable', path: fieldPath(r, 'disable_at') })
  }),
)
export type RoomInput = v.InferOutput<typeof RoomInput>
export type Room = Omit<RoomInput, 'track_id'> & {
  id: string
  /** The track the room follows, or null. */
  track_id: string | null
  realm: string
  /** The parent room of a breakout; null for a top-level room. */
  parent_id: string | null
  /** When the room was closed (a closed parent's breakouts are closed with it); null while open. */
  closed_at: string | null
  /** The category's name, in list answers only. */
  category_name?: string | null
  member_count: number
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

export const roomEntity = defineEntity<Omit<Room, 'category_name'>>({
  name: 'room',
  table: 'room',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    topic: { type: 'text', search: true, list: true },
    type: { type: 'text', sort: true, list: true, filter: 'eq' },
    enable_at: { type: 'text', sort: true, list: true, nullable: true },
    disable_at: { type: 'text', sort: true, list: true, nullable: true },
    recording: { type: 'bool', list: true },
    category_id: { type: 'text', list: true, filter: 'eq', nullable: true },
    track_id: { type: 'text', list: true, nullable: true },
    parent_id: { type: 'text', list: true, filter: 'eq', nullable: true },
    closed_at: { type: 'text', list: true, nullable: true },
    cards: { type: 'json', list: true },
    member_count: { type: 'int', sort: true, list: true },
    extra: { type: 'json' },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    created_by: { type: 'text', list: true },
    updated_at: { type: 'text', sort: true },
    updated_by: { type: 'text' },
  },
  defaultOrder: 'name',
})

export const RoomMemberInput = v.object({
  nick: v.pipe(v.string('validation.required'), v.trim(), v.toLowerCase(), v.minLength(2, 'validation.min_length'), v.maxLength(120, 'validation.max_length')),
})
export interface RoomMember {
  room_id: string
  nick: string
  name: string
  added_at: string
  added_by: string
}

/** A named group of rooms (publication to room groups). */
export const RoomGroupInput = v.object({
  name: v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(80, 'validation.max_length')),
  rooms: v.pipe(
    v.array(Id),
    v.minLength(1, 'validation.room.group_rooms'),
    v.maxLength(200, 'validation.max_items'),
    v.check((ids) => new Set(ids).size === ids.length, 'validation.room.group_duplicate'),
  ),
})
export type RoomGroupInput = v.InferOutput<typeof RoomGroupInput>
export type RoomGroup = RoomGroupInput & { id: string; realm: string; created_at: string; created_by: string; updated_at: string; updated_by: string }

export const roomGroupEntity = defineEntity<RoomGroup>({
  name: 'room_group',
  table: 'room_group',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    rooms: { type: 'json', list: true },
    created_at: { type: 'text', sort: true, list: true },
    created_by: { type: 'text', list: true },
    updated_at: { type: 'text', sort: true },
    updated_by: { type: 'text' },
  },
  defaultOrder: 'name',
})

/** A breakout room created from its parent's screen: its name (the rest is copied from the parent). */
export const BreakoutInput = v.object({ name: RoomName })
export type BreakoutInput = v.InferOutput<typeof BreakoutInput>
