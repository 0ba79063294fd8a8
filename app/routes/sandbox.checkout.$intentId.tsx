import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFormMetadata } from '@conform-to/react'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { KitForm, TextInput } from '~/components/form/kit'
import { SandboxCardNumber, SandboxOutcome } from '#shared/schemas/ledger'
import { RouteError } from '~/components/shell/route-error'
import { money } from '~/lib/format'
import { DEFAULT_TIME_ZONE as DEFAULT_ZONE } from '~/lib/form-kit'
import { publicApiAction } from '~/server/api-action.server'
import { orErrorResponse, apiData } from '~/server/api.server'
import { apiFor } from '~/server/auth.server'

/**
 * The embedded sandbox payment provider's hosted checkout (not a console screen: it stands where a real provider's
 * page would). The buyer's browser holds the intent's client secret; the sandbox decides by documented test card
 * (or, for the regional flow, by the buyer's choice) and confirms through the signed webhook. No real money moves.
 */
type SandboxIntent = {
  id: string
  kind: 'card' | 'regional'
  status: string
  amount: number
  currency: string
  description: string
  merchant: string
  failure: string
  return_url: string
  test_cards: { number: string; outcome: string; failureCode?: string }[]
}

export const handle = { title: 'ledger.sandbox.title' }

const secretOf = (request: Request) => new URL(request.url).searchParams.get('secret') ?? ''

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const api = await apiFor(request, context)
  return orErrorResponse(apiData(api.ledger.sandbox.intent[':id'].$get({ param: { id: params.intentId ?? '' }, query: { secret: secretOf(request) } })))
}

/** The checkout's two forms: a test card number, or the buyer's choice on the regional flow. */
const SandboxPay = v.variant('kind', [
  v.object({
    kind: v.literal('card'),
    card_number: SandboxCardNumber,
  }),
  v.object({ kind: v.literal('regional'), outcome: SandboxOutcome }),
])

/** Which of the two forms was sent: the regional one posts the buyer's `outcome` (its buttons), the card one a number. */
const payKind = (values: Record<string, unknown>) => ({ ...values, kind: values.outcome === undefined ? 'card' : 'regional' })

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  publicApiAction(request, context, {
    schema: SandboxPay,
    prepare: payKind,
    call: (api, { kind: _, ...body }) =>
      apiData(
        api.ledger.sandbox.pay[':id'].$post({
          param: { id: params.intentId ?? '' },
          json: {
            secret: secretOf(request),
            ...body,
          },
        }),
      ),
    onSuccess: (paid) => {
      // Back to the console only: the return address is checked to be on this origin.
      const back = new URL(paid.return_url, request.url)
      if (back.origin !== new URL(request.url).origin) throw new Response(null, { status: 400 })
      throw redirect(`${back.pathname}${back.search}`)
    },
  })

const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ')

export default function SandboxCheckout() {
  const intent = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const paying = useNavigation().state !== 'idle'
  const price = money(intent.amount, intent.currency, locale)
  const spinner = paying ? <span className="spinner" aria-hidden="true" /> : null
  /** What the card and the regional payment forms share: one schema, the action's answer, the field's label. */
  const form = { schema: SandboxPay, prepare: payKind, lastResult, labels: { card_number: t('ledger.sandbox.card_number') }, timeZone: DEFAULT_ZONE }
  return (
    <main className="entry" id="main">
      <div className="entry-card ledger-sandbox">
        <p className="badge">{t('ledger.sandbox.badge')}</p>
        <h1>{t('ledger.sandbox.title')}</h1>
        <p className="lead">{t('ledger.sandbox.lead', { merchant: intent.merchant })}</p>
        <dl className="ledger-sandbox-summary">
          <dt>{t('ledger.sandbox.item')}</dt>
          <dd>{intent.description}</dd>
          <dt>{t('ledger.sandbox.amount')}</dt>
          <dd data-testid="sandbox-amount">{price}</dd>
        </dl>
        {intent.status === 'succeeded' ? (
          <p role="status">{t('ledger.sandbox.already_paid')}</p>
        ) : intent.kind === 'card' ? (
          <KitForm
            {...form}
            className="ledger-sandbox-card"
            buttons={
              <button type="submit" className="btn btn-primary" disabled={paying}>
                {spinner} {t('ledger.sandbox.pay', { price })}
              </button>
            }
          >
            <TextInput name="card_number" label={t('ledger.sandbox.card_number')} hint={t('ledger.sandbox.card_hint')} autoComplete="off" required />
            <TestCards cards={intent.test_cards} />
          </KitForm>
        ) : (
          <KitForm
            {...form}
            className="ledger-sandbox-regional"
            buttons={
              <>
                <button type="submit" name="outcome" value="decline" className="btn" disabled={paying}>
                  {t('ledger.sandbox.decline')}
                </button>
                <button type="submit" name="outcome" value="approve" className="btn btn-primary" disabled={paying}>
                  {spinner} {t('ledger.sandbox.approve', { price })}
                </button>
              </>
            }
          >
            <p>{t('ledger.sandbox.regional')}</p>
          </KitForm>
        )}
        <p>
          <a href={intent.return_url}>{t('ledger.sandbox.cancel')}</a>
        </p>
      </div>
    </main>
  )
}

/** The documented test cards; choosing one types it into the card field. */
function TestCards({ cards }: { cards: SandboxIntent['test_cards'] }) {
  const { t } = useTranslation()
  const form = useFormMetadata()
  return (
    <details className="ledger-sandbox-cards">
      <summary>{t('ledger.sandbox.test_cards')}</summary>
      <ul>
        {cards.map((c) => (
          <li key={c.number}>
            <button type="button" className="btn btn-link" onClick={() => form.update({ name: 'card_number', value: spaced(c.number) })}>
              <code>{spaced(c.number)}</code>
            </button>{' '}
            {t(c.outcome === 'succeeded' ? 'ledger.sandbox.approves' : 'ledger.sandbox.declines', {
              reason: t(`ledger.failure.${c.failureCode ?? ''}`, { defaultValue: c.failureCode ?? '' }),
            })}
          </li>
        ))}
      </ul>
    </details>
  )
}

export const ErrorBoundary = RouteError
