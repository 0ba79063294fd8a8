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

export function preparePublish(values: Record<string, unknown>): Record<string, unknown> {
  const targets = asList(values.targets).map((t) => {
    const [kind, id] = String(t).split(':')
    return { kind, id }
  })
  return { ...values, targets }
}
