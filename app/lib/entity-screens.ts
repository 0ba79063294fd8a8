import type { TFunction } from 'i18next'
import { createElement, type ReactNode } from 'react'
import { Icon, type IconName } from '~/components/ui/icon'
import type { FieldSpec } from '~/lib/form-fields'
import type { ListSpec } from '~/lib/lists'
import { YES_NO, when } from '~/lib/list-format'
import type { TableColumn } from '~/lib/table'
import { fieldLabel, pageTitle, type PlainEntity, type PlainField } from '#shared/entities/define'
import { PLAIN_ENTITIES } from '#shared/entities/index'
import { shownPercent } from '#shared/schemas/achievement'

/**
 * The console side of the plain-entity declarations (app/shared/entities/): each one's list (columns, search bar,
 * CSV) and form fields, derived once.
 */
type Format = NonNullable<TableColumn<Record<string, unknown>>['format']>

function formatOf(f: PlainField): Format | undefined {
  if (f.column?.format === 'when') return when
  if (f.column?.format === 'option' || f.column?.format === 'icon') {
    const labels = new Map((f.form?.options ?? []).map((o) => [o.value, o.label]))
    return (v, _row, t) => (labels.has(String(v)) ? t(labels.get(String(v))!) : String(v ?? ''))
  }
  if (f.column?.format === 'check') return (v) => (v ? '✓' : '')
  if (f.column?.format === 'percent') return (v) => (typeof v === 'number' ? `${shownPercent(v)}%` : '')
  return undefined
}

/** A cell showing the value's icon beside its label (the label alone in CSV). */
const iconCell =
  (name: string, label: Format) =>
  (row: Record<string, unknown>, t: TFunction): ReactNode =>
    createElement('span', { className: 'icon-cell' }, createElement(Icon, { name: String(row[name]) as IconName }), ' ', label(row[name] as never, row, t))

export { YES_NO }

/** The console list of an entity (its rows typed as the declaration's). */
export function listSpecOf<Row extends Record<string, unknown>>(declared: PlainEntity<Row>): ListSpec<Row> {
  const e = declared as unknown as PlainEntity
  const columns: TableColumn<Record<string, unknown>>[] = Object.entries(e.fields)
    .filter(([, f]) => f.column)
    .map(([name, f]) => ({
      id: name,
      label: fieldLabel(e, name),
      sorting: f.sort || undefined,
      align: f.column!.align,
      width: f.column!.width,
      ellipsis: f.column!.ellipsis,
      tooltip: f.column!.ellipsis,
      format: formatOf(f),
      time: f.column!.format === 'when' || undefined,
      render: f.column!.format === 'icon' ? iconCell(name, formatOf(f)!) : undefined,
    }))
  const spec: ListSpec<Record<string, unknown>> = {
    name: e.name,
    apiPath: e.api,
    route: `${e.route.id}.list`,
    rowId: (r) => String(r[e.key]),
    columns,
    search: Object.entries(e.fields)
      .filter(([, f]) => f.searchBar)
      .map(([name, f]) => {
        const options = f.type === 'bool' ? YES_NO : f.form?.options
        return options
          ? { field: name, type: 'select' as const, label: fieldLabel(e, name), options }
          : { field: name, type: 'text' as const, label: fieldLabel(e, name) }
      }),
  }
  return spec as unknown as ListSpec<Row>
}

/** The form fields of an entity's create and edit screens; `options` holds the options read for `optionsFrom` fields. */
export function formFieldsOf(e: PlainEntity, options: Record<string, { value: string; label: string }[]> = {}): FieldSpec[] {
  return Object.entries(e.fields)
    .filter(([, f]) => f.form)
    .map(([name, f]) => {
      const { optionsFrom, ...form } = f.form!
      return { name, label: fieldLabel(e, name), ...form, ...(optionsFrom ? { options: options[name] ?? [] } : {}) }
    })
}

/** The entity whose list route is at `path` (a console pathname), or one of its create/edit paths. */
export function entityAtPath(pathname: string): PlainEntity | undefined {
  return PLAIN_ENTITIES.find((e) => pathname === e.route.path || pathname.startsWith(`${e.route.path}/`))
}

export { pageTitle }
