import type { ErrorLog } from '#shared/schemas/technical'

/** One unexpected server error as stored (realm '' for requests outside any realm); the id is the table's. */
export type ErrorLogRow = Omit<ErrorLog, 'id'>

/** Stores an error and drops those recorded before `dropBefore`, in one batch. */
export async function storeErrorLog(db: D1Database, row: ErrorLogRow, dropBefore: string): Promise<void> {
  await db.batch([
    db
      .prepare('INSERT INTO error_log (realm, at, request_id, method, path, actor, message, stack) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(row.realm, row.at, row.request_id, row.method, row.path, row.actor, row.message, row.stack),
    db.prepare('DELETE FROM error_log WHERE at < ?').bind(dropBefore),
  ])
}
