import { Hono } from 'hono'
import { DebitBody, ReversalBody, SponsorBody, TransferBody } from '#shared/schemas/ledger'
import {
  accountLabel,
  balanceOf,
  consumptionAccount,
  insufficientCredits,
  ledgerEnabled,
  newBillingKey,
  newTransactionId,
  postingStatements,
  realmWallet,
  resolveNicks,
  runMovement,
  userWallet,
  type AccountRef,
  type Posting,
} from '../../db/ledger'
import { checkWordFilter } from '../../db/word-filter'
import { ApiError, apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { idempotent } from '../../lib/idempotency'
import { type AppEnv, readJson } from '../context'
import { inRealmTree, ledgerAccess, movementAnswer, movementAudit, payingRealm } from './common'

/** POST ledger/transaction/{transfer,debit,sponsor,reversal}: the movements a user starts (seed 000 §7). */
export const movements = new Hono<AppEnv>()

const posting = (
  auth: { realm: string; nick: string },
  type: Posting['type'],
  description: string,
  lines: Posting['lines'],
  extra: Partial<Posting> = {},
): Posting => {
  const now = new Date()
  return {
    id: newTransactionId(),
    realm: auth.realm,
    type,
    actor: auth.nick,
    description,
    lines,
    billingKey: newBillingKey(now),
    createdAt: now.toISOString(),
    ...extra,
  }
}

/** A description recipients read (transfers, sponsorships): stored through the paying realm's word filter, masked. */
const filtered = async (db: D1Database, realm: string, text: string) => (await checkWordFilter(db, realm, text)).text

/**
 * Transfer: `points` to each target, from the caller's wallet or (`from_realm`) a realm's wallet; the targets are
 * users of the paying realm. Unknown recipients are refused all at once, one error per nick (cause not_found).
 */
movements.post(
  '/transfer',
  guarded(ledgerAccess('ledger_transfer_create'), async (c, auth) => {
    const body = await readJson(c, TransferBody)
    return idempotent(c, auth, 'transfer', body, async (done, key) => {
      const realm = body.from_realm ? await payingRealm(c, auth, body.from_realm) : auth.realm
      const source: AccountRef = body.from_realm ? realmWallet(realm) : userWallet(realm, auth.nick)
      const { nicks, missing } = await resolveNicks(c.env.DB, realm, body.targets)
      if (missing.length) {
        throw new ApiError(
          404,
          missing.map((m) => ({ field: `targets.${m.index}`, cause: 'not_found', value: m.nick, message: 'ledger.error.recipient_not_found' })),
        )
      }
      if (new Set(nicks).size !== nicks.length) throw apiError(400, 'duplicate_targets', 'ledger.validation.duplicate_targets', 'targets', nicks)
      if (source.kind === 'user' && nicks.includes(auth.nick)) throw apiError(422, 'self_transfer', 'ledger.error.self_transfer', 'targets', auth.nick)
      const total = body.points * nicks.length
      const p = posting(
        auth,
        'transfer',
        await filtered(c.env.DB, realm, body.description),
        [{ account: source, amount: -total }, ...nicks.map((n) => ({ account: userWallet(realm, n), amount: body.points }))],
        {
          idempotencyKey: key,
          details: { points: body.points, targets: nicks, from_realm: body.from_realm ?? null },
        },
      )
      const answer = { ...movementAnswer(p), points: body.points, total, targets: nicks, source: accountLabel(source), from_realm: body.from_realm ?? null }
      await runMovement(c.env.DB, [...postingStatements(c.env.DB, p), movementAudit(c, auth, p), done({ status: 201, answer })], () =>
        insufficientCredits(c.env.DB, source, total),
      )
      return { status: 201, answer }
    })
  }),
)

/** Debit: charges the caller's wallet the realm's price of each listed content (seed 000 §7). */
movements.post(
  '/debit',
  guarded(ledgerAccess('ledger_transaction_debit'), async (c, auth) => {
    const body = await readJson(c, DebitBody)
    return idempotent(c, auth, 'debit', body, async (done, key) => {
      const { results } = await c.env.DB.prepare('SELECT key, points FROM ledger_content WHERE realm = ? AND key IN (SELECT value FROM json_each(?))')
        .bind(auth.realm, JSON.stringify(body.contents))
        .all<{ key: string; points: number }>()
      const price = new Map(results.map((r) => [r.key, r.points]))
      const unknown = body.contents.map((key, i) => ({ key, i })).filter(({ key }) => !price.has(key))
      if (unknown.length)
        throw new ApiError(
          404,
          unknown.map(({ key, i }) => ({ field: `contents.${i}`, cause: 'not_found', value: key, message: 'ledger.error.content_not_found' })),
        )
      const contents = body.contents.map((key) => ({ key, points: price.get(key) ?? 0 }))
      const total = contents.reduce((s, x) => s + x.points, 0)
      const wallet = userWallet(auth.realm, auth.nick)
      if (total === 0) {
        // Free contents move nothing; the key still remembers the answer.
        const answer = { id: null, billing_key: null, type: 'debit', points: 0, contents }
        await c.env.DB.batch([done({ status: 200, answer })])
        return { status: 200, answer }
      }
      const p = posting(
        auth,
        'debit',
        body.description,
        [
          { account: wallet, amount: -total },
          { account: consumptionAccount(auth.realm), amount: total },
        ],
        {
          idempotencyKey: key,
          details: { contents },
        },
      )
      const answer = { ...movementAnswer(p), points: total, contents }
      await runMovement(c.env.DB, [...postingStatements(c.env.DB, p), movementAudit(c, auth, p), done({ status: 201, answer })], () =>
        insufficientCredits(c.env.DB, wallet, total, 'ledger.error.insufficient_credits_generation'),
      )
      return { status: 201, answer }
    })
  }),
)

/** Sponsorship: funds the wallet of a realm in the caller's tree, from the caller's wallet or `from_realm`'s. */
movements.post(
  '/sponsor',
  guarded(ledgerAccess('ledger_sponsor_create'), async (c, auth) => {
    const body = await readJson(c, SponsorBody)
    return idempotent(c, auth, 'sponsor', body, async (done, key) => {
      if (!(await inRealmTree(c.env.DB, auth, body.realm))) throw apiError(404, 'not_found', 'ledger.error.realm_not_found', 'realm', body.realm)
      if (!(await ledgerEnabled(c.env.DB, body.realm)))
        throw apiError(422, 'disabled', `Realm ${body.realm} does not have ledger_enabled.`, 'realm', body.realm)
      const source = body.from_realm ? realmWallet(await payingRealm(c, auth, body.from_realm)) : userWallet(auth.realm, auth.nick)
      const target = realmWallet(body.realm)
      if (source.kind === 'realm' && source.owner === body.realm) throw apiError(422, 'self_transfer', 'ledger.error.self_transfer', 'realm', body.realm)
      const p = posting(
        auth,
        'sponsor',
        await filtered(c.env.DB, auth.realm, body.description),
        [
          { account: source, amount: -body.points },
          { account: target, amount: body.points },
        ],
        {
          idempotencyKey: key,
          details: { realm: body.realm, from_realm: body.from_realm ?? null },
        },
      )
      const answer = { ...movementAnswer(p), points: body.points, realm: body.realm, source: accountLabel(source) }
      await runMovement(c.env.DB, [...postingStatements(c.env.DB, p), movementAudit(c, auth, p), done({ status: 201, answer })], () =>
        insufficientCredits(c.env.DB, source, body.points),
      )
      return { status: 201, answer }
    })
  }),
)

/**
 * Reversal: the only correction the ledger knows. Posts the exact opposite of a transaction of the caller's realm;
 * refused when a credited wallet no longer holds the credits (422), when already reversed (409), or for a reversal.
 */
movements.post(
  '/reversal',
  guarded(ledgerAccess('ledger_transaction_reverse'), async (c, auth) => {
    const body = await readJson(c, ReversalBody)
    return idempotent(c, auth, 'reversal', body, async (done, key) => {
      const db = c.env.DB
      const original = await db
        .prepare('SELECT id, type, billing_key FROM ledger_transaction WHERE id = ? AND realm = ?')
        .bind(body.transaction_id, auth.realm)
        .first<{ id: string; type: string; billing_key: string }>()
      if (!original) throw apiError(404, 'not_found', 'ledger.error.transaction_not_found', 'transaction_id', body.transaction_id)
      if (original.type === 'reversal') throw apiError(422, 'not_reversible', 'ledger.error.not_reversible', 'transaction_id', body.transaction_id)
      if (await db.prepare('SELECT 1 FROM ledger_transaction WHERE reverses = ?').bind(original.id).first()) {
        throw apiError(409, 'already_reversed', 'ledger.error.already_reversed', 'transaction_id', body.transaction_id)
      }
      const { results } = await db
        .prepare(
          'SELECT a.realm, a.kind, a.owner, e.amount FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE e.transaction_id = ? ORDER BY e.id',
        )
        .bind(original.id)
        .all<AccountRef & { amount: number }>()
      const lines = results.map((r) => ({ account: { realm: r.realm, kind: r.kind, owner: r.owner }, amount: -r.amount }))
      const p = posting(auth, 'reversal', body.description || `Reversal of ${original.billing_key}`, lines, {
        idempotencyKey: key,
        reverses: original.id,
        details: { reverses_type: original.type },
      })
      const points = lines.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0)
      const answer = { ...movementAnswer(p), points, reverses: original.id }
      // The wallet that no longer holds what it received is named in the refusal.
      const short = async () => {
        for (const l of lines.filter((x) => x.amount < 0)) {
          const available = await balanceOf(db, l.account)
          if (available < -l.amount)
            return apiError(422, 'insufficient_credits', 'ledger.error.reversal_insufficient', 'transaction_id', {
              account: accountLabel(l.account),
              required: -l.amount,
              available,
            })
        }
        return apiError(422, 'insufficient_credits', 'ledger.error.reversal_insufficient', 'transaction_id', null)
      }
      await runMovement(db, [...postingStatements(db, p), movementAudit(c, auth, p), done({ status: 201, answer })], short)
      return { status: 201, answer }
    })
  }),
)
