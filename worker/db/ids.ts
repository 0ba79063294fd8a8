/** Rows of `table` in the realm with these ids, as a set. */
export async function existingIds(
  db: D1Database,
  table: 'tms_category' | 'tms_genre' | 'tms_assessed_skill' | 'room' | 'room_group' | 'tms_model' | 'asset' | 'persona',
  realm: string,
  ids: string[],
): Promise<Set<string>> {
  if (!ids.length) return new Set()
  const unique = [...new Set(ids)]
  const found = new Set<string>()
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < unique.length; i += 90) {
    const chunk = unique.slice(i, i + 90)
    const { results } = await db
      .prepare(`SELECT id FROM ${table} WHERE realm = ? AND id IN (${chunk.map(() => '?').join(', ')})`)
      .bind(realm, ...chunk)
      .all<{ id: string }>()
    for (const r of results) found.add(r.id)
  }
  return found
}
