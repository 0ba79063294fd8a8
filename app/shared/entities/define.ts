/**
 * One declaration per plain entity (issue 12, Shape): its table, key, realm column, fields (storage type, list
 * column, search/sort/filter, form field), input schema, permissions, API path, console routes and label keys, in
 * one file under app/shared/entities/. Generic machinery reads it: the API's CRUD (worker/api/entities.ts), the
 * list indexes (worker/db/list-schema.ts), the route manifest (app/shared/manifest.ts), the console's list, create
 * and edit screens (app/entity-routes/, mounted by vite.config.ts) and the CSV export (app/lib/lists.ts).
 * README "Adding a plain entity" says how to add one.
 */
import type * as v from 'valibot'
import { STAMP_FIELDS, type EntityDescriptor, type FieldDef } from '../schemas/entity'

/** What worker/db/tms usage() counts the references of. */
export type UsageKind = 'category' | 'genre' | 'skill' | 'channel_category' | 'room_card' | 'objective' | 'track'

/** How a field shows in the console's list (its presence makes it a column). */
export interface ColumnDecl {
  align?: 'left' | 'center' | 'right'
  width?: number
  ellipsis?: boolean
  /**
   * Named cell formats (the console maps them to functions): `when` a stored time in the list's zone, `option` the
   * translated label of the field's form option, `icon` that option's icon beside its label, `check` a ✓ for a true
   * flag (nothing for false), `percent` a stored fraction as 100 × it, capped at 100.
   */
  format?: 'when' | 'option' | 'icon' | 'check' | 'percent'
}

/** How a field shows in the create and edit form (the form kit's FieldSpec, without name and label). */
export interface FormDecl {
  /** `list`: comma-separated words (tags) stored as an array. */
  kind: 'text' | 'textarea' | 'number' | 'checkbox' | 'select' | 'color' | 'icon' | 'list'
  required?: boolean
  nullable?: boolean
  numeric?: boolean
  step?: string
  min?: number
  max?: number
  hint?: string
  /** Fixed options (labels are i18n keys; with kind `icon` the values are icon names, offered as a picker). */
  options?: { value: string; label: string }[]
  /**
   * Options read from another list of the realm: its API path, query, and the fields giving value and label;
   * `topLevel` keeps only the rows whose named field is empty (the groups of a two-level list such as its own).
   */
  optionsFrom?: { api: string; query?: Record<string, string>; value: string; label: string; permission: string; topLevel?: string }
}

/** A field: its storage and API list behaviour (FieldDef), its column and its form field. */
export interface PlainField extends FieldDef {
  column?: ColumnDecl
  form?: FormDecl
  /**
   * The list's search bar offers this field: a text filter (`filter: 'like'`), or a select of its form options (of
   * yes and no for a `bool`).
   */
  searchBar?: boolean
}

export interface PlainEntity<Row extends Record<string, unknown> = Record<string, unknown>> extends EntityDescriptor<Row> {
  fields: { [K in keyof Row & string]: PlainField }
  /** Validates create and update bodies (server and form). */
  input: v.GenericSchema
  /** Permission prefix: `<p>_list`, `<p>_get`, `<p>_create`, `<p>_edit`, `<p>_delete` (an editor may read too). */
  permission: string
  /** API path under /api, e.g. `tms/genre`; `{realm}` stands for the realm in use. */
  api: string
  /** The API is served by its own code (named in the declaration's comment), not mounted by worker/api/entities.ts. */
  ownApi?: true
  /** Console routes: manifest id prefix (`<id>.list|create|edit`), path and the edit route's param. */
  route: { id: string; path: string; param: string; unsaved?: boolean }
  /** The generic screens it uses (default all three); a screen left out is a route file of its own. */
  screens?: readonly ('list' | 'create' | 'edit')[]
  /** The rows carry STAMP_FIELDS (id, realm, created_at, updated_at, updated_by), set by the generic API. */
  stamped?: true
  /** The field naming a row (titles, buttons, the delete confirmation). */
  labelField: keyof Row & string
  /** Flash message key after a save (given the saved row's label as `name`). */
  saved: string
  /** Refuses deleting a row still referenced (kind given to worker/db/tms usage()). */
  inUse?: UsageKind
}

/** Field label key: `resources.<name>.fields.<field>` (the stamps share `resources.tms.fields.*`). */
export const fieldLabel = (e: PlainEntity, field: string) => (field in STAMP_FIELDS ? `resources.tms.fields.${field}` : `resources.${e.name}.fields.${field}`)

/** Page title keys of the entity's screens. */
export const pageTitle = (e: PlainEntity, screen: 'list' | 'create' | 'edit') => `pages.${e.route.id}.${screen}`

/** The generic screens an entity uses. */
export const screensOf = (e: PlainEntity) => e.screens ?? (['list', 'create', 'edit'] as const)

/** The entity's API path in a realm. */
export const apiPathOf = (e: PlainEntity, realm: string) => e.api.replace('{realm}', encodeURIComponent(realm))

/** The permission of an action on the entity. */
export const permissionOf = (e: PlainEntity, action: 'list' | 'get' | 'create' | 'edit' | 'delete') => `${e.permission}_${action}`

export function definePlainEntity<Row extends Record<string, unknown>>(
  e: Omit<PlainEntity<Row>, 'fields'> & { fields: { [K in keyof Row & string]: PlainField } },
): PlainEntity<Row> {
  return e as PlainEntity<Row>
}

/** The stamps' fields, with `updated_at` shown as the list's last column. */
export const STAMPS = {
  ...STAMP_FIELDS,
  updated_at: { ...STAMP_FIELDS.updated_at, column: { width: 150, format: 'when' } },
} as const satisfies Record<string, PlainField>
