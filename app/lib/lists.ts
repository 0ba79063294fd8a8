import type { Realm } from '~/schemas/realm'
import type { RoleRow } from '~/schemas/role'
import type { SearchDescriptor } from './search'
import type { TableColumn } from './table'

/** A console list declared once: where its rows come from, who may see them, its columns and its search bar. */
export interface ListSpec<Row = Record<string, unknown>> {
  /** Resource name (i18n `resources.<name>.name`), also the CSV export id. */
  name: string
  /** Realm API path of the entity's list endpoint. */
  apiPath: string
  /** Manifest route of the list screen: its guard also guards the CSV export. */
  route: string
  columns: TableColumn<Row>[]
  search?: SearchDescriptor[]
  rowId: (row: Row) => string
}

export const realmList: ListSpec<Pick<Realm, 'code' | 'name' | 'canonical_name' | 'parent_code' | 'created_at'>> = {
  name: 'realm',
  apiPath: 'mas/realm',
  route: 'realm.list',
  rowId: (r) => r.code,
  columns: [
    { id: 'code', label: 'resources.realm.fields.code', sorting: true, width: 140 },
    { id: 'name', label: 'resources.realm.fields.name', sorting: true, ellipsis: true, tooltip: true },
    { id: 'canonical_name', label: 'resources.realm.fields.canonical_name', sorting: true, ellipsis: true },
    { id: 'parent_code', label: 'resources.realm.fields.parent_code', sorting: true, width: 160 },
    { id: 'created_at', label: 'resources.realm.fields.created_at', sorting: true, width: 170, format: (v) => (typeof v === 'string' ? v.slice(0, 10) : '') },
  ],
  search: [
    { field: 'code', type: 'chip', label: 'resources.realm.search.codes' },
    { field: 'name', type: 'text', label: 'resources.realm.fields.name' },
    { field: 'parent_code', type: 'text', label: 'resources.realm.fields.parent_code' },
    { field: 'created_at', type: 'date', label: 'resources.realm.fields.created_at' },
  ],
}

export const roleList: ListSpec<RoleRow> = {
  name: 'role',
  apiPath: 'mas/permission',
  route: 'role.list',
  rowId: (r) => r.role,
  columns: [
    { id: 'role', label: 'resources.role.fields.role', sorting: true, width: 180 },
    { id: 'description', label: 'resources.role.fields.description', sorting: true, ellipsis: true, tooltip: true },
    { id: 'permission_count', label: 'resources.role.fields.permission_count', align: 'right', width: 140, info: 'resources.role.fields.permission_count.info' },
    { id: 'updated_at', label: 'resources.role.fields.updated_at', sorting: true, width: 170, format: (v) => (typeof v === 'string' ? v.replace('T', ' ').slice(0, 16) : '') },
    { id: 'updated_by', label: 'resources.role.fields.updated_by', width: 160 },
  ],
  search: [
    { field: 'updated_by', type: 'text', label: 'resources.role.fields.updated_by' },
    { field: 'updated_at', type: 'date', label: 'resources.role.fields.updated_at' },
  ],
}

/** Every list that can be exported as CSV, by name. */
export const LISTS: Record<string, ListSpec<never>> = {
  realm: realmList as unknown as ListSpec<never>,
  role: roleList as unknown as ListSpec<never>,
}
