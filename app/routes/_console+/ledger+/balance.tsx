import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { abbreviate } from '~/lib/format'
import ledgerAccountList from '~/lists/ledger-account'
import { ReversalBody } from '#shared/schemas/ledger'
import type { LedgerAccount } from '#shared/schemas/ledger-entity'
import { apiData, orNull } from '~/server/api.server'
import { rowResult } from '~/server/entity-form.server'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { invalid, issuesAsErrors, newActionKey } from './__ledger.server'
import { Statement } from './__ledger-statement'

export const handle = { title: 'pages.ledger.balance' }

const STATEMENT_LIMIT = 25

/** The wallet whose statement is shown: `?account=user:<nick>` or `realm:<code>`, the caller's own by default. */
function selected(url: URL, nick: string): { kind: 'user' | 'realm'; owner: string } {
  const [kind, ...rest] = (url.searchParams.get('account') ?? '').split(':')
  const owner = rest.join(':')
  return (kind === 'user' || kind === 'realm') && owner ? { kind, owner } : { kind: 'user', owner: nick }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'ledger.balance')
  const url = new URL(request.url)
  const account = selected(url, user.nick)
  const offset = Math.max(0, Number(url.searchParams.get('soffset')) || 0)
  const query = account.kind === 'realm' ? { from_realm: 'true' } : {}
  const wallet = api.ledger.wallet[':id']
  const [list, mine, realmWallet, statement] = await Promise.all([
    loadList(request, context, ledgerAccountList),
    apiData(wallet.$get({ param: { id: user.nick } })),
    apiData(wallet.$get({ param: { id: user.realm }, query: { from_realm: 'true' } })),
    // Another user's statement needs ledger_wallet_get_others: without it the API answers 404 and the panel says so.
    orNull(apiData(wallet.statement.$get({ param: { id: account.owner }, query: { ...query, limit: STATEMENT_LIMIT, offset } }))),
  ])
  return { ...list, mine, realmWallet, account, statement, canReverse: user.permissions.ledger_transaction_reverse === true, actionKey: newActionKey() }
}

/** Reverses a transaction from a statement line (the ledger's only correction). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.balance')
  const form = await request.formData()
  const parsed = v.safeParse(ReversalBody, {
    transaction_id: String(form.get('transaction_id') ?? ''),
    idempotency_key: String(form.get('idempotency_key') ?? ''),
  })
  if (!parsed.success) return invalid(issuesAsErrors(parsed.issues))
  return rowResult(apiData(api.ledger.transaction.reversal.$post({ json: parsed.output })))
}

export default function BalanceRoute() {
  const { page, query, mine, realmWallet, account, statement, canReverse, actionKey } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const [params] = useSearchParams()
  const linkTo = (a: string) => {
    const next = new URLSearchParams(params)
    next.set('account', a)
    next.delete('soffset')
    return `?${next}`
  }
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.balance')}</h1>
        <div className="toolbar-actions">
          <Link to="/ledger/package/purchase" className="btn">
            <Icon name="coin" /> {t('pages.ledger.purchase')}
          </Link>
        </div>
      </div>
      <div className="ledger-wallets">
        {[mine, realmWallet].map((w) => (
          <Link
            key={w.kind}
            to={linkTo(`${w.kind}:${w.owner}`)}
            className="card ledger-wallet"
            aria-current={account.kind === w.kind && account.owner === w.owner ? 'true' : undefined}
          >
            <span className="hint">{t(w.kind === 'user' ? 'ledger.balance.mine' : 'ledger.balance.realm', { name: w.name || w.owner })}</span>
            <strong title={new Intl.NumberFormat(locale).format(w.points)}>{abbreviate(w.points, locale)}</strong>
            <span className="hint">{t('ledger.points')}</span>
          </Link>
        ))}
      </div>
      <Statement account={account} statement={statement} limit={STATEMENT_LIMIT} canReverse={canReverse} actionKey={actionKey} />
      <h2>{t('ledger.balance.accounts')}</h2>
      <EntityTable<LedgerAccount>
        spec={ledgerAccountList}
        page={page}
        query={query}
        title={t('ledger.balance.accounts')}
        rowActions={(row) =>
          row.kind === 'user' || row.kind === 'realm' ? (
            <Link className="btn btn-icon" to={linkTo(`${row.kind}:${row.owner}`)}>
              <Icon name="report" label={t('ledger.balance.statement_of', { name: row.name || row.owner })} />
            </Link>
          ) : null
        }
      />
    </>
  )
}

export const ErrorBoundary = RouteError
