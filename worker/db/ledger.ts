import type { AccountKind, TransactionType } from '#shared/schemas/ledger-entity'
import { withNickSuffix } from '../api/device'
import { randomToken } from '../lib/crypto'
import { ApiError, apiError } from '../lib/errors'

/** An account by what it is; its id is derived, so a batch can create and use it without a prior read. */
export interface AccountRef {
  realm: string
  kind: AccountKind
  owner: string
}

export const accountId = (a: AccountRef) => `${a.kind}:${a.realm}:${a.owner}`
export const userWallet = (realm: string, nick: string) => ({ realm, kind: 'user', owner: nick }) satisfies AccountRef
export const realmWallet = (realm: string) => ({ realm, kind: 'realm', owner: realm }) satisfies AccountRef
export const issuanceAccount = (realm: string): AccountRef => ({ realm, kind: 'issuance', owner: '' })
export const consumptionAccount = (realm: string): AccountRef => ({ realm, kind: 'consumption', owner: '' })
/** How an account is shown in answers: `<kind>:<owner>` (e.g. `user:root@demo`, `realm:demo`). */
export const accountLabel = (a: AccountRef) => `${a.kind}:${a.owner}`

export interface Line {
  account: AccountRef
  amount: number
}

export interface Posting {
  id: string
  realm: string
  type: TransactionType
  actor: string
  description: string
  /** Amounts must sum to zero; lines of one account are combined. */
  lines: Line[]
  reverses?: string
  details?: Record<string, unknown>
  idempotencyKey?: string
  billingKey: string
  createdAt: string
}

const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A readable, unique reference of a movement (answered as `billing_key`), e.g. `BK20260421-7Q2M9XK4TD`. */
export function newBillingKey(now = new Date()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10))
  const code = [...bytes].map((b) => BASE32[b % 32]).join('')
  return `BK${now.toISOString().slice(0, 10).replace(/-/g, '')}-${code}`
}

export const newTransactionId = () => `tx_${randomToken(12)}`

/**
 * The statements that post a transaction, to run in ONE db.batch() together with the caller's own statements
 * (idempotency answer, audit record, intent status): account rows with their balance changes, entries, then the transaction
 * row, whose trigger refuses it unless the entries sum to zero. A wallet going below zero violates its CHECK and
 * rolls the whole batch back. With `once`, every statement is skipped when the transaction id already exists, so
 * posting the same id twice changes nothing (seed, provider confirmations).
 */
export function postingStatements(db: D1Database, p: Posting, opts: { once?: boolean } = {}): D1PreparedStatement[] {
  const net = new Map<string, { ref: AccountRef; amount: number }>()
  for (const line of p.lines) {
    const id = accountId(line.account)
    const found = net.get(id)
    if (found) found.amount += line.amount
    else net.set(id, { ref: line.account, amount: line.amount })
  }
  const lines = [...net.entries()].filter(([, l]) => l.amount !== 0).map(([id, l]) => ({ id, ...l.ref, amount: l.amount }))
  if (lines.reduce((s, l) => s + l.amount, 0) !== 0) throw new Error(`unbalanced posting ${p.id}`)
  const points = lines.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0)
  const json = JSON.stringify(lines)
  const once = opts.once ? 'AND NOT EXISTS (SELECT 1 FROM ledger_transaction WHERE id = ?)' : ''
  const onceParams = opts.once ? [p.id] : []
  // Lists travel as one JSON parameter (json_each): D1 caps bound parameters per statement.
  return [
    // New accounts are created holding their line's amount, known ones move by it: one upsert. A wallet going below
    // zero fails wallet_not_negative either way. (SQLite checks CHECK constraints on the row it would insert before
    // the conflict, so that row holds 0 for an account that exists, and the update adds the amount.)
    db
      .prepare(
        `INSERT INTO ledger_account (id, realm, kind, owner, balance, created_at, updated_at)
         SELECT j.value ->> 'id', j.value ->> 'realm', j.value ->> 'kind', j.value ->> 'owner',
                CASE WHEN EXISTS (SELECT 1 FROM ledger_account a WHERE a.id = j.value ->> 'id') THEN 0 ELSE j.value ->> 'amount' END, ?1, ?1
         FROM json_each(?2) j WHERE 1 ${opts.once ? 'AND NOT EXISTS (SELECT 1 FROM ledger_transaction WHERE id = ?3)' : ''}
         ON CONFLICT (id) DO UPDATE SET balance = balance + (SELECT j.value ->> 'amount' FROM json_each(?2) j WHERE j.value ->> 'id' = excluded.id), updated_at = ?1`,
      )
      .bind(p.createdAt, json, ...onceParams),
    db
      .prepare(
        `INSERT INTO ledger_entry (transaction_id, realm, account_id, amount, created_at)
         SELECT ?, j.value ->> 'realm', j.value ->> 'id', j.value ->> 'amount', ? FROM json_each(?) j WHERE 1 ${once} ORDER BY j.key`,
      )
      .bind(p.id, p.createdAt, json, ...onceParams),
    db
      .prepare(
        `INSERT INTO ledger_transaction (id, realm, type, actor, description, billing_key, points, reverses, details, idempotency_key, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE 1 ${once}`,
      )
      .bind(
        p.id,
        p.realm,
        p.type,
        p.actor,
        p.description,
        p.billingKey,
        points,
        p.reverses ?? null,
        JSON.stringify(p.details ?? {}),
        p.idempotencyKey ?? null,
        p.createdAt,
        ...onceParams,
      ),
  ]
}

