import type { Realm } from '~/schemas/realm'
import type { Access } from './access'
import { ROUTES } from './manifest'
import type { TableColumn } from './table'

/** A console list declared once: where its rows come from, who may see them, and its columns. */
export interface ListSpec<Row = Record<string, unknown>> {
  /** Resource name (i18n `resources.<name>.name`), also the CSV export id. */
  name: string
  /** Realm API path of the entity's list endpoint. */
  apiPath: string
  access: Access
  columns: TableColumn<Row>[]
  rowId: (row: Row) => string
  /** Page a row opens, when it has one. */
  rowLink?: (row: Row) => string
}

export const realmList: ListSpec<Pick<Realm, 'code' | 'name' | 'canonical_name' | 'parent_code'>> = {
  name: 'realm',
  apiPath: 'mas/realm',
  access: ROUTES.realmList.access,
  rowId: (r) => r.code,
  columns: [
    { id: 'code', label: 'resources.realm.fields.code', sorting: true, width: 140 },
    { id: 'name', label: 'resources.realm.fields.name', sorting: true, ellipsis: true, tooltip: true },
    { id: 'canonical_name', label: 'resources.realm.fields.canonical_name', sorting: true, ellipsis: true },
    { id: 'parent_code', label: 'resources.realm.fields.parent_code', sorting: true, width: 160 },
  ],
}

/** Every list that can be exported as CSV, by name. */
export const LISTS: Record<string, ListSpec<never>> = {
  realm: realmList as unknown as ListSpec<never>,
}
