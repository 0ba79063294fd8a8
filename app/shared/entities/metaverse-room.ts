import * as v from 'valibot'
import { UrlWithDefaultScheme } from '../schemas/common'
import { HostName } from '../schemas/realm-settings'
import { definePlainEntity } from './define'

/** A metaverse room of a realm (seed 002 §3: edited inside the realm). */
export type MetaverseRoom = {
  id: string
  realm: string
  name: string
  description: string
  /** Host of the metaverse server that runs the room. */
  host: string
  scene_url: string
  capacity: number
  enabled: boolean
  created_at: string
  updated_at: string
}

const fields = {
  name: v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(120, 'validation.max_length')),
  description: v.pipe(v.string(), v.trim(), v.maxLength(1000, 'validation.max_length')),
  host: v.union([v.literal(''), HostName], 'validation.host'),
  scene_url: UrlWithDefaultScheme,
  capacity: v.pipe(
    v.number('validation.number'),
    v.integer('validation.integer'),
    v.minValue(1, 'validation.min_value'),
    v.maxValue(10_000, 'validation.max_value'),
  ),
  enabled: v.boolean('validation.boolean'),
}

export const MetaverseRoomCreate = v.object({
  name: fields.name,
  description: v.optional(fields.description, ''),
  host: v.optional(fields.host, ''),
  scene_url: v.optional(fields.scene_url, ''),
  capacity: v.optional(fields.capacity, 50),
  enabled: v.optional(fields.enabled, true),
})
export const MetaverseRoomUpdate = v.partial(v.object(fields))

export const metaverseRoomEntity = definePlainEntity<MetaverseRoom>({
  name: 'metaverse_room',
  table: 'metaverse_room',
  key: 'id',
  realmColumn: 'realm',
  input: MetaverseRoomCreate,
  permission: 'mas_metaverse_room',
  api: 'mas/realm/{realm}/metaverse_room',
  // Served under the realms the caller administers (worker/api/mas/realm.ts), not by the generic CRUD.
  ownApi: true,
  route: { id: 'metaverse', path: '/metaverse', param: 'metaverse_room_id', unsaved: true },
  // The list is its own screen (app/routes/_console+/metaverse+/_index.tsx): it also generates access tokens.
  screens: ['create', 'edit'],
  labelField: 'name',
  saved: 'resources.metaverse_room.saved',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', form: { kind: 'text', required: true } },
    description: { type: 'text', search: true, list: true, form: { kind: 'text' } },
    host: { type: 'text', search: true, sort: true, list: true, filter: 'eq', form: { kind: 'text', hint: 'resources.metaverse_room.hints.host' } },
    scene_url: { type: 'text', list: true, form: { kind: 'text', hint: 'resources.realm.hints.url' } },
    capacity: { type: 'int', sort: true, list: true, form: { kind: 'number', min: 1, max: 10_000 } },
    enabled: { type: 'bool', sort: true, list: true, filter: 'eq', form: { kind: 'checkbox' } },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true },
  },
  defaultOrder: 'name',
})
export default metaverseRoomEntity
