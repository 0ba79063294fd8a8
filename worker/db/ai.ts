import type { TextProvider, VisionProvider } from '#shared/schemas/ai'

/** A realm's AI settings and provider secrets, read by the Worker's AI layer only (never answered). */
export interface AiSettings {
  realm: string
  timeZone: string
  ledgerEnabled: boolean
  textProvider: TextProvider
  endpoint: string
  model: string
  apiKey: string
  cap: number
  google: string
  minimax: string
  minimaxGroup: string
  elevenlabs: string
  did: string
  visionProvider: VisionProvider
  visionModel: string
}

/** The realm's AI settings, or null for an unknown or deleted realm. */
export async function aiSettings(db: D1Database, realm: string): Promise<AiSettings | null> {
  const row = await db
    .prepare(
      `SELECT r.code, r.time_zone, r.ledger_enabled, r.agent_endpoint_url, r.agent_model, r.agent_api_key,
              COALESCE(a.text_provider, 'local') AS text_provider, COALESCE(a.monthly_credit_cap, -1) AS monthly_credit_cap,
              COALESCE(a.google_api_key, '') AS google_api_key, COALESCE(a.minimax_api_key, '') AS minimax_api_key,
              COALESCE(a.minimax_group_id, '') AS minimax_group_id, COALESCE(a.elevenlabs_api_key, '') AS elevenlabs_api_key,
              COALESCE(a.did_api_key, '') AS did_api_key, COALESCE(a.vision_provider, 'none') AS vision_provider,
              COALESCE(a.vision_model, '') AS vision_model
       FROM realm r LEFT JOIN realm_ai a ON a.realm = r.code WHERE r.code = ? AND r.deleted_at IS NULL`,
    )
    .bind(realm)
    .first<Record<string, string | number>>()
  if (!row) return null
  return {
    realm: String(row.code),
    timeZone: String(row.time_zone || 'America/Sao_Paulo'),
    ledgerEnabled: Number(row.ledger_enabled) === 1,
    textProvider: String(row.text_provider) as TextProvider,
    endpoint: String(row.agent_endpoint_url),
    model: String(row.agent_model),
    apiKey: String(row.agent_api_key),
    cap: Number(row.monthly_credit_cap),
    google: String(row.google_api_key),
    minimax: String(row.minimax_api_key),
    minimaxGroup: String(row.minimax_group_id),
    elevenlabs: String(row.elevenlabs_api_key),
    did: String(row.did_api_key),
    visionProvider: String(row.vision_provider) as VisionProvider,
    visionModel: String(row.vision_model),
  }
}

/** The realm's cap (?1 is the realm), -1 without a settings row. */
const CAP = `COALESCE((SELECT monthly_credit_cap FROM realm_ai WHERE realm = ?1), -1)`

/**
 * Reserves `credits` of the realm's month, refused (false) when the month's total would pass the realm's cap (a cap
 * below zero is no cap). One conditional upsert, so concurrent reservations can never pass the cap together.
 */
export async function reserveCredits(db: D1Database, realm: string, month: string, credits: number, at: string): Promise<boolean> {
  const row = await db
    .prepare(
      `INSERT INTO ai_usage (realm, month, credits, updated_at)
       SELECT ?1, ?2, ?3, ?4 WHERE ${CAP} < 0 OR ?3 <= ${CAP}
       ON CONFLICT (realm, month) DO UPDATE SET credits = credits + excluded.credits, updated_at = excluded.updated_at
       WHERE ${CAP} < 0 OR ai_usage.credits + excluded.credits <= ${CAP}
       RETURNING credits`,
    )
    .bind(realm, month, credits, at)
    .first()
  return row !== null
}

