import { isAcceptedUrl, parseWebUrl } from '#shared/schemas/common'
import { REALM_URL_FIELDS, realmEntity, type Realm, type RealmConfig } from '#shared/schemas/realm'
import { decodeRow, type Scope } from '../lib/entity'

/**
 * The realm bound to a host name and whether it is deleted, or null when the host is multi-realm (unknown hosts
 * included). A deleted realm keeps its hosts until the purge, so no other realm can take them before a restore.
 */
export async function resolveHost(db: D1Database, host: string): Promise<{ realm: string; deleted: boolean } | null> {
  return hostFrom(await resolveHostRead(db, host).all())
}

/** The read of resolveHost, for a caller's batch (the Worker entry sends it with an API request's session lookup). */
export function resolveHostRead(db: D1Database, host: string): D1PreparedStatement {
  return db.prepare('SELECT h.realm, r.deleted_at FROM realm_host h JOIN realm r ON r.code = h.realm WHERE h.host = ?').bind(host.toLowerCase())
}

/** resolveHost's answer from the result of resolveHostRead. */
export function hostFrom(result: D1Result): { realm: string; deleted: boolean } | null {
  const row = result.results[0] as { realm: string; deleted_at: string | null } | undefined
  return row ? { realm: row.realm, deleted: row.deleted_at !== null } : null
}

/** Narrows a scope over the realm table to live realms (soft-deleted ones are hidden everywhere but their own view). */
export function liveRealms(scope: Scope): Scope {
  return { where: `(${scope.where}) AND deleted_at IS NULL`, params: scope.params }
}

/** Narrows a scope over the realm table to soft-deleted realms (the deleted-realms view and restore). */
export function deletedRealms(scope: Scope): Scope {
  return { where: `(${scope.where}) AND deleted_at IS NOT NULL`, params: scope.params }
}

/** True when realm `code` exists and is not deleted. */
export async function isLiveRealm(db: D1Database, code: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM realm WHERE code = ? AND deleted_at IS NULL').bind(code).first()) !== null
}

export async function listRealmHosts(db: D1Database, realm: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT host FROM realm_host WHERE realm = ? ORDER BY host').bind(realm).all<{ host: string }>()
  return results.map((r) => r.host)
}

export type RealmRow = Record<string, unknown> & { code: string; name: string }

const isLocal = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1'

/**
 * Where a realm's console lives: its `dashboard_url`, else one of its hosts (a local one for a local request); null
 * when the realm has neither (it is served on multi-realm hosts only). Nothing of the request's Host header goes into
 * the address but its scheme and port for a local development host (`*.localhost`: `npm start` serves plain HTTP on
 * its own port, and such a name only ever reaches the developer's own machine); any other host is a deployed
 * console, reached at https on the default port.
 */
export async function realmHomeUrl(db: D1Database, row: RealmRow, requestUrl: string): Promise<string | null> {
  // A stored address that does not parse (saved before addresses were parsed on input) is ignored, not thrown.
  if (row.dashboard_url && parseWebUrl(String(row.dashboard_url))) return String(row.dashboard_url)
  const hosts = await listRealmHosts(db, row.code)
  if (!hosts.length) return null
  const here = new URL(requestUrl)
  const host = hosts.find((h) => isLocal(h) === isLocal(here.hostname)) ?? hosts[0]
  return `${consoleOrigin(host, requestUrl)}/`
}

/**
 * The origin of the console on a realm `host`: for a local development host the request's scheme and port (`npm
 * start` serves plain HTTP on its own port), for any other host https on the default port.
 */
export function consoleOrigin(host: string, requestUrl: string): string {
  const here = new URL(requestUrl)
  return isLocal(host) ? `${here.protocol}//${host}${here.port ? `:${here.port}` : ''}` : `https://${host}`
}

/**
 * The realm row bound to a host, deleted or not (`deleted_at` says), in one read: the host's realm and its
 * configuration for a console page's entry (readPageHost), which once read them as two statements.
 */
export function hostRealmRead(db: D1Database, host: string): D1PreparedStatement {
  return db.prepare('SELECT r.* FROM realm_host h JOIN realm r ON r.code = h.realm WHERE h.host = ?').bind(host.toLowerCase())
}

/** A live realm's stored row; null for an unknown or deleted realm (a deleted realm signs nobody in and serves nothing). */
export async function getRealmRow(db: D1Database, code: string): Promise<RealmRow | null> {
  return db.prepare('SELECT * FROM realm WHERE code = ? AND deleted_at IS NULL').bind(code).first<RealmRow>()
}

