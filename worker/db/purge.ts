import { REALM_RESTORE_DAYS } from '#shared/schemas/realm'
import { auditStatement } from './audit'

/**
 * The purge of deleted realms (issue 11), run by the Worker's scheduled handler. A realm deleted more than
 * REALM_RESTORE_DAYS days ago (it can no longer be restored) is emptied table by table in bounded batches, its
 * uploaded files removed from R2, and its realm row deleted last, once no row and no child realm refers to it.
 * The tenant tables are found in the database itself, so a table added later is purged without a change here:
 * every table with a `realm` column, or a column that is a foreign key to `realm(code)` or to another table's `realm`
 * (e.g. `session.active_realm`, `oauth_code.user_realm`), is emptied of the realm's rows, children before parents.
 */

/**
 * The credit ledger's journal is append-only (its triggers refuse every UPDATE and DELETE) and a transaction may
 * move credits between realms, so removing one realm's side would unbalance the other's history: its accounts,
 * entries and transactions are kept as the financial record (they carry account ids, no names or e-mails).
 */
export const PURGE_KEEPS = ['ledger_account', 'ledger_entry', 'ledger_transaction'] as const

/** Rows removed per statement, so one statement never holds the database for long. */
export const PURGE_BATCH = 500
/** Database and storage calls per run; what is left waits for the next run (hourly). */
export const PURGE_BUDGET = 400

