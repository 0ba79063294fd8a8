import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type * as v from 'valibot'
import { apiAction } from '~/server/api-action.server'
import type { SessionUser } from '~/server/auth.server'
import { RealmApiError, apiData, orNull, type RealmApi } from '~/server/api.server'
import { setFlash, type Flash } from '~/server/flash.server'
import type { MovementReview } from './__ledger-movement-form'
import type { Wallet } from './__ledger-movement-ui'

/**
 * Where the caller may pay from: their own wallet, and with ledger_transfer_cross_realm the wallets of their realm
 * and of the realms they administer (when they may list them). A realm wallet whose balance the caller may not read is offered with an unknown balance (NaN).
 */
export async function payingWallets(api: RealmApi, user: SessionUser): Promise<Wallet[]> {
  const own: Wallet = await apiData(api.ledger.wallet[':id'].$get({ param: { id: user.nick } }))
  if (!user.permissions.ledger_transfer_cross_realm) return [own]
  const codes = new Set([user.realm])
  if (user.permissions.mas_realm_list) {
    const realms = await apiData(api.mas.realm.$get({ query: { limit: 1000 } })).catch(() => null)
    for (const r of realms?.items ?? []) codes.add(r.code)
  }
  const realms = await Promise.all(
    [...codes].map((code) =>
      apiData(api.ledger.wallet[':id'].$get({ param: { id: code }, query: { from_realm: 'true' } })).catch((): Wallet => ({
        owner: code,
        kind: 'realm',
        name: code,
        points: Number.NaN,
      })),
    ),
  )
  return [own, ...realms]
}

/**
 * The action of the transfer and sponsor screens (one form kit action, `apiAction`): without `confirmed=yes` it
 * reviews — the form's schema, then `check` (e.g. recipients looked up) — and answers the review's figures with the
 * form kept; confirmed, it posts the movement and returns to the screen with the receipt as a flash message.
 */
export async function movementAction<S extends v.GenericSchema, A>(
  request: Request,
  context: AppLoadContext,
  opts: {
    route: string
    schema: S
    prepare?: (values: Record<string, unknown>) => Record<string, unknown>
    /** Checks the API can answer before the movement (throws `RealmApiError` with items on the form's fields). */
    check?: (api: RealmApi, value: v.InferOutput<S>, user: SessionUser) => Promise<void>
    review: (value: v.InferOutput<S>) => MovementReview
    post: (api: RealmApi, value: v.InferOutput<S>) => Promise<A>
    done: (answer: A) => Flash
  },
) {
  const confirmed = (await request.clone().formData()).get('confirmed') === 'yes'
  const path = new URL(request.url).pathname
  return apiAction(request, context, {
    route: opts.route,
    schema: opts.schema,
    prepare: opts.prepare,
    call: async (api, value, { user }) => {
      if (confirmed) return { sent: await opts.post(api, value) }
      await opts.check?.(api, value, user)
      return { review: opts.review(value) }
    },
    onSuccess: async (answer, submission) => {
      if ('review' in answer) return { ...submission.reply(), review: answer.review }
      throw redirect(path, { headers: { 'Set-Cookie': await setFlash(opts.done(answer.sent)) } })
    },
  })
}

/**
 * Recipients unknown to the paying realm, found before the review where the API offers a lookup (the caller may read
 * others' wallets, or read users; and pays from their own realm, whose users the lookup reads): one item on the
 * recipients' field naming them. A nick typed without the realm's nick suffix is looked up with it too, as the
 * transfer resolves it. Without a lookup the API's own refusal (after confirming) names them.
 */
export async function checkRecipients(api: RealmApi, targets: string[], fromRealm: string | undefined, user: SessionUser, nickSuffix = '') {
  if (fromRealm && fromRealm !== user.realm) return
  const byWallet = user.permissions.ledger_wallet_get_others === true
  if (!byWallet && !user.permissions.mas_user_get) return
  // Unknown (404) or not a nick at all (400): not a recipient.
  const exists = async (nick: string) =>
    (byWallet
      ? await orNull(apiData(api.ledger.wallet[':id'].$get({ param: { id: nick } })), [404, 400])
      : await orNull(apiData(api.mas.user[':nick'].$get({ param: { nick } })), [404, 400])) !== null
  const suffixed = (nick: string) => (nickSuffix && !nick.endsWith(nickSuffix) ? `${nick}${nickSuffix}` : nick)
  const missing = (
    await Promise.all(targets.map(async (nick) => ((await exists(nick)) || (suffixed(nick) !== nick && (await exists(suffixed(nick)))) ? null : nick)))
  ).filter((x): x is string => x !== null)
  if (missing.length)
    throw new RealmApiError(404, [{ field: 'targets', cause: 'not_found', value: missing.join(', '), message: 'ledger.error.recipient_not_found' }])
}
