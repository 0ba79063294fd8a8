import { PAID_OPERATIONS, type PaidOperationKind } from '#shared/schemas/ai'
import {
  adjustCreditsStatement,
  findOperation,
  findOperationById,
  insertOperationStatement,
  operationLateRefundStatement,
  operationRefundedStatement,
  operationSucceededStatement,
  reserveCredits,
  type AiOperationRow,
} from '../db/ai'
import { auditStatement } from '../db/audit'
import { runBatch } from '../db/batch'
import { contentPrices } from '../db/ledger-catalog'
import {
  consumptionAccount,
  insufficientCredits,
  newBillingKey,
  newTransactionId,
  postingStatements,
  runMovement,
  userWallet,
  type Posting,
} from '../db/ledger'
import { randomToken, sha256Hex } from '../lib/crypto'
import { ApiError, apiError } from '../lib/errors'
import { monthOf, settingsOf } from './index'
import { AiError } from './types'

/** A paid AI call as the caller asks for it. */
export interface PaidRequest {
  kind: PaidOperationKind
  /** The provider that will be called (recorded with the operation). */
  provider: string
  /** The attempt's key: the same key is the same operation (one debit, one provider call). */
  idempotencyKey: string
  /** The price the user saw and confirmed; refused when the price list now says otherwise. */
  confirmPoints: number
  /** How many of the price list's unit this call is (narration: started 1,000 characters); 1 when absent. */
  units?: number
  /** What is asked (its hash binds the key: the same key for another request is refused). */
  request: Record<string, unknown>
  requestId?: string
}

/** A paid operation as answered. */
export interface PaidOperation {
  id: string
  kind: string
  status: AiOperationRow['status']
  points: number
  provider: string
  debit_transaction: string | null
  reversal_transaction: string | null
  result: Record<string, unknown>
  error: string | null
}

const answerOf = (row: AiOperationRow): PaidOperation => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  points: row.points,
  provider: row.provider,
  debit_transaction: row.debit_transaction,
  reversal_transaction: row.reversal_transaction,
  result: JSON.parse(row.result || '{}') as Record<string, unknown>,
  error: row.error,
})

/** The refusal of a refunded operation (the provider failed; the credits are back). */
const refundedError = (op: PaidOperation) =>
  new ApiError(502, [
    {
      field: 'provider',
      cause: 'ai_provider_failed',
      value: { operation: op.id, refunded: true, reversal: op.reversal_transaction },
      message: 'ai.error.provider_failed_refunded',
    },
  ])

/** The seed's message of a short wallet per operation; content generation says "insufficient credits for generating a lesson". */
const INSUFFICIENT: Partial<Record<PaidOperationKind, string>> = {
  animation: 'persona.error.insufficient_credits_animation',
  voice_clone: 'ai.error.insufficient_credits_voice_clone',
  answer_revision: 'correct.ai.insufficient_credits',
}

/**
 * Runs a paid AI call (docs ai.md "credits before cost"): the price comes from the realm's price list and must equal
 * the one the user confirmed; the month's cap is reserved; then ONE batch records the operation under its
 * idempotency key and debits the user's wallet (refused whole when the wallet is short); only then is the provider
 * called. When the provider fails, ONE batch posts the debit's reversal, marks the operation refunded and gives the
 * cap back. A second call with the same key never debits or calls the provider again: it answers the operation as
 * it stands (the provider's result, or the refund's refusal). Realms without the ledger pay nothing (nothing to
 * debit) but their cap still counts the price.
 */
