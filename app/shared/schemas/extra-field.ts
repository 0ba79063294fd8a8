import * as v from 'valibot'
import { defineEntity } from './entity'

/** Entities that can carry extra fields (seed 002 §3 "Extra field … per entity"); users enforce them now. */
export const EXTRA_FIELD_ENTITIES = ['user', 'task', 'lesson', 'room', 'channel', 'session'] as const
export type ExtraFieldEntity = (typeof EXTRA_FIELD_ENTITIES)[number]

export type ExtraField = {
  id: string
  realm: string
  entity: ExtraFieldEntity
  /** Identification key: where the value lives in the entity's `extra` map. */
  key: string
  label: string
  required: boolean
  active: boolean
  /** Shown in the external preview (task_external_preview_url) of the entity. */
  external_preview: boolean
  position: number
  created_at: string
  updated_at: string
}

export const ExtraFieldKey = v.pipe(v.string('validation.required'), v.trim(), v.toLowerCase(), v.regex(/^[a-z][a-z0-9_]{0,39}$/, 'validation.extra_key'))

const common = {
  label: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(120, 'validation.max_length')),
  required: v.boolean('validation.boolean'),
  active: v.boolean('validation.boolean'),
  external_preview: v.boolean('validation.boolean'),
  position: v.pipe(
    v.number('validation.number'),
    v.integer('validation.integer'),
    v.minValue(0, 'validation.min_value'),
    v.maxValue(1000, 'validation.max_value'),
  ),
}

/** POST /mas/extra_field: entity and key are fixed once created. */
export const ExtraFieldCreate = v.object({
  entity: v.picklist(EXTRA_FIELD_ENTITIES, 'validation.picklist'),
  key: ExtraFieldKey,
  label: common.label,
  required: v.optional(common.required, false),
  active: v.optional(common.active, true),
  external_preview: v.optional(common.external_preview, false),
  position: v.optional(common.position, 0),
})
/** PUT /mas/extra_field/{id}. */
export const ExtraFieldUpdate = v.partial(v.object(common))

export const extraFieldEntity = defineEntity<ExtraField>({
  name: 'extra_field',
  table: 'extra_field',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    entity: { type: 'text', sort: true, list: true, filter: 'eq' },
    key: { type: 'text', search: true, sort: true, list: true },
    label: { type: 'text', search: true, sort: true, list: true },
    required: { type: 'bool', list: true, filter: 'eq' },
    active: { type: 'bool', list: true, filter: 'eq' },
    external_preview: { type: 'bool', list: true, filter: 'eq' },
    position: { type: 'int', sort: true, list: true },
    created_at: { type: 'text', sort: true },
    updated_at: { type: 'text', sort: true, list: true },
  },
  defaultOrder: 'position',
})
