import type { FieldSpec } from '~/lib/form-fields'

/** Fields of the task-category form (seed 001 §3), declared once for screen and action. */
const flags = ['selectable', 'enabled', 'required', 'multi_selection', 'embed', 'show_in_navigation', 'show_in_filter', 'show_in_list'] as const

export const categoryFields = (parents: { value: string; label: string }[] = []): FieldSpec[] => [
  { name: 'name', label: 'resources.tms_category.fields.name', kind: 'text', required: true },
  { name: 'parent_id', label: 'resources.tms_category.fields.parent_id', kind: 'select', nullable: true, options: parents, hint: 'tms.category.parent_hint' },
  ...flags.map((f): FieldSpec => ({ name: f, label: `resources.tms_category.fields.${f}`, kind: 'checkbox' })),
]
