import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { readDate, showDate } from '~/lib/dates'
import { Dialog } from '../ui/dialog'
import { Icon } from '../ui/icon'

/**
 * A calendar beside a typed date field (the form kit's DateInput): a button opening a modal dialog with a month grid
 * (WAI-ARIA date picker dialog). Arrow keys move by day and week, Home/End to the week's first and last day, PageUp
 * and PageDown by month (with Shift by year), Enter or Space picks the day into the field (in the page language's
 * format, as if typed) and Escape closes; both return focus to the button. Month and weekday names come from Intl in
 * the page's language, and the week starts on that locale's first day. The button only appears once the page's
 * script runs: without JavaScript the field is typed as before.
 */

type Day = { y: number; m: number; d: number }

const iso = ({ y, m, d }: Day) => `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`
const utc = ({ y, m, d }: Day) => new Date(Date.UTC(y, m, d))
const fromDate = (date: Date): Day => ({ y: date.getUTCFullYear(), m: date.getUTCMonth(), d: date.getUTCDate() })
const addDays = (day: Day, n: number) => fromDate(new Date(Date.UTC(day.y, day.m, day.d + n)))
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
/** The same day `n` months on, kept inside the target month (31 January + 1 month = 28 or 29 February). */
const addMonths = (day: Day, n: number): Day => {
  const first = new Date(Date.UTC(day.y, day.m + n, 1))
  const y = first.getUTCFullYear()
  const m = first.getUTCMonth()
  return { y, m, d: Math.min(day.d, daysIn(y, m)) }
}

/** Day of the week (0 Sunday … 6 Saturday) a locale's weeks start on: Intl's week info, or its region's custom. */
export function firstDayOfWeek(locale: string): number {
  try {
    const loc = new Intl.Locale(locale) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } }
    const info = loc.getWeekInfo?.() ?? loc.weekInfo
    if (info?.firstDay) return info.firstDay % 7
    // Without week info (older engines): Sunday in the Americas' languages this console offers, Monday elsewhere.
    return /-(US|BR|CA|MX)$/i.test(locale) ? 0 : 1
  } catch {
    return 1
  }
}

/** The weeks of a month's grid (each day or null before the 1st and after the last), starting on `first`. */
export function monthGrid(y: number, m: number, first: number): (Day | null)[][] {
  const lead = (new Date(Date.UTC(y, m, 1)).getUTCDay() - first + 7) % 7
  const cells: (Day | null)[] = [...Array<null>(lead).fill(null), ...Array.from({ length: daysIn(y, m) }, (_, i) => ({ y, m, d: i + 1 }))]
  while (cells.length % 7) cells.push(null)
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7))
}

function today(): Day {
  const now = new Date()
  return { y: now.getFullYear(), m: now.getMonth(), d: now.getDate() }
}

