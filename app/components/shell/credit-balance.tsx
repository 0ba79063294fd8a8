import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { abbreviate, numberFormat } from '~/lib/format'
import { Icon } from '../ui/icon'

/** How often the top bar reads the wallet again while the tab is visible. */
export const BALANCE_POLL_MS = 60_000

/**
 * The top bar's credit balance. The console's loader gives it after every navigation and action; besides, it reads
 * `/wallet` when the tab becomes visible again and every minute while visible, so movements made elsewhere
 * (a transfer received, a purchase confirmed by the provider) show without a reload.
 */
export function CreditBalance({ balance, locale }: { balance: number; locale: string }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ points: number | null }>({ key: 'wallet-balance' })
  const [points, setPoints] = useState(balance)
  const { load } = fetcher

  useEffect(() => setPoints(balance), [balance])
  useEffect(() => {
    const fresh = fetcher.data?.points
    if (typeof fresh === 'number') setPoints(fresh)
  }, [fetcher.data])
  useEffect(() => {
    const refresh = () => document.visibilityState === 'visible' && load('/wallet')
    document.addEventListener('visibilitychange', refresh)
    const timer = window.setInterval(refresh, BALANCE_POLL_MS)
    return () => {
      document.removeEventListener('visibilitychange', refresh)
      window.clearInterval(timer)
    }
  }, [load])

  return (
    <span className="credit-balance" title={t('shell.balance.title', { value: numberFormat(locale).format(points) })}>
      <Icon name="coin" />
      <span className="visually-hidden">{t('shell.balance')}: </span>
      <span data-testid="credit-balance">{abbreviate(points, locale)}</span>
    </span>
  )
}
