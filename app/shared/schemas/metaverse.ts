import * as v from 'valibot'
import { UrlWithDefaultScheme } from './common'
import { defineEntity } from './entity'
import { HostName } from './realm-settings'
import { Email } from './user'

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

export const metaverseRoomEntity = defineEntity<MetaverseRoom>({
  name: 'metaverse_room',
  table: 'metaverse_room',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    description: { type: 'text', search: true, list: true },
    host: { type: 'text', search: true, sort: true, list: true, filter: 'eq' },
    scene_url: { type: 'text', list: true },
    capacity: { type: 'int', sort: true, list: true },
    enabled: { type: 'bool', sort: true, list: true, filter: 'eq' },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true },
  },
  defaultOrder: 'name',
})

/** PUT /room/metaverse/token/generate: both a host and an e-mail are needed (seed 002 §5). */
export const MetaverseTokenRequest = v.object({
  host: HostName,
  email: v.pipe(Email, v.minLength(1, 'validation.required')),
})

/** Answer of the token call: `token` is two base64url parts, the claims and their HMAC-SHA256 (seed 000 §5). */
export interface MetaverseToken {
  token: string
  expires_at: string
  host: string
  email: string
}
