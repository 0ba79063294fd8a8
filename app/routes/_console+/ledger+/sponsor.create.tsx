import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { NumberInput, SelectInput, TextInput } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { apiData } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { newActionKey } from './__ledger.server'
import { movementAction, payingWallets } from './__ledger-movement.server'
import { MovementScreen, sponsorForm } from './__ledger-movement-form'

export const handle = { title: 'pages.ledger.sponsor' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'ledger.sponsor')
  // The realms the caller administers, when they may list them; otherwise the realm code is typed.
  const realms = user.permissions.mas_realm_list ? (await apiData(api.mas.realm.$get({ query: { limit: 1000 } }))).items : []
  return {
    wallets: await payingWallets(api, user),
    realms,
    realm: user.realm,
    actionKey: newActionKey(),
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

/** Reviews, then funds, a realm's wallet (seed 000 §7 POST ledger/transaction/sponsor). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  movementAction(request, context, {
    route: 'ledger.sponsor',
    schema: sponsorForm(),
    review: (x) => ({ total: x.points, count: 1, points: x.points, targets: '', realm: x.realm }),
    post: (api, json) => apiData(api.ledger.transaction.sponsor.$post({ json })),
    done: (r) => ({ kind: 'success', message: 'ledger.sponsor.done', values: { points: String(r.points), realm: r.realm, billing_key: r.billing_key } }),
  })

export default function SponsorRoute() {
  const { wallets, realms, realm, actionKey, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const label = t('ledger.sponsor.realm')
  return (
    <MovementScreen kind="sponsor" wallets={wallets} actionKey={actionKey} timeZone={timeZone} defaultValue={{ realm }} intro={t('ledger.sponsor.intro')}>
      {realms.length ? (
        <SelectInput name="realm" label={label} options={realms.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` }))} required />
      ) : (
        <TextInput name="realm" label={label} required />
      )}
      <NumberInput name="points" label={t('ledger.sponsor.points')} decimal={false} required />
    </MovementScreen>
  )
}

export const ErrorBoundary = RouteError