/** Runs a movement's batch; a wallet that would go below zero is the "insufficient credits" refusal (422). */
export async function runMovement(db: D1Database, statements: D1PreparedStatement[], insufficient: () => Promise<ApiError>): Promise<D1Result[]> {
  try {
    return await db.batch(statements)
  } catch (err) {
    const text = String(err)
    if (text.includes('wallet_not_negative')) throw await insufficient()
    if (text.includes('ledger_transaction.reverses')) throw apiError(409, 'already_reversed', 'ledger.error.already_reversed', 'transaction_id')
    throw err
  }
}

/** The 422 of a movement that needs more credits than the wallet holds, with what it needs and what it holds. */
export async function insufficientCredits(
  db: D1Database,
  wallet: AccountRef,
  required: number,
  message = 'ledger.error.insufficient_credits',
): Promise<ApiError> {
  const available = await balanceOf(db, wallet)
  return apiError(422, 'insufficient_credits', message, 'points', { required, available })
}

/** An account's balance (0 when it has never moved). */
export async function balanceOf(db: D1Database, account: AccountRef): Promise<number> {
  const row = await db.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(accountId(account)).first<{ balance: number }>()
  return row?.balance ?? 0
}

/**
 * Recipients as typed → their nicks in the realm: an exact nick, else the nick with the realm's suffix appended
 * (as at sign-in). Disabled users are not recipients. Answers the resolved nicks and those not found.
 */
export async function resolveNicks(db: D1Database, realm: string, typed: string[]): Promise<{ nicks: string[]; missing: { index: number; nick: string }[] }> {
  return nicksFrom(await resolveNicksRead(db, realm, typed).all(), typed)
}

/** The one read of resolveNicks (the realm's suffix with the matching users), for a caller's batch. */
export function resolveNicksRead(db: D1Database, realm: string, typed: string[]): D1PreparedStatement {
  return db
    .prepare(
      `SELECT r.nick_suffix, u.nick FROM realm r
       LEFT JOIN user u ON u.realm = r.code AND u.disabled = 0
         AND u.nick IN (SELECT value FROM json_each(?2) UNION ALL SELECT value || r.nick_suffix FROM json_each(?2) WHERE r.nick_suffix <> '')
       WHERE r.code = ?1`,
    )
    .bind(realm, JSON.stringify([...new Set(typed)]))
}

/** resolveNicks' answer from the result of resolveNicksRead. */
export function nicksFrom(result: D1Result, typed: string[]): { nicks: string[]; missing: { index: number; nick: string }[] } {
  const rows = result.results as { nick_suffix: string; nick: string | null }[]
  const suffix = rows[0]?.nick_suffix ?? ''
  const known = new Set(rows.flatMap((r) => (r.nick ? [r.nick] : [])))
  const nicks: string[] = []
  const missing: { index: number; nick: string }[] = []
  typed.forEach((t, index) => {
    const nick = known.has(t) ? t : known.has(withNickSuffix(t, suffix)) ? withNickSuffix(t, suffix) : null
    if (nick) nicks.push(nick)
    else missing.push({ index, nick: t })
  })
  return { nicks, missing }
}

/** True when the realm exists and has the ledger enabled. */
export async function ledgerEnabled(db: D1Database, realm: string): Promise<boolean> {
  const row = await db.prepare('SELECT ledger_enabled FROM realm WHERE code = ?').bind(realm).first<{ ledger_enabled: number }>()
  return row?.ledger_enabled === 1
}

/**
 * The realm's credits for new users (`ledger_new_user_credits`), issued to a new user's wallet in the batch that
 * creates the user, when the realm keeps a ledger. The movement is an issuance whose id and idempotency key derive
 * from the nick, posted `once`: a nick gets them at most once per realm (deleting and creating it again gives
 * nothing more). No statements when the realm has no ledger or gives nothing.
 */
export function newUserCreditStatements(
  db: D1Database,
  realm: { code: string; ledger_enabled?: unknown; ledger_new_user_credits?: unknown },
  nick: string,
  actor: string,
): D1PreparedStatement[] {
  const points = Number(realm.ledger_new_user_credits ?? 0)
  if (Number(realm.ledger_enabled) !== 1 || !(points > 0)) return []
  const now = new Date()
  const key = `new_user:${nick}`
  return postingStatements(
    db,
    {
      id: `nu_${realm.code}_${nick}`,
      realm: realm.code,
      type: 'issuance',
      actor,
      description: 'Credits for new users',
      lines: [
        { account: issuanceAccount(realm.code), amount: -points },
        { account: userWallet(realm.code, nick), amount: points },
      ],
      details: { reason: 'new_user', nick },
      idempotencyKey: key,
      billingKey: newBillingKey(now),
      createdAt: now.toISOString(),
    },
    { once: true },
  )
}
