/**
 * What the list machinery (worker/lib/entity.ts) needs of the schema, derived from the entity descriptors: an index
 * for every sort and filter a list allows (the realm first, the key last so paging is stable), and a full-text
 * index (SQLite FTS5, trigram tokenizer: substring search like LIKE '%text%', without scanning the table) over the
 * searchable fields of the lists that grow large. `listSchemaSql()` writes the statements; migration 0014 holds
 * them as they were generated (`tsx worker/scripts/list-schema.ts`), and tests/workers/list-plans.test.ts checks
 * that every query a list can produce uses an index.
 */
import { PLAIN_ENTITIES } from '#shared/entities/index'
import { goalEntity } from '#shared/schemas/achievement'
import { assetEntity } from '#shared/schemas/asset'
import { categoryEntity as roomCategoryEntity } from '#shared/schemas/category'
import type { EntityDescriptor, FieldDef } from '#shared/schemas/entity'
import { extraFieldEntity } from '#shared/schemas/extra-field'
import { lessonEntity, lessonModelEntity } from '#shared/schemas/lesson/lesson'
import { surveyEntity, surveyModelEntity } from '#shared/schemas/survey/survey'
import { accountEntity, contentEntity, movementEntity, packageEntity, statementEntity } from '#shared/schemas/ledger-entity'
import { reportEntity } from '#shared/schemas/report'
import { roleEntity } from '#shared/schemas/role'
import { channelEntity } from '#shared/schemas/channel'
import { personaEntity } from '#shared/schemas/persona'
import { assistantEntity } from '#shared/schemas/assistant'
import { pollEntity, quizEntity } from '#shared/schemas/quiz'
import { roomEntity, roomGroupEntity } from '#shared/schemas/room'
import { sessionEntity } from '#shared/schemas/session'
import { auditLogEntity, errorLogEntity } from '#shared/schemas/technical'
import { bankEntity } from '#shared/schemas/tms/bank'
import { modelEntity } from '#shared/schemas/tms/model'
import { taskEntity } from '#shared/schemas/tms/task'
import { tokenEntity } from '#shared/schemas/tms/token'
import { userEntity } from '#shared/schemas/user'

/** Every tenant entity a list serves (the realm list itself is not a tenant table). */
export const LIST_ENTITIES: EntityDescriptor[] = [
  userEntity,
  goalEntity as unknown as EntityDescriptor,
  roleEntity,
  bankEntity,
  modelEntity,
  taskEntity,
  tokenEntity,
  roomEntity,
  roomGroupEntity,
  roomCategoryEntity,
  assetEntity,
  extraFieldEntity,
  reportEntity,
  auditLogEntity,
  errorLogEntity,
  packageEntity,
  contentEntity,
  accountEntity,
  movementEntity,
  statementEntity,
  channelEntity,
  personaEntity,
  assistantEntity,
  quizEntity,
  pollEntity,
  sessionEntity,
  lessonModelEntity,
  lessonEntity,
  surveyModelEntity,
  surveyEntity,
  ...PLAIN_ENTITIES,
] as EntityDescriptor[]

/**
 * Lists searched through a full-text index (the tables that grow to 100,000 rows and more in a realm); the small
 * per-realm catalogues keep their LIKE search, which reads only the realm's rows through the realm index.
 */
export const SEARCH_INDEXED: ReadonlySet<string> = new Set([userEntity.table, bankEntity.table, modelEntity.table])

/** Name of a table's full-text index. */
export const searchTable = (table: string) => `${table}_search`

/** The searchable fields of a descriptor (its `like` search and its `like` filters). */
export const searchFields = (desc: EntityDescriptor) =>
  Object.entries(desc.fields as Record<string, FieldDef>)
    .filter(([, d]) => d.search || d.filter === 'like')
    .map(([n]) => n)

/** The full-text index of a table, or undefined when its list searches with LIKE. */
export function searchIndexOf(desc: EntityDescriptor): { table: string; columns: string[] } | undefined {
  return SEARCH_INDEXED.has(desc.table) ? { table: searchTable(desc.table), columns: searchFields(desc) } : undefined
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The index statements a descriptor's sorts and filters need (base tables only: a view's rows come from its tables). */
export function indexSql(desc: EntityDescriptor, isView: boolean): string[] {
  const realm = desc.realmColumn
  if (!realm || isView) return []
  const out = new Map<string, string>()
  for (const [name, def] of Object.entries(desc.fields as Record<string, FieldDef>)) {
    if (name === realm) continue
    const sorted = def.sort === true
    const filtered = def.filter !== undefined && def.filter !== 'like'
    if (!sorted && !filtered) continue
    if (name === desc.key && !sorted) continue
    const cols = name === desc.key ? [realm, name] : [realm, name, desc.key]
    const index = `list_${desc.table}_${name}`
    out.set(index, `CREATE INDEX IF NOT EXISTS ${q(index)} ON ${q(desc.table)} (${cols.map(q).join(', ')});`)
  }
  return [...out.values()]
}

/** The full-text index of a table: the FTS5 table over its searchable columns, the triggers keeping it in sync, a rebuild. */
export function searchSql(desc: EntityDescriptor): string[] {
  const found = searchIndexOf(desc)
  if (!found) return []
  const { table: fts, columns } = found
  const t = q(desc.table)
  const cols = columns.map(q).join(', ')
  const values = (row: 'new' | 'old') => columns.map((c) => `${row}.${q(c)}`).join(', ')
  return [
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${q(fts)} USING fts5(${cols}, content=${t}, content_rowid='rowid', tokenize='trigram');`,
    `CREATE TRIGGER IF NOT EXISTS ${q(`${fts}_insert`)} AFTER INSERT ON ${t} BEGIN INSERT INTO ${q(fts)} (rowid, ${cols}) VALUES (new.rowid, ${values('new')}); END;`,
    `CREATE TRIGGER IF NOT EXISTS ${q(`${fts}_delete`)} AFTER DELETE ON ${t} BEGIN INSERT INTO ${q(fts)} (${q(fts)}, rowid, ${cols}) VALUES ('delete', old.rowid, ${values('old')}); END;`,
    `CREATE TRIGGER IF NOT EXISTS ${q(`${fts}_update`)} AFTER UPDATE ON ${t} BEGIN INSERT INTO ${q(fts)} (${q(fts)}, rowid, ${cols}) VALUES ('delete', old.rowid, ${values('old')}); INSERT INTO ${q(fts)} (rowid, ${cols}) VALUES (new.rowid, ${values('new')}); END;`,
    `INSERT INTO ${q(fts)} (${q(fts)}) VALUES ('rebuild');`,
  ]
}

/** Every statement, for the migration. `views` names the descriptor tables that are views. */
export function listSchemaSql(views: ReadonlySet<string>): string {
  const lines: string[] = []
  for (const desc of LIST_ENTITIES) {
    const stmts = [...indexSql(desc, views.has(desc.table)), ...searchSql(desc)]
    if (stmts.length) lines.push(`-- ${desc.name} (${desc.table})`, ...stmts, '')
  }
  return lines.join('\n')
}
