import * as v from 'valibot'
import { runBatch } from '../../db/batch'
import { contentPrices, packageOnSale } from '../../db/ledger-catalog'
import { findTransaction, isReversed, ledgerInvariants, movementsOfUsers, transactionLines } from '../../db/ledger-history'
import { findOwnIntent, insertIntentStatement } from '../../db/ledger-payments'
import { realmNickSuffix } from '../../db/realms'
import { accountEntity, movementEntity, packageEntity, type LedgerPackage } from '#shared/schemas/ledger-entity'
import { withNickSuffix } from '../device'
import {
  realmWallet,
  userWallet,
  type AccountRef,
  newBillingKey,
  postingStatements,
  type Posting,
  accountLabel,
  accountId,
  balanceOf,
  consumptionAccount,
  insufficientCredits,
  ledgerEnabled,
  newTransactionId,
  nicksFrom,
  runMovement,
} from '../../db/ledger'
import type { Scope } from '../../lib/entity'
import { apiError, ApiError } from '../../lib/errors'
import { type AppEnv, type Ctx, pathParam, readQuery, origin } from '../context'
import { and, inRealmTree, ledgerAccess, listAnswer, Period, periodScope, movementAnswer, movementAudit, payingRealm, realmDevelopment } from './common'
import { Hono } from 'hono'
import { IntentBody, PurchaseBody, DebitBody, ReversalBody, SponsorBody, TransferBody } from '#shared/schemas/ledger'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { randomToken, sha256Hex } from '../../lib/crypto'
import { decodeRow } from '../../lib/entity'
import { afterConflict, idempotencyKeyOf, idempotencyRead, idempotencyStore, idempotent, isKeyConflict, replay, requestHash } from '../../lib/idempotency'
import { providerByCode, type PaymentProvider, type ProviderKind } from '../../lib/payments'
import { checkWordFilter } from '../../db/word-filter'
import {
  forgetTransferReads,
  isStaleReads,
  rememberedTransferReads,
  transferReadsFrom,
  transferReadStatements,
  transferStoreIf,
  type TransferReads,
} from '../../db/ledger-transfer'
import { guarded, guardedJson } from '../../lib/guard'
import { recordStatements } from '../../db/ledger-group'
import { takeOverStatement } from '../../db/ledger-idempotency'

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

/** The return address after checkout: a same-origin path given by the console, else the package's purchase page. */
function returnUrl(c: Ctx, given: string | undefined, packageId: string, intentId: string): string {
  const base = origin(c)
  let url = new URL(`/ledger/package/purchase/${encodeURIComponent(packageId)}`, base)
  if (given) {
    // The schema admits only a local path or an absolute http(s) address, so this parses.
    const wanted = new URL(given, base)
    if (wanted.origin !== base) throw apiError(400, 'invalid', 'The return address must be on this console.', 'provider_data.return_url', given)
    url = wanted
  }
  url.searchParams.set('intent', intentId)
  return url.toString()
}

/**
 * Starts a purchase with a provider of the expected kind: stores the intent (pending), and answers where the buyer
 * pays. Nothing is issued here; the provider's confirmation does it.
 */
