/** A statement as SQL text and its parameters: what crosses to the paying wallet's object (a prepared statement cannot). */
export interface RawStatement {
  sql: string
  params: unknown[]
}

/**
 * The statements `build` makes, as SQL and parameters: the statement builders of this folder take a database and only
 * call `prepare(sql)` and `bind(...params)` on it, so a database that records those calls gives their text.
 */
export function recordStatements(build: (db: D1Database) => D1PreparedStatement[]): RawStatement[] {
  const recorder = { prepare: (sql: string) => ({ sql, params: [], bind: (...params: unknown[]) => ({ sql, params }) }) }
  return (build(recorder as unknown as D1Database) as unknown as RawStatement[]).map(({ sql, params }) => ({ sql, params }))
}

/** Runs recorded statements as ONE batch (one D1 transaction: all or nothing). */
export function runStatements(db: D1Database, statements: RawStatement[]): Promise<D1Result[]> {
  return db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)))
}
