import type { FieldSpec } from '~/lib/form-fields'
import { realmEntity, RealmUpdate, USER_KINDS } from '#shared/schemas/realm'
import { CHOICES, INFRA_FIELDS, REALM_TABS, SELECTS, widgetOf, type RealmField } from '#shared/schemas/realm-settings'

/**
 * The realm editor's form (seed 002 §2 settings tabs) on the form kit: one declared field per writable realm field
 * (its kind from the field's widget), `hosts`, and when creating `code` and the first administrator (`admin.*`).
 * The screen and the action read it the same way; `realmPrepare` turns the typed text into the API's body and
 * `realmChanges` keeps what differs from the stored realm (or, creating, from the defaults).
 */
export const WRITABLE = Object.keys(RealmUpdate.entries) as RealmField[]
export const SECRETS = WRITABLE.filter((f) => realmEntity.fields[f as keyof typeof realmEntity.fields]?.type === 'secret')
const ADMIN = ['nick', 'name', 'email', 'password', 'role'] as const

const label = (f: string) => `resources.realm.fields.${f}`

function spec(f: RealmField): FieldSpec {
  const choice = (o: string) => ({ value: o, label: `resources.realm.choices.${o}` })
  switch (widgetOf(f)) {
    case 'bool':
      return { name: f, label: label(f), kind: 'checkbox' }
    case 'int':
      return { name: f, label: label(f), kind: 'number', step: realmEntity.fields[f as keyof typeof realmEntity.fields]?.type === 'int' ? '1' : 'any' }
    case 'lines':
    case 'map':
      return { name: f, label: label(f), kind: 'lines' }
    case 'choices':
      return { name: f, label: label(f), kind: 'checkboxes', options: (CHOICES[f] ?? []).map(choice) }
    case 'select':
      return { name: f, label: label(f), kind: 'select', options: (SELECTS[f] ?? []).map(choice) }
    case 'parent':
      return { name: f, label: label(f), kind: 'select', nullable: true }
    case 'json':
      return { name: f, label: label(f), kind: 'textarea' }
    default:
      return { name: f, label: label(f), kind: 'text', required: f === 'name' }
  }
}

export function realmFields(mode: 'create' | 'edit'): FieldSpec[] {
  return [
    ...(mode === 'create' ? [{ name: 'code', label: label('code'), kind: 'text', required: true } as FieldSpec] : []),
    ...REALM_TABS.flatMap((t) => t.fields.map(spec)),
    { name: 'hosts', label: label('hosts'), kind: 'lines' },
    ...(mode === 'create'
      ? [
          { name: 'admin.enable', label: 'resources.realm.admin.enable', kind: 'checkbox' } as FieldSpec,
          ...ADMIN.map((k): FieldSpec => ({ name: `admin.${k}`, label: `resources.realm.admin.${k}`, kind: 'text', required: k !== 'email' })),
        ]
      : []),
  ]
}

/** The tab of a field (code, hosts and the first administrator are on the general tab). */
export function tabOf(name: string): string {
  const field = name.split(/[.[]/)[0]
  return REALM_TABS.find((t) => t.fields.includes(field as RealmField))?.id ?? 'general'
}

/** `domain=kind` lines ↔ the auth_type map; a line without `=` becomes a key the schema refuses. */
const mapToLines = (m: unknown) => Object.entries((m ?? {}) as Record<string, string>).map(([k, v]) => `${k}=${v}`)
const linesToMap = (lines: string[]) =>
  Object.fromEntries(
    lines.map((l) => {
      const at = l.indexOf('=')
      return at < 0 ? [l, ''] : [l.slice(0, at).trim(), l.slice(at + 1).trim()]
    }),
  )
export const AUTH_KINDS = USER_KINDS

/** A stored realm (API shape) as the form shows it: secrets empty, the auth map as lines, JSON as text. */
export function realmFormValues(realm: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...realm }
  for (const f of WRITABLE) {
    const w = widgetOf(f)
    if (SECRETS.includes(f)) out[f] = ''
    else if (w === 'map') out[f] = mapToLines(realm[f])
    else if (w === 'json') out[f] = JSON.stringify(realm[f] ?? null, null, 2)
  }
  return out
}

/**
 * Typed values → the API's body (before the schema): an empty secret is unchanged; the auth map and JSON read back;
 * an emptied text that was stored as null stays null; the first administrator only when asked for; `locked` (fields
 * the editor may not change, shown read-only so not posted) keep their stored values.
 */
export function realmPrepare(base: Record<string, unknown>, locked: Record<string, unknown>) {
  return (values: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...values }
    for (const f of WRITABLE) {
      const w = widgetOf(f)
      if (SECRETS.includes(f) && !out[f]) delete out[f]
      else if (w === 'map' && Array.isArray(out[f])) out[f] = linesToMap(out[f] as string[])
      else if (w === 'json' && typeof out[f] === 'string') {
        try {
          out[f] = JSON.parse(out[f] as string)
        } catch {
          /* kept as text: the schema refuses it */
        }
      } else if (out[f] === '' && (base[f] === null || base[f] === undefined)) out[f] = base[f] ?? undefined
      else if (out[f] === undefined && w === 'int' && base[f] !== undefined) out[f] = ''
    }
    const admin = out.admin as Record<string, unknown> | undefined
    if (admin) {
      const { enable, ...rest } = admin
      if (enable) out.admin = { ...rest, email: rest.email ?? '' }
      else delete out.admin
    }
    return { ...out, ...locked }
  }
}

/** The stored values of the fields the editor may not change (infra without mas_realm_edit_infra). */
export function lockedValues(base: Record<string, unknown>, canInfra: boolean): Record<string, unknown> {
  return canInfra ? {} : Object.fromEntries(INFRA_FIELDS.filter((f) => !SECRETS.includes(f as RealmField)).map((f) => [f, base[f]]))
}

/** What is sent: the values that differ from `base` (a typed secret always); creating, also the code and name. */
export function realmChanges(base: Record<string, unknown>, value: Record<string, unknown>, mode: 'create' | 'edit'): Record<string, unknown> {
  const norm = (x: unknown) => JSON.stringify(x === '' || x === undefined ? null : x)
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(value)) {
    if (x === undefined) continue
    if (SECRETS.includes(k as RealmField) || k === 'admin' || (mode === 'create' && (k === 'code' || k === 'name')) || norm(x) !== norm(base[k])) out[k] = x
  }
  return out
}
