import { Link, useFetcher, useSearchParams } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { formatTime } from '~/lib/format'
import { useClock, ZoneCaption } from '~/components/ui/clock'
import type { ListPage } from '#shared/schemas/common'
import type { StatementEntry } from '#shared/schemas/ledger-entity'
import type { ActionResult } from './__ledger.server'

/** `user:root@demo` → `root@demo`, `realm:demo` → the realm's name in the reader's language. */
function counterpart(label: string, t: (k: string, o?: Record<string, string>) => string): string {
  const [kind, ...rest] = label.split(':')
  const owner = rest.join(':')
  return kind === 'user' ? owner : kind === 'realm' ? t('ledger.account.realm_named', { name: owner }) : t(`ledger.account.${kind}`)
}

/** A wallet's statement: its entries, newest first, with the balance after each; a movement can be reversed. */
export function Statement({
  account,
  statement,
  limit,
  canReverse,
  actionKey,
}: {
  account: { kind: string; owner: string }
  statement: ListPage<StatementEntry> | null
  limit: number
  canReverse: boolean
  actionKey: string
}) {
  const { t } = useTranslation()
  const clock = useClock()
  const locale = t('ledger.locale')
  const toast = useToast()
  const fetcher = useFetcher<ActionResult<{ billing_key: string }>>()
  const [params] = useSearchParams()
  const [reversing, setReversing] = useState<StatementEntry | null>(null)
  const n = (x: number) => new Intl.NumberFormat(locale, { signDisplay: 'exceptZero' }).format(x)
  const page = (offset: number) => {
    const next = new URLSearchParams(params)
    next.set('soffset', String(Math.max(0, offset)))
    return `?${next}`
  }

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: 'ledger.reversal.done', values: { billing_key: fetcher.data.result?.billing_key ?? '' } })
    else toast.pushErrors(fetcher.data.errors, { title: 'ledger.reversal.failed' })
  }, [fetcher.state, fetcher.data, toast])

  const title = t('ledger.balance.statement_of', { name: account.kind === 'realm' ? t('ledger.account.realm_named', { name: account.owner }) : account.owner })
  return (
    <section className="card" aria-labelledby="statement-title">
      <h2 id="statement-title">{title}</h2>
      {!statement ? (
        <p role="status">{t('ledger.balance.statement_hidden')}</p>
      ) : statement.items.length === 0 ? (
        <p role="status">{t('ledger.balance.statement_empty')}</p>
      ) : (
        <div className="table-wrap" aria-busy={fetcher.state !== 'idle'}>
          <table className="data">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ledger.statement.date')}</th>
                <th scope="col">{t('ledger.statement.type')}</th>
                <th scope="col">{t('ledger.statement.counterpart')}</th>
                <th scope="col">{t('ledger.statement.description')}</th>
                <th scope="col" style={{ textAlign: 'right' }}>
                  {t('ledger.statement.amount')}
                </th>
                <th scope="col" style={{ textAlign: 'right' }}>
                  {t('ledger.statement.balance_after')}
                </th>
                <th scope="col">{t('ledger.statement.billing_key')}</th>
                {canReverse ? (
                  <th scope="col">
                    <span className="visually-hidden">{t('table.actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {statement.items.map((e) => (
                <tr key={e.id}>
                  <td>{formatTime(e.created_at, clock)}</td>
                  <td>
                    {t(`ledger.type.${e.type}`)}
                    {e.reversed_by ? <span className="badge"> {t('ledger.statement.reversed')}</span> : null}
                  </td>
                  <td className="ellipsis">{e.counterparts.map((c) => counterpart(c, t)).join(', ')}</td>
                  <td className="ellipsis" title={e.description}>
                    {e.description}
                  </td>
                  <td style={{ textAlign: 'right' }} className={e.amount < 0 ? 'ledger-debit' : 'ledger-credit'}>
                    {n(e.amount)}
                  </td>
                  <td style={{ textAlign: 'right' }}>{new Intl.NumberFormat(locale).format(e.balance_after)}</td>
                  <td>
                    <code>{e.billing_key}</code>
                  </td>
                  {canReverse ? (
                    <td className="row-actions">
                      {e.type !== 'reversal' && !e.reversed_by ? (
                        <button type="button" className="btn btn-icon" onClick={() => setReversing(e)}>
                          <Icon name="refresh" label={t('ledger.reversal.action', { billing_key: e.billing_key })} />
                        </button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          <ZoneCaption label={(zone) => t('table.time_zone', { zone })} />
          <div className="table-footer">
            <span aria-live="polite">
              {t(statement.total_capped ? 'table.range_more' : 'table.range', {
                from: statement.offset + 1,
                to: statement.offset + statement.items.length,
                total: statement.total,
              })}
            </span>
            <span className="pager">
              {statement.offset > 0 ? (
                <Link className="btn btn-icon" to={page(statement.offset - limit)} preventScrollReset>
                  <Icon name="chevronLeft" label={t('table.previous')} />
                </Link>
              ) : null}
              {/* The count stops at COUNT_CAP: past it, whether a next page exists is the answer's `next`. */}
              {(statement.next === undefined ? statement.offset + limit < statement.total : statement.next !== null) ? (
                <Link className="btn btn-icon" to={page(statement.offset + limit)} preventScrollReset>
                  <Icon name="chevronRight" label={t('table.next')} />
                </Link>
              ) : null}
            </span>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={reversing !== null}
        title={t('ledger.reversal.title')}
        message={t('ledger.reversal.confirm', { billing_key: reversing?.billing_key ?? '', type: reversing ? t(`ledger.type.${reversing.type}`) : '' })}
        confirmLabel={t('ledger.reversal.yes')}
        cancelLabel={t('ledger.cancel')}
        danger
        onCancel={() => setReversing(null)}
        onConfirm={() => {
          if (reversing)
            fetcher.submit({ transaction_id: reversing.transaction_id, idempotency_key: `${actionKey}-${reversing.transaction_id}` }, { method: 'post' })
          setReversing(null)
        }}
      />
    </section>
  )
}
