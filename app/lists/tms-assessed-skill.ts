import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Skill } from '#shared/schemas/tms/skill'

/** Assessed skills (`tms/assessed_skills`). */
export const skillList: ListSpec<Skill> = {
  name: 'tms_assessed_skill',
  apiPath: 'tms/assessed_skill',
  route: 'tms.assessed_skills.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.tms_assessed_skill.fields.name', sorting: true },
    { id: 'type', label: 'resources.tms_assessed_skill.fields.type', sorting: true, width: 120, format: (v, _r, t) => t(`tms.skill_type.${String(v)}`) },
    { id: 'weight', label: 'resources.tms_assessed_skill.fields.weight', sorting: true, align: 'right', width: 100 },
    { id: 'group_id', label: 'resources.tms_assessed_skill.fields.group_id', width: 160 },
    { id: 'updated_at', label: 'resources.tms.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.tms_assessed_skill.fields.name' },
    {
      field: 'type',
      type: 'select',
      label: 'resources.tms_assessed_skill.fields.type',
      options: [
        { label: 'tms.skill_type.group', value: 'group' },
        { label: 'tms.skill_type.skill', value: 'skill' },
      ],
    },
  ],
}
export default skillList