interface TenantTable {
  name: string
  /** Columns holding the realm's code. */
  columns: string[]
  /** Columns identifying a row (the primary key, else rowid). */
  key: string[]
  /** Self references (`parent` → `id`): rows are removed leaves first. */
  selfRefs: { from: string; to: string }[]
  /** Other tables this one refers to (emptied after this one). */
  refersTo: string[]
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`

type ColumnInfo = { name: string; pk: number }
type ForeignKey = { id: number; seq: number; table: string; from: string; to: string | null }

/** Every tenant table with its realm columns, in the order they can be emptied (children before parents). */
export async function tenantTables(db: D1Database): Promise<TenantTable[]> {
  const { results: names } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'd1\\_%' ESCAPE '\\'",
    )
    .all<{ name: string }>()
  const infos = await db.batch(names.flatMap(({ name }) => [db.prepare(`PRAGMA table_info(${q(name)})`), db.prepare(`PRAGMA foreign_key_list(${q(name)})`)]))
  const tables: TenantTable[] = []
  names.forEach(({ name }, i) => {
    if (name === 'realm' || (PURGE_KEEPS as readonly string[]).includes(name)) return
    const columns = infos[2 * i].results as ColumnInfo[]
    const fks = infos[2 * i + 1].results as ForeignKey[]
    const realmColumns = columns
      .map((c) => c.name)
      .filter((c) => c === 'realm' || fks.some((fk) => fk.from === c && ((fk.table === 'realm' && (fk.to === 'code' || fk.to === null)) || fk.to === 'realm')))
    if (!realmColumns.length) return
    const pk = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name)
    tables.push({
      name,
      columns: realmColumns,
      key: pk.length ? pk : ['rowid'],
      selfRefs: fks.filter((fk) => fk.table === name && fk.to).map((fk) => ({ from: fk.from, to: fk.to! })),
      refersTo: [...new Set(fks.map((fk) => fk.table).filter((t) => t !== name))],
    })
  })
  // Children first: a table is emptied before every table it refers to (Kahn's order; a cycle keeps its given order).
  const ordered: TenantTable[] = []
  const pending = new Set(tables.map((t) => t.name))
  while (pending.size) {
    const ready = tables.filter((t) => pending.has(t.name) && !tables.some((o) => pending.has(o.name) && o.name !== t.name && o.refersTo.includes(t.name)))
    const next = ready.length ? ready : tables.filter((t) => pending.has(t.name)).slice(0, 1)
    for (const t of next) {
      ordered.push(t)
      pending.delete(t.name)
    }
  }
  return ordered
}

/** The condition selecting the realm's rows of a table (`?1` is the realm's code). */
const ownRows = (t: TenantTable, alias: string) => `(${t.columns.map((c) => `${alias}.${q(c)} = ?1`).join(' OR ')})`

/** One bounded delete of the realm's rows of a table, leaves first where the table refers to itself. */
function deleteBatch(db: D1Database, t: TenantTable, code: string): D1PreparedStatement {
  const leaves = t.selfRefs.map((r) => ` AND NOT EXISTS (SELECT 1 FROM ${q(t.name)} AS child WHERE child.${q(r.from)} = t.${q(r.to)})`).join('')
  const key = t.key.map(q).join(', ')
  const picked = `SELECT ${t.key.map((k) => `t.${q(k)}`).join(', ')} FROM ${q(t.name)} AS t WHERE ${ownRows(t, 't')}${leaves} LIMIT ${PURGE_BATCH}`
  return db.prepare(`DELETE FROM ${q(t.name)} WHERE (${key}) IN (${picked})`).bind(code)
}

interface DeletedRealm {
  code: string
  deleted_at: string
  deleted_by: string | null
  deleted_by_realm: string | null
}

export interface PurgeReport {
  /** Realms whose row was removed in this run. */
  purged: string[]
  /** Realms with rows left for the next run (budget spent, child realms, rows that could not be removed yet). */
  pending: string[]
  rows: number
  files: number
}

/**
 * Purges the realms deleted more than REALM_RESTORE_DAYS days before `now`, within PURGE_BUDGET calls. Each removal
 * is logged; the realm row goes last with an audit record (`purge`, actor `system:purge`) in the audit trail that
 * holds its delete record (the realm of whoever deleted it).
 */
export async function purgeDeletedRealms(env: Pick<Env, 'DB' | 'FILES'>, now = new Date(), calls = PURGE_BUDGET): Promise<PurgeReport> {
  const db = env.DB
  const report: PurgeReport = { purged: [], pending: [], rows: 0, files: 0 }
  const cutoff = new Date(now.getTime() - REALM_RESTORE_DAYS * 24 * 3_600_000).toISOString()
  const { results: due } = await db
    .prepare('SELECT code, deleted_at, deleted_by, deleted_by_realm FROM realm WHERE deleted_at IS NOT NULL AND deleted_at <= ? ORDER BY deleted_at LIMIT 20')
    .bind(cutoff)
    .all<DeletedRealm>()
  if (!due.length) return report
  let budget = calls
  const tables = await tenantTables(db)
  budget -= 2

  for (const realm of due) {
    if (budget <= 0) {
      report.pending.push(realm.code)
      continue
    }
    let done = true
    // Uploaded files: the R2 objects, then their rows (the generic pass would leave the objects behind).
    for (;;) {
      if (budget <= 0) break
      const { results } = await db.prepare(`SELECT id, key FROM file WHERE realm = ? LIMIT ${PURGE_BATCH}`).bind(realm.code).all<{ id: string; key: string }>()
      budget -= 1
      if (!results.length) break
      await env.FILES.delete(results.map((r) => r.key))
      await db.batch(results.map((r) => db.prepare('DELETE FROM file WHERE id = ?').bind(r.id)))
      budget -= 2
      report.files += results.length
    }
    // Objects under the realm's prefix without a row (an upload whose row was never written).
    for (let cursor: string | undefined; budget > 0;) {
      const page = await env.FILES.list({ prefix: `${realm.code}/`, cursor, limit: 1000 })
      budget -= 1
      if (page.objects.length) {
        await env.FILES.delete(page.objects.map((o) => o.key))
        budget -= 1
        report.files += page.objects.length
      }
      if (!page.truncated) break
      cursor = page.cursor
    }
    // Which tables hold rows of the realm (one call), then each of them emptied in bounded batches.
    const present = await db.batch(
      tables.map((t) => db.prepare(`SELECT EXISTS (SELECT 1 FROM ${q(t.name)} AS t WHERE ${ownRows(t, 't')}) AS n`).bind(realm.code)),
    )
    budget -= 1
    for (const [i, t] of tables.entries()) {
      if (!(present[i].results[0] as { n: number }).n) continue
      for (;;) {
        if (budget <= 0) {
          done = false
          break
        }
        const res = await db.batch([deleteBatch(db, t, realm.code)])
        budget -= 1
        const removed = res[0].meta.changes ?? 0
        report.rows += removed
        if (removed === 0) {
          // Nothing removable is left; rows that remain (a cycle of references) keep the realm for a later run.
          const left = await db
            .prepare(`SELECT EXISTS (SELECT 1 FROM ${q(t.name)} AS t WHERE ${ownRows(t, 't')}) AS n`)
            .bind(realm.code)
            .first<{ n: number }>()
          budget -= 1
          if (left?.n) {
            console.error(`[purge] ${realm.code}: rows of ${t.name} could not be removed`)
            done = false
          }
          break
        }
        if (removed < PURGE_BATCH) break
      }
      if (!done) break
    }
    const child = done ? await db.prepare('SELECT code FROM realm WHERE parent_code = ? LIMIT 1').bind(realm.code).first<{ code: string }>() : null
    if (!done || child) {
      if (child) console.log(`[purge] ${realm.code}: waits for its child realm ${child.code}`)
      report.pending.push(realm.code)
      continue
    }
    await db.batch([
      db.prepare('DELETE FROM realm WHERE code = ? AND deleted_at IS NOT NULL AND deleted_at <= ?').bind(realm.code, cutoff),
      auditStatement(db, {
        realm: realm.deleted_by_realm || realm.code,
        actor: 'system:purge',
        actorRealm: '',
        action: 'purge',
        entity: 'realm',
        entityId: realm.code,
        before: { deleted_at: realm.deleted_at, deleted_by: realm.deleted_by },
        after: null,
      }),
    ])
    budget -= 1
    report.purged.push(realm.code)
  }
  console.log(
    `[purge] purged ${report.purged.length} realm(s) [${report.purged.join(', ')}], ${report.rows} row(s), ${report.files} file(s); pending [${report.pending.join(', ')}]`,
  )
  return report
}