/** Realm fields the public configuration repeats as they are stored. */
const CONFIG_FIELDS = [
  'development',
  'time_zone',
  'web_client_url',
  'ios_store_url',
  'android_store_url',
  'br_bot_endpoint',
  'logo_url',
  'favicon_url',
  'litmetrix_url',
  'cognitive_test_results_url',
  'allowed_signin',
  'allowed_roles',
  'auth_type',
  'terms',
  'privacy',
  'season_enable',
  'allowed_award',
  'canonical_name',
  'nick_suffix',
  'captcha_enabled',
  'ledger_enabled',
  'persona_enabled',
  'tms_url',
  'tms_question_extra_fields',
  'allow_custom_user_profile_picture',
  'task_external_preview_url',
  'token_sso_url',
  'handtalk_enabled',
  'google_client_id',
  'captcha_type',
] as const satisfies readonly (keyof Realm & keyof RealmConfig)[]

/**
 * The public configuration of a realm (seed 000 §3). Empty URLs default to the serving origin:
 * `api_endpoint` is `<origin>/api/`, `files_base_url` `<origin>/files/`, `dashboard_url` `<origin>/`.
 */
export function realmConfig(row: RealmRow, origin: string, multirealm: boolean): RealmConfig {
  const realm = decodeRow(realmEntity, row)
  // Stored addresses that do not parse read as unset, so one bad value cannot break every page of the realm.
  for (const { name, options } of REALM_URL_FIELDS)
    if (typeof realm[name] === 'string' && realm[name] && !isAcceptedUrl(realm[name] as string, options)) (realm as Record<string, unknown>)[name] = ''
  const picked = Object.fromEntries(CONFIG_FIELDS.map((f) => [f, realm[f]])) as Pick<RealmConfig, (typeof CONFIG_FIELDS)[number]>
  return {
    ...picked,
    realm: realm.code,
    name: realm.name,
    multirealm,
    realm_selected: true,
    dashboard_url: realm.dashboard_url || `${origin}/`,
    base_url: realm.base_url || origin,
    files_base_url: realm.files_base_url || `${origin}/files/`,
    api_endpoint: realm.api_endpoint || `${origin}/api/`,
    'csm.player.attributes.controlsList': realm.csm_player_controls_list,
  }
}

/** True when realm `code` lies inside `scope` (a realm-tree scope over the realm table, live or not). */
export async function realmInScope(db: D1Database, code: string, scope: Scope): Promise<boolean> {
  return (
    (await db
      .prepare(`SELECT 1 FROM realm WHERE code = ? AND (${scope.where})`)
      .bind(code, ...scope.params)
      .first()) !== null
  )
}

/** A live child realm of `code` (any one), or null. */
export async function liveChildRealm(db: D1Database, code: string): Promise<string | null> {
  const row = await db.prepare('SELECT code FROM realm WHERE parent_code = ? AND deleted_at IS NULL LIMIT 1').bind(code).first<{ code: string }>()
  return row?.code ?? null
}

/** True when `code` is `ancestor` or lies below it. */
export async function isRealmDescendant(db: D1Database, code: string, ancestor: string): Promise<boolean> {
  const row = await db
    .prepare(`WITH RECURSIVE tree(code) AS (SELECT ? UNION SELECT r.code FROM realm r JOIN tree t ON r.parent_code = t.code) SELECT 1 FROM tree WHERE code = ?`)
    .bind(ancestor, code)
    .first()
  return row !== null
}

/** Soft-deletes a live realm (it keeps its rows and hosts until the purge). */
export function softDeleteRealmStatement(db: D1Database, code: string, deleted: { at: string; by: string; byRealm: string }): D1PreparedStatement {
  return db
    .prepare('UPDATE realm SET deleted_at = ?, deleted_by = ?, deleted_by_realm = ? WHERE code = ? AND deleted_at IS NULL')
    .bind(deleted.at, deleted.by, deleted.byRealm, code)
}

/** Brings a soft-deleted realm back. */
export function restoreRealmStatement(db: D1Database, code: string, at: string, by: string): D1PreparedStatement {
  return db
    .prepare(
      'UPDATE realm SET deleted_at = NULL, deleted_by = NULL, deleted_by_realm = NULL, updated_at = ?, updated_by = ? WHERE code = ? AND deleted_at IS NOT NULL',
    )
    .bind(at, by, code)
}

/** The realm's nick suffix (appended to the nicks of users created in it), '' when it has none. */
export async function realmNickSuffix(db: D1Database, code: string): Promise<string> {
  const row = await db.prepare('SELECT nick_suffix FROM realm WHERE code = ?').bind(code).first<{ nick_suffix: string }>()
  return row?.nick_suffix ?? ''
}

