import { createContext, useContext, type ReactNode } from 'react'
import { DEFAULT_CLOCK, formatTime, zoneName, type Clock } from '~/lib/format'

const ClockContext = createContext<Clock>(DEFAULT_CLOCK)

/** The realm's time zone and the page language, for every time shown below (the shell provides it). */
export function ClockProvider({ clock, children }: { clock: Clock; children: ReactNode }) {
  return <ClockContext.Provider value={clock}>{children}</ClockContext.Provider>
}

export function useClock(): Clock {
  return useContext(ClockContext)
}

/** An instant as the console shows it: realm zone, page language; the exact ISO instant in `dateTime`. */
export function Time({ iso, precision = 'minute' }: { iso: string | null | undefined; precision?: 'minute' | 'second' | 'day' }) {
  const clock = useClock()
  if (!iso) return null
  return <time dateTime={iso}>{formatTime(iso, clock, precision)}</time>
}

/** "Times in Horário Padrão de Brasília (America/Sao_Paulo)": said once on a screen that shows times. */
export function ZoneCaption({ label }: { label: (zone: string) => string }) {
  const clock = useClock()
  return <p className="hint zone-caption">{label(zoneName(clock))}</p>
}