async function startPurchase(
  c: Ctx,
  auth: Auth,
  kind: ProviderKind,
  body: { provider: string; product_id: string; provider_data: { return_url?: string; transaction_amount?: number; description?: string } },
) {
  const db = c.env.DB
  const provider: PaymentProvider | undefined = providerByCode(body.provider)
  if (!provider || provider.kind !== kind || !(await provider.available(c.env, { development: await realmDevelopment(db, auth.realm) }))) {
    throw apiError(422, 'provider_unavailable', 'ledger.error.provider_unavailable', 'provider', body.provider)
  }
  const raw = await packageOnSale(db, auth.realm, body.product_id)
  if (!raw) throw apiError(404, 'not_found', 'ledger.error.package_not_found', 'product_id', body.product_id)
  const pkg = decodeRow(packageEntity, raw) as LedgerPackage
  const amount = body.provider_data.transaction_amount
  if (amount !== undefined && Math.abs(amount - pkg.cost) > 0.001) {
    throw apiError(422, 'amount_mismatch', 'ledger.error.amount_mismatch', 'provider_data.transaction_amount', { expected: pkg.cost, given: amount })
  }
  const intentId = `pi_${randomToken(12)}`
  const description = body.provider_data.description || `${pkg.name} (${pkg.points})`
  let started
  try {
    started = await provider.start(c.env, { intentId, amount: pkg.cost, currency: pkg.currency, description, origin: origin(c) })
  } catch (err) {
    console.error(`[${c.get('requestId')}] payment provider ${provider.code} failed:`, err)
    throw apiError(502, 'purchase_failed', 'ledger.error.purchase_process', 'provider', provider.code)
  }
  const now = new Date().toISOString()
  const back = returnUrl(c, body.provider_data.return_url, pkg.id, intentId)
  const intent = {
    id: intentId,
    provider: provider.code,
    status: 'pending',
    package_id: pkg.id,
    points: pkg.points,
    amount: pkg.cost,
    currency: pkg.currency,
    description,
  }
  await runBatch(db, [
    insertIntentStatement(db, auth.realm, {
      id: intentId,
      nick: auth.nick,
      provider: provider.code,
      packageId: pkg.id,
      points: pkg.points,
      amount: pkg.cost,
      currency: pkg.currency,
      description,
      providerRef: started.providerRef,
      clientSecretHash: await sha256Hex(started.clientSecret),
      checkoutUrl: started.checkoutUrl,
      returnUrl: back,
      at: now,
    }),
    auditStatement(db, {
      realm: auth.realm,
      actor: auth.nick,
      action: 'create',
      entity: 'ledger_payment_intent',
      entityId: intentId,
      after: intent,
      requestId: c.get('requestId'),
    }),
  ])
  return {
    status: 201 as const,
    answer: { ...intent, checkout_url: started.checkoutUrl, client_secret: started.clientSecret, qr_code: started.qrCode ?? null, return_url: back },
  }
}

/** The realm a balance query addresses: the caller's, or `?realm=` when it lies in the caller's tree. */
async function balanceRealm(c: Ctx, auth: Auth): Promise<string> {
  const realm = c.req.query('realm') || auth.realm
  if (realm !== auth.realm && !(await inRealmTree(c.env.DB, auth, realm)))
    throw apiError(403, 'forbidden', `Realm ${realm} is outside your realms.`, 'realm', realm)
  return realm
}

/** A debit's answer: the movement, or (only free contents) no movement at all; with the contents and their prices. */
type DebitAnswer = (ReturnType<typeof movementAnswer> | { id: null; billing_key: null; type: 'debit' }) & {
  points: number
  contents: { key: string; points: number }[]
}

/**
 * /api/ledger/transaction/*: the movements a user starts (transfer, debit, sponsor, reversal), purchases
 * (create-intent, purchase, intent/{id}) and the account queries (seed 000 §7), registered in that order.
 */
