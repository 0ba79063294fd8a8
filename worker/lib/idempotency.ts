import type { TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
import {
  claimKey,
  idempotencyRead,
  idempotencyStore,
  keyDoneStatement,
  releaseKey,
  retakeStaleKey,
  takeOverStatement,
  type IdempotencyRow,
} from '../db/ledger-idempotency'
import { IdempotencyKey } from '#shared/schemas/ledger'
import type { Ctx } from '../api/context'
import { parse } from '../api/context'
import type { Auth } from '../db/sessions'
import { sha256Hex } from './crypto'
import { apiError } from './errors'

/** A key whose first request died before its batch committed (nothing was posted) may be used again after this. */
export const STALE_PENDING_MS = 5 * 60 * 1000

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value ?? null)
}

/** The idempotency key of a call: the body's `idempotency_key`, else the `Idempotency-Key` header; required. */
export function idempotencyKeyOf(c: Ctx, body: { idempotency_key?: string }): string {
  const header = c.req.header('idempotency-key')
  const key = body.idempotency_key ?? (header === undefined ? undefined : parse(IdempotencyKey, header))
  if (!key) throw apiError(400, 'required', 'validation.required', 'idempotency_key')
  if (body.idempotency_key && header && header.trim() !== body.idempotency_key) {
    throw apiError(400, 'invalid', 'The Idempotency-Key header and the body disagree.', 'idempotency_key', null)
  }
  return key
}

/** What a key is bound to: the endpoint, the caller and the body without the key itself. */
export function requestHash(endpoint: string, actor: string, body: Record<string, unknown>): Promise<string> {
  const { idempotency_key: _key, ...rest } = body
  return sha256Hex(canonical({ endpoint, actor, body: rest }))
}

/** What a state-changing call answers: its status and JSON, stored with the key and answered again on a replay. */
export interface Outcome<A extends object = object> {
  status: ContentfulStatusCode
  answer: A
}

/**
 * The Response of an idempotent call, typed as `c.json(answer, status)` is: the typed client (`hono/client`) reads
 * the handler's answer from it, a replayed answer included (it is the same JSON, stored when the call was first made).
 */
export type Answered<A extends object> = Response & TypedResponse<JSONParsed<A>, ContentfulStatusCode, 'json'>

/** The answer stored for a key, as first answered (the request hash binds the key to this endpoint, so to `A`). */
function replayed<A extends object>(c: Ctx, row: IdempotencyRow): Answered<A> {
  return c.json(JSON.parse(row.response) as A, row.response_status as ContentfulStatusCode, { 'Idempotent-Replayed': 'true' })
}

/**
 * Runs a state-changing call at most once per (realm, key). The key is claimed as `pending` with a hash of the
 * endpoint, the caller and the validated body (the key itself left out). Then:
 * - the same key and body again → the stored answer, nothing posted again;
 * - the same key with another body → 422 `idempotency_mismatch`;
 * - while the first call is still running → 409 `idempotency_in_progress`.
 * `run` receives `done(outcome)`, the statement that stores the answer, to put in the SAME batch as the movement
 * (its outcome is not tied to `A`, so TypeScript infers the answer type from what `run` returns),
 * so the movement and its stored answer commit together. A refused call (any error) frees the key: nothing was
 * posted, and the client may send the request again.
 */
export async function idempotent<A extends object>(
  c: Ctx,
  auth: Auth,
  endpoint: string,
  body: { idempotency_key?: string } & Record<string, unknown>,
  run: (done: (o: Outcome) => D1PreparedStatement, key: string) => Promise<Outcome<A>>,
): Promise<Answered<A>> {
  const db = c.env.DB
  const key = idempotencyKeyOf(c, body)
  const hash = await requestHash(endpoint, auth.nick, body)
  const now = new Date()

  if (!(await claimKey(db, auth.realm, key, hash, now.toISOString()))) {
    const row = await idempotencyRead(db, auth.realm, key).first<IdempotencyRow>()
    if (!row) throw apiError(409, 'idempotency_in_progress', 'ledger.error.idempotency_in_progress', 'idempotency_key', key)
    if (row.request_hash !== hash) throw apiError(422, 'idempotency_mismatch', 'ledger.error.idempotency_mismatch', 'idempotency_key', key)
    if (row.status === 'done') return replayed<A>(c, row)
    // A pending claim older than STALE_PENDING_MS belongs to a request that died before committing: take it over.
    const stale = new Date(now.getTime() - STALE_PENDING_MS).toISOString()
    if (!(await retakeStaleKey(db, auth.realm, key, row.created_at, stale, now.toISOString())))
      throw apiError(409, 'idempotency_in_progress', 'ledger.error.idempotency_in_progress', 'idempotency_key', key)
  }

  const done = (o: Outcome) => keyDoneStatement(db, auth.realm, key, o.status, o.answer)
  try {
    const outcome = await run(done, key)
    return c.json(outcome.answer, outcome.status)
  } catch (err) {
    await releaseKey(db, auth.realm, key)
    throw err
  }
}

/** The key's row read and the answer's INSERT, for the one-batch form below (they live in worker/db). */
export { idempotencyRead, idempotencyStore }

/**
 * The one-batch form of `idempotent` (the hot path of transfers: one read batch, one write batch). The key's row
 * comes with the caller's reads; when it exists the call answers as `idempotent` does (the stored answer, 422 for
 * another body, 409 while a first call runs) — `replay` returns that Response, or the statement that takes over a
 * stale pending claim. Otherwise the answer is stored by `idempotencyStore`, a plain INSERT in the movement's
 * batch: a concurrent call with the same key fails that INSERT on the primary key and its batch rolls back whole,
 * so at most one movement is posted per (realm, key); `afterConflict` then answers from the winner's row.
 */
export async function replay<A extends object>(
  c: Ctx,
  realm: string,
  key: string,
  hash: string,
  row: IdempotencyRow | undefined,
): Promise<{ response: Answered<A> } | { takeOver: D1PreparedStatement } | null> {
  if (!row) return null
  if (row.request_hash !== hash) throw apiError(422, 'idempotency_mismatch', 'ledger.error.idempotency_mismatch', 'idempotency_key', key)
  if (row.status === 'done') return { response: replayed<A>(c, row) }
  const stale = new Date(Date.now() - STALE_PENDING_MS).toISOString()
  if (row.created_at >= stale) throw apiError(409, 'idempotency_in_progress', 'ledger.error.idempotency_in_progress', 'idempotency_key', key)
  // A pending claim of a call that died before committing: removed in the same batch that stores this answer.
  return {
    takeOver: takeOverStatement(c.env.DB, realm, key, row.created_at),
  }
}

/** True when a batch failed because another call stored the same key first. */
export function isKeyConflict(err: unknown): boolean {
  return /UNIQUE constraint failed: ledger_idempotency/.test(String(err))
}

/** The answer to a call whose batch lost the race for its key: as the winner's row says. */
export async function afterConflict<A extends object>(c: Ctx, realm: string, key: string, hash: string): Promise<Answered<A>> {
  const row = await idempotencyRead(c.env.DB, realm, key).first<IdempotencyRow>()
  const found = await replay<A>(c, realm, key, hash, row ?? undefined)
  if (found && 'response' in found) return found.response
  throw apiError(409, 'idempotency_in_progress', 'ledger.error.idempotency_in_progress', 'idempotency_key', key)
}
