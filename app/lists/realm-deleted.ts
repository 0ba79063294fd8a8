import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import { REALM_RESTORE_DAYS, type Realm } from '#shared/schemas/realm'

const minute = when

/** The deleted realms of the caller's tree, restorable until their purge (the realm list's "deleted realms" view). */
export type DeletedRealmRow = Pick<Realm, 'code' | 'name' | 'parent_code' | 'deleted_at' | 'deleted_by'> & { purge_after?: string }

/** When the purge may remove a realm deleted at `deletedAt`; restoring is possible until then. */
export function purgeAfter(deletedAt: string | null | undefined): string {
  return deletedAt ? new Date(Date.parse(deletedAt) + REALM_RESTORE_DAYS * 24 * 3_600_000).toISOString() : ''
}

export const deletedRealmList: ListSpec<DeletedRealmRow> = {
  name: 'realm_deleted',
  apiPath: 'mas/realm?deleted=true',
  route: 'realm.list',
  rowId: (r) => r.code,
  columns: [
    { id: 'code', label: 'resources.realm.fields.code', sorting: true, width: 140 },
    { id: 'name', label: 'resources.realm.fields.name', sorting: true, ellipsis: true, tooltip: true },
    { id: 'parent_code', label: 'resources.realm.fields.parent_code', sorting: true, width: 160 },
    { id: 'deleted_at', label: 'resources.realm.fields.deleted_at', sorting: true, width: 170, format: minute, time: true },
    { id: 'deleted_by', label: 'resources.realm.fields.deleted_by', width: 170 },
    {
      id: 'purge_after',
      label: 'resources.realm.fields.purge_after',
      width: 170,
      format: (_v, row, t, clock) => minute(purgeAfter(row.deleted_at), row, t, clock),
      time: true,
    },
  ],
  search: [
    { field: 'code', type: 'chip', label: 'resources.realm.search.codes' },
    { field: 'name', type: 'text', label: 'resources.realm.fields.name' },
  ],
}

export default deletedRealmList
