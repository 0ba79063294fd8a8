/** The track form's values before validation: tags typed comma-separated, items as a list. */
export function prepareTrack(values: Record<string, unknown>): Record<string, unknown> {
  const tags =
    typeof values.tags === 'string'
      ? values.tags
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : (values.tags ?? [])
  const items = values.items === undefined ? [] : Array.isArray(values.items) ? values.items : [values.items]
  return { ...values, tags, items }
}
