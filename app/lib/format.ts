/** Large numbers abbreviated with k, mi, bi, tri (seed 000 §9), one decimal when it matters. */
export function abbreviate(value: number, locale: string): string {
  const units: [number, string][] = [
    [1e12, 'tri'],
    [1e9, 'bi'],
    [1e6, 'mi'],
    [1e3, 'k'],
  ]
  const abs = Math.abs(value)
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const n = value / size
      return `${new Intl.NumberFormat(locale, { maximumFractionDigits: Math.abs(n) < 10 ? 1 : 0 }).format(Math.trunc(n * 10) / 10)}${suffix}`
    }
  }
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value)
}

/** Money with 2 decimals in a currency (seed 000 §9: money rounds to 2 decimals). */
export function money(value: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)
}

/** A date-time in the realm's time zone. */
export function dateTime(iso: string, locale: string, timeZone = 'America/Sao_Paulo'): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(d)
}
