/** Dates typed and shown in the page language's format (pt-BR and es-ES day first, en-US month first). */

/** Day-month order of a language's dates (en-US month first; pt-BR and es-ES day first). */
const monthFirst = (locale: string) => /^en-US$/i.test(locale)

/** The date-time format shown as a field's placeholder and hint, in the language's own words. */
export function dateTimePattern(locale: string, withTime = true): string {
  const date = monthFirst(locale) ? 'mm/dd/yyyy' : 'dd/mm/aaaa'
  return withTime ? `${date} hh:mm` : date
}

/**
 * A date-time typed in the language's format (`23/11/2026 14:30`, en-US `11/23/2026 14:30`; the time is optional,
 * midnight when left out) → `YYYY-MM-DDTHH:mm`; an ISO-like `2026-11-23T14:30` (or with a space) is accepted too.
 * Unreadable or impossible dates (31/02) → null.
 */
export function readDateTime(text: string, locale: string): string | null {
  const s = text.trim()
  const pad = (n: number) => String(n).padStart(2, '0')
  let y: number,
    mo: number,
    d: number,
    h = 0,
    mi = 0
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ ,T]+(\d{1,2}):(\d{2}))?$/.exec(s)
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/.exec(s)
  if (local) {
    ;[d, mo] = monthFirst(locale) ? [Number(local[2]), Number(local[1])] : [Number(local[1]), Number(local[2])]
    y = Number(local[3])
    if (local[4]) [h, mi] = [Number(local[4]), Number(local[5])]
  } else if (iso) {
    ;[y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    if (iso[4]) [h, mi] = [Number(iso[4]), Number(iso[5])]
  } else return null
  const probe = new Date(Date.UTC(y, mo - 1, d))
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || h > 23 || mi > 59) return null
  return `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}`
}

/** `YYYY-MM-DDTHH:mm` → the language's format (what a date-time field shows). */
export function showDateTime(local: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
  if (!m) return local
  const date = monthFirst(locale) ? `${m[2]}/${m[3]}/${m[1]}` : `${m[3]}/${m[2]}/${m[1]}`
  return `${date} ${m[4]}:${m[5]}`
}

/** A date typed in the language's format (or ISO) → `YYYY-MM-DD`; unreadable or impossible dates → null. */
export function readDate(text: string, locale: string): string | null {
  return readDateTime(text, locale)?.slice(0, 10) ?? null
}

/** `YYYY-MM-DD` → the language's format; anything else is shown as typed. */
export function showDate(iso: string, locale: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? showDateTime(`${iso}T00:00`, locale).slice(0, 10) : iso
}
