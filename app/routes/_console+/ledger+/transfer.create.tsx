import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { NumberInput, TextArea } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { apiData } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { newActionKey } from './__ledger.server'
import { checkRecipients, movementAction, payingWallets } from './__ledger-movement.server'
import { MovementScreen, prepareTransfer, transferForm } from './__ledger-movement-form'

export const handle = { title: 'pages.ledger.transfer' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'ledger.transfer')
  // A fresh key on every render: a double submission of this form is one transfer; the next one gets a new key.
  return { wallets: await payingWallets(api, user), actionKey: newActionKey(), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

/** Reviews, then sends, the transfer (seed 000 §7): targets, points per recipient, description, idempotency key, from_realm. */
export const action = async ({ request, context }: ActionFunctionArgs) => {
  const { realm } = await requireRoute(request, context, 'ledger.transfer')
  return movementAction(request, context, {
    route: 'ledger.transfer',
    schema: transferForm(),
    prepare: prepareTransfer,
    check: (api, value, user) => checkRecipients(api, value.targets, value.from_realm, user, realm.config?.nick_suffix ?? ''),
    review: (x) => ({ total: x.points * x.targets.length, count: x.targets.length, points: x.points, targets: x.targets.join(', '), realm: '' }),
    post: (api, json) => apiData(api.ledger.transaction.transfer.$post({ json })),
    done: (r) => ({
      kind: 'success',
      message: 'ledger.transfer.done',
      values: { total: String(r.total), count: String(r.targets.length), billing_key: r.billing_key },
    }),
  })
}

export default function TransferRoute() {
  const { wallets, actionKey, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <MovementScreen kind="transfer" wallets={wallets} actionKey={actionKey} timeZone={timeZone}>
      <TextArea name="targets" label={t('ledger.transfer.targets')} hint={t('ledger.transfer.targets_hint')} required />
      <NumberInput name="points" label={t('ledger.transfer.points')} hint={t('ledger.transfer.points_hint')} decimal={false} required />
    </MovementScreen>
  )
}

export const ErrorBoundary = RouteError
