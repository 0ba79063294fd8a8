import type { FieldSpec } from '~/lib/form-fields'
import type { ListPage } from '#shared/schemas/common'
import type { Category } from '#shared/schemas/tms/category'
import type { Skill } from '#shared/schemas/tms/skill'
import type { RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'

/** Fields of the task-category and assessed-skill forms (seed 001 §3), declared once for screen and action. */
const flags = ['selectable', 'enabled', 'required', 'multi_selection', 'embed', 'show_in_navigation', 'show_in_filter', 'show_in_list'] as const

export const categoryFields = (parents: { value: string; label: string }[] = []): FieldSpec[] => [
  { name: 'name', label: 'resources.tms_category.fields.name', kind: 'text', required: true },
  { name: 'parent_id', label: 'resources.tms_category.fields.parent_id', kind: 'select', nullable: true, options: parents, hint: 'tms.category.parent_hint' },
  ...flags.map((f): FieldSpec => ({ name: f, label: `resources.tms_category.fields.${f}`, kind: 'checkbox' })),
]

export const skillFields = (groups: { value: string; label: string }[] = []): FieldSpec[] => [
  { name: 'name', label: 'resources.tms_assessed_skill.fields.name', kind: 'text', required: true },
  {
    name: 'type',
    label: 'resources.tms_assessed_skill.fields.type',
    kind: 'select',
    options: [
      { value: 'skill', label: 'tms.skill_type.skill' },
      { value: 'group', label: 'tms.skill_type.group' },
    ],
  },
  { name: 'weight', label: 'resources.tms_assessed_skill.fields.weight', kind: 'number', step: '0.01', min: 0, max: 100 },
  { name: 'group_id', label: 'resources.tms_assessed_skill.fields.group_id', kind: 'select', nullable: true, options: groups },
  { name: 'description', label: 'resources.tms_assessed_skill.fields.description', kind: 'textarea' },
]

/** Top-level categories (parents of values), when the user may list categories. */
export async function categoryParents(api: RealmApi, user: SessionUser, self?: string) {
  if (!user.permissions.tms_category_list) return []
  const page = await api.get<ListPage<Category>>('tms/category', { limit: 1000 })
  return page.items.filter((c) => !c.parent_id && c.id !== self).map((c) => ({ value: c.id, label: c.name }))
}

/** Skill groups, when the user may list skills. */
export async function skillGroups(api: RealmApi, user: SessionUser) {
  if (!user.permissions.tms_assessed_skill_list) return []
  const page = await api.get<ListPage<Skill>>('tms/assessed_skill', { type: 'group', limit: 1000 })
  return page.items.map((s) => ({ value: s.id, label: s.name }))
}