/** The button and its dialog, for the text input `inputId` labelled `label`. */
export function DatePicker({ inputId, label, disabled }: { inputId: string; label: string; disabled?: boolean }) {
  const { t, i18n } = useTranslation()
  const locale = i18n.language
  const [ready, setReady] = useState(false)
  const [open, setOpen] = useState(false)
  const [focus, setFocus] = useState<Day>(today)
  const [chosen, setChosen] = useState<string | null>(null)
  const button = useRef<HTMLButtonElement>(null)
  const grid = useRef<HTMLTableElement>(null)
  const titleId = `${useId()}-calendar`
  useEffect(() => setReady(true), [])

  // The focused day takes the keyboard focus whenever it changes inside the open dialog.
  useEffect(() => {
    if (!open) return
    const cell = grid.current?.querySelector<HTMLElement>(`[data-day="${iso(focus)}"]`)
    cell?.focus()
  }, [open, focus])

  if (!ready) return null

  const input = () => document.getElementById(inputId) as HTMLInputElement | null
  const show = () => {
    const typed = readDate(input()?.value ?? '', locale)
    const day = typed ? fromDate(new Date(`${typed}T00:00:00Z`)) : today()
    setChosen(typed)
    setFocus(day)
    setOpen(true)
  }
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  const pick = (day: Day) => {
    const el = input()
    if (el) {
      // As if typed: the native setter then an input event, so React and the form's live validation see it.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(el, showDate(iso(day), locale))
      el.dispatchEvent(new Event('input', { bubbles: true }))
      el.dispatchEvent(new Event('change', { bubbles: true }))
    }
    close()
  }
  const onKey = (e: KeyboardEvent) => {
    const first = firstDayOfWeek(locale)
    const weekday = (utc(focus).getUTCDay() - first + 7) % 7
    const next: Record<string, () => Day> = {
      ArrowLeft: () => addDays(focus, -1),
      ArrowRight: () => addDays(focus, 1),
      ArrowUp: () => addDays(focus, -7),
      ArrowDown: () => addDays(focus, 7),
      Home: () => addDays(focus, -weekday),
      End: () => addDays(focus, 6 - weekday),
      PageUp: () => addMonths(focus, e.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focus, e.shiftKey ? 12 : 1),
    }
    if (next[e.key]) {
      e.preventDefault()
      setFocus(next[e.key]())
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      pick(focus)
    } else if (e.key === 'Escape') {
      // The dialog's own cancel does the same; handled here too so the grid's contract does not depend on it.
      e.preventDefault()
      close()
    }
  }

  const first = firstDayOfWeek(locale)
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utc({ ...focus, d: 1 }))
  // A heading starts with a capital (pt-BR and es-ES month names are lower case: "março de 2026" → "Março de 2026").
  const month = monthName.charAt(0).toLocaleUpperCase(locale) + monthName.slice(1)
  const weekday = (style: 'short' | 'long', i: number) =>
    // 2023-01-01 was a Sunday: day `i` of the week starting on `first`.
    new Intl.DateTimeFormat(locale, { weekday: style, timeZone: 'UTC' }).format(new Date(Date.UTC(2023, 0, 1 + ((first + i) % 7))))
  const full = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' })
  const now = iso(today())

  return (
    <>
      <button ref={button} type="button" className="btn btn-icon date-picker-button" onClick={show} disabled={disabled} aria-haspopup="dialog">
        <Icon name="calendar" label={t('form.calendar.open', { label })} />
      </button>
      <Dialog open={open} onClose={close} title={t('form.calendar.title', { label })} labelledBy={titleId} className="date-picker">
        <div className="date-picker-nav">
          <button type="button" className="btn btn-icon" onClick={() => setFocus(addMonths(focus, -1))}>
            <Icon name="chevronLeft" label={t('form.calendar.previous')} />
          </button>
          <h3 aria-live="polite">{month}</h3>
          <button type="button" className="btn btn-icon" onClick={() => setFocus(addMonths(focus, 1))}>
            <Icon name="chevronRight" label={t('form.calendar.next')} />
          </button>
        </div>
        <table ref={grid} role="grid" aria-label={month} className="date-picker-grid" onKeyDown={onKey}>
          <thead>
            <tr>
              {Array.from({ length: 7 }, (_, i) => (
                <th key={i} scope="col" abbr={weekday('long', i)}>
                  {weekday('short', i)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthGrid(focus.y, focus.m, first).map((week, w) => (
              <tr key={w}>
                {week.map((day, i) => {
                  if (!day) return <td key={i} />
                  const key = iso(day)
                  const isFocus = key === iso(focus)
                  return (
                    <td
                      key={i}
                      role="gridcell"
                      data-day={key}
                      tabIndex={isFocus ? 0 : -1}
                      aria-selected={key === chosen ? true : undefined}
                      aria-current={key === now ? 'date' : undefined}
                      aria-label={full.format(utc(day))}
                      className={key === chosen ? 'chosen' : undefined}
                      onClick={() => pick(day)}
                    >
                      {day.d}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <p className="hint">{t('form.calendar.keys')}</p>
      </Dialog>
    </>
  )
}