export async function paidOperation(
  env: Env,
  actor: { realm: string; nick: string },
  req: PaidRequest,
  call: () => Promise<Record<string, unknown>>,
): Promise<{ operation: PaidOperation; replayed: boolean }> {
  const db = env.DB
  const contentKey = PAID_OPERATIONS[req.kind]
  const hash = await sha256Hex(JSON.stringify({ kind: req.kind, actor: actor.nick, request: req.request }))

  const existing = await findOperation(db, actor.realm, req.idempotencyKey)
  if (existing) return replay(existing, hash, req.idempotencyKey)

  const settings = await settingsOf(env, actor.realm)
  const price = ((await contentPrices(db, actor.realm, [contentKey])).get(contentKey) ?? 0) * (req.units ?? 1)
  if (price !== req.confirmPoints) throw apiError(409, 'price_changed', 'ai.error.price_changed', 'confirm_points', { points: price })
  const points = settings.ledgerEnabled ? price : 0
  const month = monthOf(settings.timeZone)
  const at = () => new Date().toISOString()
  if (price > 0 && !(await reserveCredits(db, actor.realm, month, price, at())))
    throw apiError(429, 'ai_cap_reached', 'ai.error.cap_reached', 'realm', { cap: settings.cap, month })
  const giveBack = () => (price > 0 ? adjustCreditsStatement(db, actor.realm, month, -price, at()).run() : Promise.resolve())

  const id = `aio_${randomToken(12)}`
  const wallet = userWallet(actor.realm, actor.nick)
  const debit: Posting | null =
    points > 0
      ? {
          id: newTransactionId(),
          realm: actor.realm,
          type: 'debit',
          actor: actor.nick,
          description: `${contentKey} (${req.provider})`,
          lines: [
            { account: wallet, amount: -points },
            { account: consumptionAccount(actor.realm), amount: points },
          ],
          details: { contents: [{ key: contentKey, points }], ai_operation: id },
          idempotencyKey: `ai:${req.idempotencyKey}`,
          billingKey: newBillingKey(),
          createdAt: at(),
        }
      : null
  try {
    await runMovement(
      db,
      [
        insertOperationStatement(
          db,
          {
            id,
            realm: actor.realm,
            actor: actor.nick,
            kind: req.kind,
            content_key: contentKey,
            idempotency_key: req.idempotencyKey,
            request_hash: hash,
            points,
            month,
            provider: req.provider,
            debit_transaction: debit?.id ?? null,
          },
          at(),
        ),
        ...(debit ? postingStatements(db, debit) : []),
        auditStatement(db, {
          realm: actor.realm,
          actor: actor.nick,
          action: 'debit',
          entity: 'ai_operation',
          entityId: id,
          after: { kind: req.kind, provider: req.provider, points, transaction: debit?.id ?? null },
          requestId: req.requestId,
        }),
      ],
      () => insufficientCredits(db, wallet, points, INSUFFICIENT[req.kind] ?? 'genesis.error.insufficient_credits'),
    )
  } catch (err) {
    await giveBack()
    // Another call with the same key committed first: answer its operation.
    if (/UNIQUE constraint failed: ai_operation/.test(String(err))) {
      const winner = await findOperation(db, actor.realm, req.idempotencyKey)
      if (winner) return replay(winner, hash, req.idempotencyKey)
    }
    throw err
  }

  let result: Record<string, unknown>
  try {
    result = await call()
  } catch (err) {
    const reason = err instanceof AiError ? `${err.code}: ${String(err.detail)}` : 'provider error'
    const reversal: Posting | null = debit
      ? {
          id: newTransactionId(),
          realm: actor.realm,
          type: 'reversal',
          actor: actor.nick,
          description: `Refund: ${contentKey} (${req.provider} failed)`,
          lines: debit.lines.map((l) => ({ account: l.account, amount: -l.amount })),
          reverses: debit.id,
          details: { reverses_type: 'debit', ai_operation: id },
          billingKey: newBillingKey(),
          createdAt: at(),
        }
      : null
    await runBatch(db, [
      ...(reversal ? postingStatements(db, reversal) : []),
      operationRefundedStatement(db, id, reversal?.id ?? null, reason.slice(0, 500), at()),
      ...(price > 0 ? [adjustCreditsStatement(db, actor.realm, month, -price, at())] : []),
    ])
    const row = await findOperation(db, actor.realm, req.idempotencyKey)
    throw refundedError(
      row
        ? answerOf(row)
        : {
            id,
            kind: req.kind,
            status: 'refunded',
            points,
            provider: req.provider,
            debit_transaction: debit?.id ?? null,
            reversal_transaction: reversal?.id ?? null,
            result: {},
            error: reason,
          },
    )
  }
  await runBatch(db, [operationSucceededStatement(db, id, result, at())])
  const row = await findOperation(db, actor.realm, req.idempotencyKey)
  if (!row) throw new Error(`ai_operation ${id} vanished`)
  return { operation: answerOf(row), replayed: false }
}

function replay(row: AiOperationRow, hash: string, key: string): { operation: PaidOperation; replayed: boolean } {
  if (row.request_hash !== hash) throw apiError(422, 'idempotency_mismatch', 'ledger.error.idempotency_mismatch', 'idempotency_key', key)
  if (row.status === 'running') throw apiError(409, 'idempotency_in_progress', 'ledger.error.idempotency_in_progress', 'idempotency_key', key)
  const op = answerOf(row)
  if (row.status === 'refunded') throw refundedError(op)
  return { operation: op, replayed: true }
}

/**
 * Refunds an operation whose provider accepted the call but whose job failed later (a D-ID talk answered `error`):
 * ONE batch posts the debit's reversal, marks the operation refunded and gives the cap back. A second refund of the
 * same operation changes nothing (the ledger reverses a transaction at most once, so the racing batch fails whole).
 * Answers whether this call refunded it.
 */
export async function refundOperation(env: Env, realm: string, operationId: string, reason: string): Promise<boolean> {
  const db = env.DB
  const row = await findOperationById(db, realm, operationId)
  if (!row || row.status !== 'succeeded') return false
  const at = () => new Date().toISOString()
  const contentKey = row.content_key
  const reversal: Posting | null =
    row.debit_transaction && row.points > 0
      ? {
          id: newTransactionId(),
          realm,
          type: 'reversal',
          actor: row.actor,
          description: `Refund: ${contentKey} (${row.provider} failed)`,
          lines: [
            { account: userWallet(realm, row.actor), amount: row.points },
            { account: consumptionAccount(realm), amount: -row.points },
          ],
          reverses: row.debit_transaction,
          details: { reverses_type: 'debit', ai_operation: row.id },
          billingKey: newBillingKey(),
          createdAt: at(),
        }
      : null
  // The cap counted the price: the points debited, or (a realm without the ledger debits nothing) today's price.
  const credits = row.points || ((await contentPrices(db, realm, [contentKey])).get(contentKey) ?? 0)
  try {
    const results = await runBatch(db, [
      operationLateRefundStatement(db, row.id, reversal?.id ?? null, reason.slice(0, 500), at()),
      ...(reversal ? postingStatements(db, reversal) : []),
      ...(credits > 0 ? [adjustCreditsStatement(db, realm, row.month, -credits, at())] : []),
    ])
    return (results[0]?.meta.changes ?? 0) > 0
  } catch (err) {
    if (/UNIQUE constraint failed/.test(String(err))) return false
    throw err
  }
}