export const transaction = new Hono<AppEnv>()
  /**
   * Transfer: `points` to each target, from the caller's wallet or (`from_realm`) a realm's wallet; the targets are
   * users of the paying realm. Unknown recipients are refused all at once, one error per nick (cause not_found).
   */
  .post(
    '/transfer',
    guardedJson(ledgerAccess('ledger_transfer_create'), TransferBody, async (c, auth, body) => {
      const db = c.env.DB
      const key = idempotencyKeyOf(c, body)
      const hash = await requestHash('transfer', auth.nick, body)
      const realm = body.from_realm ?? auth.realm
      const source: AccountRef = body.from_realm ? realmWallet(realm) : userWallet(realm, auth.nick)
      /** The movement the reads decide on, or the refusal they call for (thrown). */
      const decide = (reads: TransferReads) => {
        const { nicks, missing } = nicksFrom(reads.nicks, body.targets)
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
          reads.filter(body.description).text,
          [{ account: source, amount: -total }, ...nicks.map((n) => ({ account: userWallet(realm, n), amount: body.points }))],
          {
            idempotencyKey: key,
            details: { points: body.points, targets: nicks, from_realm: body.from_realm ?? null },
          },
        )
        const answer = { ...movementAnswer(p), points: body.points, total, targets: nicks, source: accountLabel(source), from_realm: body.from_realm ?? null }
        return { p, total, answer }
      }
      type TransferAnswer = ReturnType<typeof decide>['answer']
      /**
       * The movement's one batch — `first` (the stored answer), the posting, its audit record — committed by the paying
       * wallet's object (worker/api/ledger/payer.ts), which groups the movements that wait for it into one commit.
       * Its refusals are the batch's own errors, as when the batch runs alone.
       */
      const write = async (first: (db: D1Database) => D1PreparedStatement[], m: ReturnType<typeof decide>) => {
        const statements = recordStatements((rec) => [...first(rec), ...postingStatements(rec, m.p), movementAudit(c, auth, m.p, rec)])
        const failure = await c.env.LEDGER_PAYER.get(c.env.LEDGER_PAYER.idFromName(accountId(source))).post(statements)
        if (failure === null) return
        if (failure.includes('wallet_not_negative')) throw await insufficientCredits(db, source, m.total)
        throw new Error(failure)
      }

      // The hot path: the reads of an earlier transfer with the same recipients, checked inside the ONE write batch
      // (transferStoreIf). Anything else — a refusal, a key already used, reads found stale — takes the path below,
      // which reads afresh and answers exactly as before, so every refusal comes from fresh reads.
      const known = body.from_realm ? undefined : rememberedTransferReads(realm, body.targets)
      if (known) {
        let m: ReturnType<typeof decide> | undefined
        try {
          m = decide(known)
        } catch (err) {
          if (!(err instanceof ApiError)) throw err
        }
        if (m) {
          try {
            await write((rec) => [transferStoreIf(rec, auth.realm, key, hash, { status: 201, answer: m.answer }, realm, body.targets, known)], m)
            return c.json(m.answer, 201)
          } catch (err) {
            if (isStaleReads(err)) forgetTransferReads(realm, body.targets)
            else if (!isKeyConflict(err)) throw err
          }
        }
      }

      // Every read in one batch: the key's row, the recipients (with the realm's nick suffix), the word filter.
      const [keyRes, ...readRes] = await runBatch(db, [idempotencyRead(db, auth.realm, key), ...transferReadStatements(db, realm, body.targets)])
      const found = await replay<TransferAnswer>(c, auth.realm, key, hash, keyRes.results[0] as Parameters<typeof replay>[4])
      if (found && 'response' in found) return found.response
      // Paying from a realm's wallet is checked on its own (permission, realm tree, ledger on): the rarer path.
      if (body.from_realm) await payingRealm(c, auth, body.from_realm)
      const m = decide(transferReadsFrom(realm, body.targets, readRes))
      // One write batch: the stored answer first (a concurrent call with this key fails here), the movement, its audit.
      try {
        const stale = found ? (keyRes.results[0] as { created_at: string }).created_at : null
        await write(
          (rec) => [
            ...(stale !== null ? [takeOverStatement(rec, auth.realm, key, stale)] : []),
            idempotencyStore(rec, auth.realm, key, hash, { status: 201, answer: m.answer }),
          ],
          m,
        )
      } catch (err) {
        if (isKeyConflict(err)) return afterConflict<TransferAnswer>(c, auth.realm, key, hash)
        throw err
      }
      return c.json(m.answer, 201)
    }),
  )
  /** Debit: charges the caller's wallet the realm's price of each listed content (seed 000 §7). */
  .post(
    '/debit',
    guardedJson(ledgerAccess('ledger_transaction_debit'), DebitBody, async (c, auth, body) => {
      return idempotent<DebitAnswer>(c, auth, 'debit', body, async (done, key) => {
        const price = await contentPrices(c.env.DB, auth.realm, body.contents)
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
          const answer = { id: null, billing_key: null, type: 'debit' as const, points: 0, contents }
          await runBatch(c.env.DB, [done({ status: 200, answer })])
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
  .post(
    '/sponsor',
    guardedJson(ledgerAccess('ledger_sponsor_create'), SponsorBody, async (c, auth, body) => {
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
  .post(
    '/reversal',
    guardedJson(ledgerAccess('ledger_transaction_reverse'), ReversalBody, async (c, auth, body) => {
      return idempotent(c, auth, 'reversal', body, async (done, key) => {
        const db = c.env.DB
        const original = await findTransaction(db, auth.realm, body.transaction_id)
        if (!original) throw apiError(404, 'not_found', 'ledger.error.transaction_not_found', 'transaction_id', body.transaction_id)
        if (original.type === 'reversal') throw apiError(422, 'not_reversible', 'ledger.error.not_reversible', 'transaction_id', body.transaction_id)
        if (await isReversed(db, original.id)) {
          throw apiError(409, 'already_reversed', 'ledger.error.already_reversed', 'transaction_id', body.transaction_id)
        }
        const lines = (await transactionLines(db, original.id)).map((r) => ({ account: { realm: r.realm, kind: r.kind, owner: r.owner }, amount: -r.amount }))
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
  /** POST ledger/transaction/create-intent: a card payment intent; the idempotency key is optional here. */
  .post(
    '/create-intent',
    guardedJson(ledgerAccess(), IntentBody, async (c, auth, body) => {
      if (!body.idempotency_key && !c.req.header('idempotency-key')) {
        const o = await startPurchase(c, auth, 'card', body)
        return c.json(o.answer, o.status)
      }
      return idempotent(c, auth, 'create-intent', body, async (done) => {
        const o = await startPurchase(c, auth, 'card', body)
        await runBatch(c.env.DB, [done(o)])
        return o
      })
    }),
  )
  /** POST ledger/transaction/purchase: a regional-provider payment of `transaction_amount` (the package's cost). */
  .post(
    '/purchase',
    guardedJson(ledgerAccess(), PurchaseBody, async (c, auth, body) => {
      return idempotent(c, auth, 'purchase', body, async (done) => {
        const o = await startPurchase(c, auth, 'regional', body)
        await runBatch(c.env.DB, [done(o)])
        return o
      })
    }),
  )
  /** GET ledger/transaction/intent/{id}: the caller's own purchase and where it stands (pending, succeeded, failed). */
  .get(
    '/intent/:id',
    guarded(ledgerAccess(), async (c, auth) => {
      const id = pathParam(c, 'id')
      const row = await findOwnIntent(c.env.DB, auth.realm, auth.nick, id)
      if (!row) throw apiError(404, 'not_found', 'ledger.error.intent_not_found', 'id', id)
      return c.json(row)
    }),
  )
  /**
   * GET ledger/transaction/transfer: the realm's movements (type, start_at, end_at, targets, limit, offset), those
   * posted here and those that reached the realm's accounts from another realm.
   */
  .get(
    '/transfer',
    guarded(ledgerAccess('ledger_transfer_list'), async (c, auth) => {
      const q = readQuery(c, v.object({ ...Period.entries, targets: v.optional(v.pipe(v.string(), v.maxLength(2000))) }))
      // Posted here, or reaching one of the realm's accounts: the realms that see a movement (migration 0015).
      const scope = { where: 'seen_in = ?', params: [auth.realm] }
      let targets: Scope | undefined
      if (q.targets) {
        const suffix = await realmNickSuffix(c.env.DB, auth.realm)
        const nicks = q.targets
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
          .flatMap((t) => [t, withNickSuffix(t, suffix)])
        targets = movementsOfUsers(auth.realm, nicks)
      }
      return listAnswer(c, movementEntity, scope, and(...periodScope('created_at', q), targets))
    }),
  )
  /** GET ledger/transaction/account: the realm's accounts with their balances (kind, owner, like, order, paging). */
  .get(
    '/account',
    guarded(ledgerAccess('ledger_balance_list'), async (c, auth) =>
      listAnswer(c, accountEntity, { where: 'realm = ?', params: [await balanceRealm(c, auth)] }),
    ),
  )
  /**
   * GET ledger/transaction/account/check: the ledger's invariants for the realm — every transaction touching it sums
   * to zero, every account's balance equals the sum of its entries, no wallet is below zero. `ok` when all hold.
   */
  .get(
    '/account/check',
    guarded(ledgerAccess('ledger_balance_list'), async (c, auth) => {
      const realm = await balanceRealm(c, auth)
      const inv = await ledgerInvariants(c.env.DB, realm)
      const ok = inv.mismatched === 0 && inv.negative === 0 && inv.unbalanced === 0 && inv.entries_sum === 0
      return c.json({ realm, ok, ...inv })
    }),
  )