/** Adds (or, negative, gives back) credits of a month without the cap: a settled reservation or a refund. */
export function adjustCreditsStatement(db: D1Database, realm: string, month: string, delta: number, at: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ai_usage (realm, month, credits, updated_at) VALUES (?1, ?2, MAX(?3, 0), ?4)
       ON CONFLICT (realm, month) DO UPDATE SET credits = MAX(credits + ?3, 0), updated_at = ?4`,
    )
    .bind(realm, month, delta, at)
}

/** Credits the realm used in `month`. */
export async function creditsUsed(db: D1Database, realm: string, month: string): Promise<number> {
  return (await db.prepare('SELECT credits FROM ai_usage WHERE realm = ? AND month = ?').bind(realm, month).first<number>('credits')) ?? 0
}

/** A paid operation as stored. */
export interface AiOperationRow {
  id: string
  realm: string
  actor: string
  kind: string
  content_key: string
  idempotency_key: string
  request_hash: string
  points: number
  month: string
  provider: string
  debit_transaction: string | null
  reversal_transaction: string | null
  status: 'running' | 'succeeded' | 'refunded'
  result: string
  error: string | null
  created_at: string
}

/** The operation of a realm's idempotency key, if any. */
export function findOperation(db: D1Database, realm: string, key: string): Promise<AiOperationRow | null> {
  return db.prepare('SELECT * FROM ai_operation WHERE realm = ? AND idempotency_key = ?').bind(realm, key).first<AiOperationRow>()
}

/** The INSERT of a new running operation (first statement of its debit's batch: a second call with the key fails it). */
export function insertOperationStatement(
  db: D1Database,
  o: Pick<
    AiOperationRow,
    'id' | 'realm' | 'actor' | 'kind' | 'content_key' | 'idempotency_key' | 'request_hash' | 'points' | 'month' | 'provider' | 'debit_transaction'
  >,
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ai_operation (id, realm, actor, kind, content_key, idempotency_key, request_hash, points, month, provider, debit_transaction, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
    )
    .bind(o.id, o.realm, o.actor, o.kind, o.content_key, o.idempotency_key, o.request_hash, o.points, o.month, o.provider, o.debit_transaction, at, at)
}

/** Marks a running operation succeeded with the provider's result. */
export function operationSucceededStatement(db: D1Database, id: string, result: unknown, at: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE ai_operation SET status = 'succeeded', result = ?, updated_at = ? WHERE id = ? AND status = 'running'`)
    .bind(JSON.stringify(result ?? {}), at, id)
}

/** Marks a running operation refunded (its reversal posted in the same batch), with the provider's failure. */
export function operationRefundedStatement(db: D1Database, id: string, reversal: string | null, error: string, at: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE ai_operation SET status = 'refunded', reversal_transaction = ?, error = ?, updated_at = ? WHERE id = ? AND status = 'running'`)
    .bind(reversal, error, at, id)
}

/** Online Checks a student may run per essay of an answer when the realm has not chosen (migration 0059's default). */
export const ESSAY_CHECK_LIMIT = 5

/** The stored AI settings row of a realm (secrets included: the API masks them), the defaults when it has none. */
export async function aiSettingsRow(db: D1Database, realm: string): Promise<Record<string, string | number | null>> {
  const row = await db.prepare('SELECT * FROM realm_ai WHERE realm = ?').bind(realm).first<Record<string, string | number | null>>()
  return (
    row ?? {
      realm,
      text_provider: 'local',
      monthly_credit_cap: -1,
      minimax_api_key: '',
      minimax_group_id: '',
      google_api_key: '',
      elevenlabs_api_key: '',
      did_api_key: '',
      vision_provider: 'none',
      vision_model: '',
      languagetool_url: '',
      languagetool_username: '',
      languagetool_api_key: '',
      essay_check_limit: ESSAY_CHECK_LIMIT,
      updated_at: null,
      updated_by: null,
    }
  )
}

/** Writes the given AI settings of a realm (creating its row with the defaults for the rest). */
export function saveAiSettingsStatement(db: D1Database, realm: string, values: Record<string, string | number>, by: string, at: string): D1PreparedStatement {
  const fields = Object.keys(values)
  const cols = ['realm', ...fields, 'updated_at', 'updated_by']
  const set = [...fields, 'updated_at', 'updated_by'].map((f) => `${f} = excluded.${f}`).join(', ')
  return db
    .prepare(`INSERT INTO realm_ai (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (realm) DO UPDATE SET ${set}`)
    .bind(realm, ...fields.map((f) => values[f]), at, by)
}

/** A realm's operation by its id. */
export function findOperationById(db: D1Database, realm: string, id: string): Promise<AiOperationRow | null> {
  return db.prepare('SELECT * FROM ai_operation WHERE realm = ? AND id = ?').bind(realm, id).first<AiOperationRow>()
}

/** Marks a succeeded operation refunded when its provider's job failed afterwards (an asynchronous job such as a D-ID talk). */
export function operationLateRefundStatement(db: D1Database, id: string, reversal: string | null, error: string, at: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE ai_operation SET status = 'refunded', reversal_transaction = ?, error = ?, updated_at = ? WHERE id = ? AND status = 'succeeded'`)
    .bind(reversal, error, at, id)
}
