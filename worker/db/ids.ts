/** Rows of `table` in the realm with these ids, as a set. */
export async function existingIds(
  db: D1Database,
  table: 'tms_category' | 'tms_genre' | 'tms_assessed_skill' | 'room' | 'room_group' | 'tms_model' | 'asset' | 'persona',
  realm: string,
  ids: string[],
): Promise<Set<string>> {
  if (!ids.length) return new Set()
  return new Set((await rowsWhereIn<{ id: string }>(db, `SELECT id FROM ${table}`, 'id', realm, [...new Set(ids)])).map((r) => r.id))
}

/** The rows `select` answers for the realm's rows whose `column` is one of `ids` (in chunks: D1 binds at most 100 parameters per statement). */
export async function rowsWhereIn<T>(db: D1Database, select: string, column: string, realm: string, ids: string[]): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90)
    const { results } = await db
      .prepare(`${select} WHERE realm = ? AND ${column} IN (${chunk.map(() => '?').join(', ')})`)
      .bind(realm, ...chunk)
      .all<T>()
    out.push(...results)
  }
  return out
}
