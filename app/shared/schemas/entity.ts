/**
 * Declare-once entity descriptors. A descriptor names the table, its key, its tenant column and the type of
 * every field; the worker's CRUD machinery (worker/lib/entity.ts) turns it into list/get/create/update/delete
 * with realm scoping, paging, `like` search and `order`, and the console's list and CSV export read it too.
 */
export type FieldType = 'text' | 'int' | 'real' | 'bool' | 'json' | 'secret'

export interface FieldDef {
  type: FieldType
  /** Matched by the list's `like` search. */
  search?: boolean
  /** Accepted by the list's `order`. */
  sort?: boolean
  /** Returned by list answers (get answers return every field). */
  list?: boolean
  /**
   * Accepted as a list filter in the query string: `eq` (`?field=value`), `in` (`?field=a,b`), `like`
   * (`?field=part`), `date` (`?field_from=YYYY-MM-DD&field_to=YYYY-MM-DD`, inclusive).
   */
  filter?: 'eq' | 'in' | 'like' | 'date'
  /** The column may hold NULL (a sortable one: cursor paging then adds the NULL rows where they sort). */
  nullable?: boolean
}

export interface EntityDescriptor<Row extends Record<string, unknown> = Record<string, unknown>> {
  /** Resource name, also the i18n key prefix `resources.<name>`. */
  name: string
  table: string
  key: keyof Row & string
  /** Tenant column; absent only for tables that are not tenant rows (the realm table itself). */
  realmColumn?: keyof Row & string
  fields: { [K in keyof Row & string]: FieldDef }
  /** Default `order` of lists. */
  defaultOrder: string
}

export function defineEntity<Row extends Record<string, unknown>>(d: EntityDescriptor<Row>): EntityDescriptor<Row> {
  return d
}

/** Value returned in place of a secret: tells the UI a value is stored without revealing it. */
/** The stamps of a realm-owned row: its id, realm, and when and by whom it was created and last changed. */
export type Stamped = { id: string; realm: string; created_at: string; updated_at: string; updated_by: string }
/** Field declarations of those stamps (spread into an entity's `fields`). */
export const STAMP_FIELDS = {
  id: { type: 'text', list: true },
  realm: { type: 'text' },
  created_at: { type: 'text', sort: true },
  updated_at: { type: 'text', sort: true, list: true },
  updated_by: { type: 'text', list: true },
} as const satisfies Record<string, FieldDef>

export const SECRET_MASK = '********'

/** Masks a secret so the last 4 characters remain as a hint when it is long enough. */
export function maskSecret(value: string): string {
  if (!value) return ''
  return value.length >= 12 ? `${SECRET_MASK}${value.slice(-4)}` : SECRET_MASK
}
