import type { FieldSpec } from '~/lib/form-fields'
import { GOAL_PERIODS } from '#shared/schemas/achievement'
/** The goal forms' values before validation (browser and action alike). */
const asList = (x: unknown) => (x === undefined ? [] : Array.isArray(x) ? x : [x])

/** Checkbox groups post one value as a string and none as nothing: always a list. */
export function prepareGoal(values: Record<string, unknown>): Record<string, unknown> {
  return {
    ...values,
    objective_ids: asList(values.objective_ids),
    activity_categories: asList(values.activity_categories),
    question_categories: asList(values.question_categories),
    awards: asList(values.awards).map((a) => ({ ...(a as object), progress: asList((a as { progress?: unknown }).progress) })),
  }
}

/** The publication form's fields: targets (`room:id`, `group:id`), days typed in the page's language, recurrence. */
export function publishFields(targets: { value: string; label: string }[], periods: { value: string; label: string }[]): FieldSpec[] {
  return [
    { name: 'targets', label: 'achievement.field.targets', kind: 'checkboxes', options: targets },
    { name: 'start_date', label: 'achievement.field.start_date', kind: 'date', required: true },
    { name: 'end_date', label: 'achievement.field.end_date', kind: 'date', required: true },
    { name: 'recurrent', label: 'achievement.field.recurrent', kind: 'checkbox' },
    { name: 'period', label: 'achievement.field.period', kind: 'select', options: periods },
  ]
}

export const periodOptions = GOAL_PERIODS.map((p) => ({ value: p, label: `achievement.period.${p}` }))

export function preparePublish(values: Record<string, unknown>): Record<string, unknown> {
  const targets = asList(values.targets).map((t) => {
    const [kind, id] = String(t).split(':')
    return { kind, id }
  })
  return { ...values, targets }
}
