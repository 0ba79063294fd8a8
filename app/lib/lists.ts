import { PLAIN_ENTITIES } from '#shared/entities/index'
import { listSpecOf } from './entity-screens'
import type { SearchDescriptor } from './search'
import type { TableColumn } from './table'

/** A console list declared once: where its rows come from, who may see them, its columns and its search bar. */
export interface ListSpec<Row = Record<string, unknown>> {
  /** Resource name (i18n `resources.<name>.name`), also the CSV export id. */
  name: string
  /** Realm API path of the entity's list endpoint; `{realm}` stands for the realm in use. */
  apiPath: string
  /** Manifest route of the list screen: its guard also guards the CSV export. */
  route: string
  columns: TableColumn<Row>[]
  search?: SearchDescriptor[]
  /** Shortest quick search the list accepts (user search needs 3 characters, seed 002 §5). */
  likeMinLength?: number
  rowId: (row: Row) => string
}

const modules = import.meta.glob<ListSpec<never>>('../lists/*.ts', { eager: true, import: 'default' })

/** Every declared list (one file per list in app/lists/, and each plain entity's), by name: the CSV export serves any of them. */
export const LISTS: Record<string, ListSpec<never>> = Object.fromEntries(
  [...Object.values(modules), ...PLAIN_ENTITIES.map((e) => listSpecOf(e) as unknown as ListSpec<never>)].map((spec) => [spec.name, spec]),
)
