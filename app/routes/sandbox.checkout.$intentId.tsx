import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { money } from '~/lib/format'
import { orErrorResponse } from '~/server/api.server'
import { apiFor } from '~/server/auth.server'
import { attempt, type ActionResult } from './_console+/ledger+/__ledger.server'
import { described, ErrorAlert, Field } from './_console+/ledger+/__ledger-ui'

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
  return orErrorResponse(api.get<SandboxIntent>(`ledger/sandbox/intent/${encodeURIComponent(params.intentId ?? '')}`, { secret: secretOf(request) }))
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const api = await apiFor(request, context)
  const form = await request.formData()
  const body = form.get('outcome') ? { outcome: String(form.get('outcome')) } : { card_number: String(form.get('card_number') ?? '') }
  const paid = await attempt(() =>
    api.post<{ status: string; return_url: string }>(`ledger/sandbox/pay/${encodeURIComponent(params.intentId ?? '')}`, { secret: secretOf(request), ...body }),
  )
  if (!paid.ok) return paid.response
  // Back to the console only: the return address is checked to be on this origin.
  const back = new URL(paid.value.return_url, request.url)
  if (back.origin !== new URL(request.url).origin) throw new Response(null, { status: 400 })
  throw redirect(`${back.pathname}${back.search}`)
}

export default function SandboxCheckout() {
  const intent = useLoaderData<typeof loader>()
  const action = useActionData<ActionResult>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const paying = useNavigation().state !== 'idle'
  const [card, setCard] = useState('')
  const price = money(intent.amount, intent.currency, locale)
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
        <ErrorAlert errors={action?.errors} title="ledger.sandbox.failed" />
        {intent.status === 'succeeded' ? (
          <p role="status">{t('ledger.sandbox.already_paid')}</p>
        ) : intent.kind === 'card' ? (
          <Form method="post">
            <Field id="sandbox-card" label={t('ledger.sandbox.card_number')} hint={t('ledger.sandbox.card_hint')}>
              <input
                className="input"
                name="card_number"
                inputMode="numeric"
                autoComplete="off"
                value={card}
                onChange={(e) => setCard(e.currentTarget.value)}
                required
                {...described('sandbox-card', undefined, true)}
              />
            </Field>
            <button type="submit" className="btn btn-primary" disabled={paying}>
              {paying ? <span className="spinner" aria-hidden="true" /> : null} {t('ledger.sandbox.pay', { price })}
            </button>
            <details className="ledger-sandbox-cards">
              <summary>{t('ledger.sandbox.test_cards')}</summary>
              <ul>
                {intent.test_cards.map((c) => (
                  <li key={c.number}>
                    <button type="button" className="btn btn-link" onClick={() => setCard(c.number.replace(/(\d{4})(?=\d)/g, '$1 '))}>
                      <code>{c.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code>
                    </button>{' '}
                    {t(c.outcome === 'succeeded' ? 'ledger.sandbox.approves' : 'ledger.sandbox.declines', {
                      reason: t(`ledger.failure.${c.failureCode ?? ''}`, { defaultValue: c.failureCode ?? '' }),
                    })}
                  </li>
                ))}
              </ul>
            </details>
          </Form>
        ) : (
          <Form method="post" className="ledger-sandbox-regional">
            <p>{t('ledger.sandbox.regional')}</p>
            <div className="form-actions">
              <button type="submit" name="outcome" value="decline" className="btn" disabled={paying}>
                {t('ledger.sandbox.decline')}
              </button>
              <button type="submit" name="outcome" value="approve" className="btn btn-primary" disabled={paying}>
                {t('ledger.sandbox.approve', { price })}
              </button>
            </div>
          </Form>
        )}
        <p>
          <a href={intent.return_url}>{t('ledger.sandbox.cancel')}</a>
        </p>
      </div>
    </main>
  )
}

export const ErrorBoundary = RouteError
