import type { FieldSpec } from '~/lib/form-fields'
import { apiData, type RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'

/** Fields of the task-category form (seed 001 §3), declared once for screen and action. */
const flags = ['selectable', 'enabled', 'required', 'multi_selection', 'embed', 'show_in_navigation', 'show_in_filter', 'show_in_list'] as const

export const categoryFields = (parents: { value: string; label: string }[] = []): FieldSpec[] => [
  { name: 'name', label: 'resources.tms_category.fields.name', kind: 'text', required: true },
  { name: 'parent_id', label: 'resources.tms_category.fields.parent_id', kind: 'select', nullable: true, options: parents, hint: 'tms.category.parent_hint' },
  ...flags.map((f): FieldSpec => ({ name: f, label: `resources.tms_category.fields.${f}`, kind: 'checkbox' })),
]

/** Top-level categories (parents of values), when the user may list categories. */
export async function categoryParents(api: RealmApi, user: SessionUser, self?: string) {
  if (!user.permissions.tms_category_list) return []
  const page = await apiData(api.tms.category.$get({ query: { limit: 1000 } }))
  return page.items.filter((c) => !c.parent_id && c.id !== self).map((c) => ({ value: c.id, label: c.name }))
}
