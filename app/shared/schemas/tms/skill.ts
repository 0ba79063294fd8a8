import * as v from 'valibot'
import { STAMP_FIELDS, type Stamped, defineEntity } from '../entity'
import { Description, Id, Name, fieldPath } from './common'

/** Assessed skill (seed 001 §3): a group, or a skill (optionally inside a group) with a weight. */
export const SkillInput = v.pipe(
  v.object({
    name: Name(2, 120),
    type: v.optional(v.picklist(['group', 'skill'], 'validation.picklist'), 'skill'),
    weight: v.optional(
      v.pipe(v.number('validation.number'), v.finite('validation.number'), v.minValue(0, 'validation.min_value'), v.maxValue(100, 'validation.max_value')),
      1,
    ),
    group_id: v.optional(v.nullable(Id), null),
    description: v.optional(Description(1000), ''),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.type === 'group' && dataset.value.group_id)
      addIssue({ message: 'validation.tms.group_in_group', path: fieldPath(dataset.value, 'group_id') })
  }),
)
export type SkillInput = v.InferOutput<typeof SkillInput>
export type Skill = SkillInput & Stamped

export const skillEntity = defineEntity<Skill>({
  name: 'tms_assessed_skill',
  table: 'tms_assessed_skill',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    ...STAMP_FIELDS,
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    type: { type: 'text', sort: true, list: true, filter: 'eq' },
    weight: { type: 'real', sort: true, list: true },
    group_id: { type: 'text', list: true, filter: 'eq' },
    description: { type: 'text', search: true, list: true },
  },
  defaultOrder: 'name',
})
