import { useTranslation } from '~/i18n/react'
import { abbreviate } from '~/lib/format'

export interface Wallet {
  owner: string
  kind: 'user' | 'realm'
  name: string
  points: number
}

/** Recipients as typed in one text box: separated by commas, semicolons, spaces or lines. */
export function splitTargets(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)
}

/** The wallet a movement is paid from: `''` is the caller's own wallet, else a realm code (`from_realm`). */
export function SourcePicker({ wallets, value, onChange }: { wallets: Wallet[]; value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  if (wallets.length < 2) return <input type="hidden" name="from_realm" value="" />
  return (
    <div className="field">
      <label htmlFor="movement-source">{t('ledger.movement.source')}</label>
      <select id="movement-source" className="input" name="from_realm" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {wallets.map((w) => (
          <option key={`${w.kind}:${w.owner}`} value={w.kind === 'user' ? '' : w.owner}>
            {t(w.kind === 'user' ? 'ledger.movement.source_own' : 'ledger.movement.source_realm', { name: w.name || w.owner })}
            {Number.isNaN(w.points) ? '' : ` — ${abbreviate(w.points, locale)}`}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The balance of the chosen source, NaN when the caller may not read it. */
export function sourceBalance(wallets: Wallet[], from: string): number {
  const w = wallets.find((x) => (from ? x.kind === 'realm' && x.owner === from : x.kind === 'user'))
  return w?.points ?? Number.NaN
}

/** Total required against the balance, announced as it changes (seed 000 §3: total required shown before confirming). */
export function TotalRequired({ total, balance, detail }: { total: number; balance: number; detail?: string }) {
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const short = !Number.isNaN(balance) && total > balance
  const n = (x: number) => new Intl.NumberFormat(locale).format(x)
  return (
    <div className={`ledger-total${short ? ' ledger-total-short' : ''}`} role="status" aria-live="polite">
      {detail ? <span>{detail}</span> : null}
      <strong data-testid="total-required">{t('ledger.movement.total', { total: n(total) })}</strong>
      {Number.isNaN(balance) ? null : <span>{t('ledger.movement.balance', { balance: n(balance) })}</span>}
      {short ? <span className="error">{t('errors.insufficient_credits')}</span> : null}
    </div>
  )
}
