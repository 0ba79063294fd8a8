import * as v from 'valibot'
import { GLOBAL_CONFIG_DEFAULTS, GlobalConfig } from '#shared/schemas/realm-settings'

export interface StoredGlobalConfig extends GlobalConfig {
  updated_at: string
  updated_by: string
}

/** The platform-wide configuration; defaults for any key never saved (or saved in an older shape). */
export async function getGlobalConfig(db: D1Database): Promise<StoredGlobalConfig> {
  return globalConfigFrom(await globalConfigRead(db).first<GlobalConfigRow>())
}

type GlobalConfigRow = { value: string; updated_at: string; updated_by: string }

/** The read of the platform-wide configuration, for a caller's batch (globalConfigFrom turns its row into values). */
export function globalConfigRead(db: D1Database): D1PreparedStatement {
  return db.prepare('SELECT value, updated_at, updated_by FROM global_config WHERE id = 1')
}

/** The last row read and its values: the row changes rarely, and validating it is most of a word-filter check's cost. */
let memo: { row: GlobalConfigRow; config: StoredGlobalConfig } | undefined

export function globalConfigFrom(row: GlobalConfigRow | null | undefined): StoredGlobalConfig {
  if (row && memo && memo.row.value === row.value && memo.row.updated_at === row.updated_at && memo.row.updated_by === row.updated_by) {
    return structuredClone(memo.config)
  }
  let stored: Record<string, unknown> = {}
  try {
    stored = row ? (JSON.parse(row.value) as Record<string, unknown>) : {}
  } catch {
    stored = {}
  }
  const merged = { ...GLOBAL_CONFIG_DEFAULTS, ...stored }
  const parsed = v.safeParse(GlobalConfig, merged)
  const config = { ...(parsed.success ? parsed.output : GLOBAL_CONFIG_DEFAULTS), updated_at: row?.updated_at ?? '', updated_by: row?.updated_by ?? '' }
  if (row) memo = { row: { ...row }, config: structuredClone(config) }
  return config
}

export function setGlobalConfigStatement(db: D1Database, value: GlobalConfig, by: string): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO global_config (id, value, updated_at, updated_by) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by',
    )
    .bind(JSON.stringify(value), new Date().toISOString(), by)
}
