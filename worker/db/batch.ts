/**
 * Runs statements built by worker/db functions as one atomic D1 batch (all or none). Handlers compose a change from
 * several table families (the change, its audit record, the sessions it ends) and commit it here; the SQL itself stays
 * in the worker/db modules that built each statement.
 */
export function runBatch(db: D1Database, statements: D1PreparedStatement[]): Promise<D1Result[]> {
  return db.batch(statements)
}
