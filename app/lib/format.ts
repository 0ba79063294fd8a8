/**
 * Intl formatters, made once per locale and options and shared: making one costs far more than formatting with it
 * (ICU data is loaded and resolved), and a list page formats a few dozen instants and numbers — making a formatter per
 * cell was an eighth of a list page's server CPU in a profile. Formatters hold no state of a request; at most
 * FORMATTERS_MAX are kept (the set starts over beyond that).
 */
const FORMATTERS_MAX = 64
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>()

function made<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let found = formatters.get(key) as T | undefined
  if (!found) {
    found = make()
    if (formatters.size >= FORMATTERS_MAX) formatters.clear()
    formatters.set(key, found)
  }
  return found
}

/** `new Intl.NumberFormat(locale, options)`, shared. */
export function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return made(`n ${locale ?? ''} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options))
}

/** `new Intl.DateTimeFormat(locale, options)`, shared. */
export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return made(`d ${locale ?? ''} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options))
}

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
      return `${numberFormat(locale, { maximumFractionDigits: Math.abs(n) < 10 ? 1 : 0 }).format(Math.trunc(n * 10) / 10)}${suffix}`
    }
  }
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(value)
}

/** Money with 2 decimals in a currency (seed 000 §9: money rounds to 2 decimals). */
export function money(value: number, currency: string, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)
}

/** A date-time in the realm's time zone (the one formatter, formatTime). */
export function dateTime(iso: string, locale: string, timeZone = 'America/Sao_Paulo'): string {
  return formatTime(iso, { locale, timeZone })
}

/** Where and how times are shown: the realm's time zone (seed 000 §3 `time_zone`) and the page language. */
export interface Clock {
  locale: string
  timeZone: string
}

export const DEFAULT_CLOCK: Clock = { locale: 'pt-BR', timeZone: 'America/Sao_Paulo' }

/**
 * The one formatter of instants on screen: in the realm's time zone, in the page language's own order
 * (pt-BR 23/11/2026 05:29, en-US 11/23/2026 05:29), 24-hour clock; `seconds` for logs, `day` for dates only.
 * The zone is said once per screen (zoneCaption), not in every cell. CSV exports keep the ISO 8601 UTC value.
 */
export function formatTime(iso: unknown, clock: Clock = DEFAULT_CLOCK, precision: 'minute' | 'second' | 'day' = 'minute'): string {
  if (typeof iso !== 'string' || !iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  // Keyed by what varies (no options object and JSON text per cell: a list formats an instant in every row).
  return made(`t ${clock.locale} ${clock.timeZone} ${precision}`, () =>
    dateTimeFormat(clock.locale, {
      timeZone: clock.timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(precision === 'day' ? {} : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const }),
      ...(precision === 'second' ? { second: '2-digit' as const } : {}),
    }),
  ).format(d)
}

/** The zone times are shown in, named for people: "Horário Padrão de Brasília (America/Sao_Paulo)". */
export function zoneName(clock: Clock = DEFAULT_CLOCK, at = new Date()): string {
  const long = dateTimeFormat(clock.locale, { timeZone: clock.timeZone, timeZoneName: 'long' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value
  return long && long !== clock.timeZone ? `${long} (${clock.timeZone})` : clock.timeZone
}

/** Seconds as h:mm:ss (m:ss under an hour): a video's length or time watched. */
export function clockDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const pad = (n: number) => String(n).padStart(2, '0')
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`
}
