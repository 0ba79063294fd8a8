import { day } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { Realm } from '#shared/schemas/realm'

/** The realm list (seed 000 §2.2 `realm`). */
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
    { id: 'created_at', label: 'resources.realm.fields.created_at', sorting: true, width: 170, format: day, time: true },
  ],
  search: [
    { field: 'code', type: 'chip', label: 'resources.realm.search.codes' },
    { field: 'name', type: 'text', label: 'resources.realm.fields.name' },
    { field: 'parent_code', type: 'text', label: 'resources.realm.fields.parent_code' },
    { field: 'created_at', type: 'date', label: 'resources.realm.fields.created_at' },
  ],
}

export default realmList
