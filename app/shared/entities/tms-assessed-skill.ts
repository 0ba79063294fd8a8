import * as v from 'valibot'
import type { Stamped } from '../schemas/entity'
import { Description, Id, Name, fieldPath } from '../schemas/tms/common'
import { STAMPS, definePlainEntity } from './define'

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

const TYPES = [
  { value: 'skill', label: 'tms.skill_type.skill' },
  { value: 'group', label: 'tms.skill_type.group' },
]

export const skillEntity = definePlainEntity<Skill>({
  name: 'tms_assessed_skill',
  table: 'tms_assessed_skill',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: SkillInput,
  permission: 'tms_assessed_skill',
  api: 'tms/assessed_skill',
  route: { id: 'tms.assessed_skills', path: '/tms/assessed_skills', param: 'skillId', unsaved: true },
  labelField: 'name',
  saved: 'tms.saved',
  inUse: 'skill',
  fields: {
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    type: {
      type: 'text',
      sort: true,
      list: true,
      filter: 'eq',
      searchBar: true,
      column: { width: 120, format: 'option' },
      form: { kind: 'select', options: TYPES },
    },
    weight: { type: 'real', sort: true, list: true, column: { align: 'right', width: 100 }, form: { kind: 'number', step: '0.01', min: 0, max: 100 } },
    group_id: {
      type: 'text',
      list: true,
      filter: 'eq',
      column: { width: 160 },
      form: {
        kind: 'select',
        nullable: true,
        optionsFrom: { api: 'tms/assessed_skill', query: { type: 'group' }, value: 'id', label: 'name', permission: 'tms_assessed_skill_list' },
      },
    },
    description: { type: 'text', search: true, list: true, form: { kind: 'textarea' } },
    ...STAMPS,
  },
  defaultOrder: 'name',
})
export default skillEntity
