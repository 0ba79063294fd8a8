/**
 * A D1 binding that records every round trip (one per first/all/run/raw, one per batch) with its SQL, over the
 * real database, so a test can count what a page or an endpoint asks of D1.
 */
export interface D1Log {
  /** One entry per round trip: the SQL, or `batch: <sql> | <sql> …`. */
  trips: string[]
}

export function countingD1(db: D1Database, log: D1Log): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>()
  const sqlOf = new WeakMap<object, string>()
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const trip =
      <T>(run: () => Promise<T>) =>
      () => {
        log.trips.push(sql)
        return run()
      }
    const w = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql),
      first: (col?: string) => trip(() => (col === undefined ? stmt.first() : stmt.first(col)))(),
      all: () => trip(() => stmt.all())(),
      run: () => trip(() => stmt.run())(),
      raw: (opts?: { columnNames?: boolean }) => trip(() => stmt.raw(opts as { columnNames: true }))(),
    } as unknown as D1PreparedStatement
    real.set(w, stmt)
    sqlOf.set(w, sql)
    return w
  }
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrap(target.prepare(sql), sql)
      if (prop === 'batch') {
        return (stmts: D1PreparedStatement[]) => {
          log.trips.push(`batch: ${stmts.map((s) => sqlOf.get(s) ?? '?').join(' | ')}`)
          return target.batch(stmts.map((s) => real.get(s) ?? s))
        }
      }
      if (prop === 'exec') {
        return (sql: string) => {
          log.trips.push(sql)
          return target.exec(sql)
        }
      }
      const value: unknown = Reflect.get(target, prop)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}