/** The complaint reasons a realm takes, or null when it takes no complaint reports. */
export async function realmReportReasons(db: D1Database, code: string): Promise<string[] | null> {
  const row = await db
    .prepare('SELECT report_enabled, report_reasons FROM realm WHERE code = ?')
    .bind(code)
    .first<{ report_enabled: number; report_reasons: string }>()
  return row?.report_enabled === 1 ? (JSON.parse(row.report_reasons) as string[]) : null
}

/** The realm's metaverse signing token and session length, or null for an unknown realm. */
export function realmMetaverseSettings(db: D1Database, code: string): Promise<{ metaverse_api_token: string; metaverse_max_session_minutes: number } | null> {
  return db
    .prepare('SELECT metaverse_api_token, metaverse_max_session_minutes FROM realm WHERE code = ?')
    .bind(code)
    .first<{ metaverse_api_token: string; metaverse_max_session_minutes: number }>()
}

/** The realm's `development` flag: sandbox payment providers are offered there. */
export async function realmDevelopment(db: D1Database, realm: string): Promise<boolean> {
  const row = await db.prepare('SELECT development FROM realm WHERE code = ?').bind(realm).first<{ development: number }>()
  return row?.development === 1
}

/** The realm's display name, or null for an unknown realm. */
export async function realmName(db: D1Database, code: string): Promise<string | null> {
  return (await db.prepare('SELECT name FROM realm WHERE code = ?').bind(code).first<{ name: string }>())?.name ?? null
}

/** The realm's time zone ('' when it set none). */
export async function realmTimeZone(db: D1Database, code: string): Promise<string> {
  return (await db.prepare('SELECT time_zone FROM realm WHERE code = ?').bind(code).first<{ time_zone: string }>())?.time_zone ?? ''
}

/** `realm` and the live realms below it (any depth), `realm` first. */
export async function liveRealmSubtree(db: D1Database, realm: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      'WITH RECURSIVE tree(code) AS (SELECT ? UNION SELECT r.code FROM realm r JOIN tree t ON r.parent_code = t.code WHERE r.deleted_at IS NULL) SELECT code FROM tree',
    )
    .bind(realm)
    .all<{ code: string }>()
  return [realm, ...results.map((r) => r.code).filter((c) => c !== realm)]
}

/**
 * Realms a caller administers: all with mas_realm_list_all, else their own (home) realm and its descendants.
 * After a realm switch the tree is still the home realm's, so the user can switch back. `column` names the realm
 * code column of the table the scope applies to.
 */
export function realmTreeScope(auth: { permissions: ReadonlySet<string>; home_realm: string }, column = 'code'): Scope {
  if (auth.permissions.has('mas_realm_list_all')) return { where: '1 = 1', params: [] }
  return {
    where: `${column} IN (WITH RECURSIVE tree(code) AS (SELECT ? UNION SELECT r.code FROM realm r JOIN tree t ON r.parent_code = t.code) SELECT code FROM tree)`,
    params: [auth.home_realm],
  }
}

/**
 * The realms of `scope` (at most `limit`, by name) plus `current`, in tree order: a realm, then its children by name,
 * with their depth (0 for a realm whose parent is not listed). The analytics realm picker's options.
 */
export async function realmTreeList(db: D1Database, scope: Scope, current: string, limit: number): Promise<{ code: string; name: string; depth: number }[]> {
  type Row = { code: string; name: string; parent_code: string | null }
  const [tree, own] = await db.batch<Row>([
    db.prepare(`SELECT code, name, parent_code FROM realm WHERE ${scope.where} ORDER BY name, code LIMIT ?`).bind(...scope.params, limit),
    db.prepare('SELECT code, name, parent_code FROM realm WHERE code = ?').bind(current),
  ])
  const rows = new Map([...tree.results, ...own.results].map((r) => [r.code, r]))
  const children = new Map<string | null, string[]>()
  for (const r of [...rows.values()].sort((a, b) => a.name.localeCompare(b.name) || a.code.localeCompare(b.code))) {
    const parent = r.parent_code && r.parent_code !== r.code && rows.has(r.parent_code) ? r.parent_code : null
    children.set(parent, [...(children.get(parent) ?? []), r.code])
  }
  const out: { code: string; name: string; depth: number }[] = []
  const seen = new Set<string>()
  const walk = (parent: string | null, depth: number) => {
    for (const code of children.get(parent) ?? []) {
      if (seen.has(code)) continue
      seen.add(code)
      out.push({ code, name: rows.get(code)!.name, depth })
      walk(code, depth + 1)
    }
  }
  walk(null, 0)
  return out
}
