import { dateTimeFormat } from './format'
/**
 * Date-time fields are typed and shown in the realm's time zone (seed 000 §3 `time_zone`, America/Sao_Paulo by
 * default), whatever the browser's or the server's zone, so a form works the same with or without script.
 */
const parts = (date: Date, timeZone: string) => {
  const f = dateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]))
  return { y: Number(p.year), mo: Number(p.month), d: Number(p.day), h: Number(p.hour), mi: Number(p.minute), s: Number(p.second) }
}

/** Minutes the zone is ahead of UTC at that instant. */
function offsetMinutes(date: Date, timeZone: string): number {
  const p = parts(date, timeZone)
  return (Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(date.getTime() / 1000) * 1000) / 60_000
}

/** `YYYY-MM-DDTHH:mm` (a datetime-local value) in `timeZone` → ISO instant; '' or malformed → null. */
export function zonedToIso(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local.trim())
  if (!m) return null
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]))
  // Two passes settle the offset around daylight-saving changes.
  let guess = asUtc - offsetMinutes(new Date(asUtc), timeZone) * 60_000
  guess = asUtc - offsetMinutes(new Date(guess), timeZone) * 60_000
  return new Date(guess).toISOString()
}

/** ISO instant → `YYYY-MM-DDTHH:mm` in `timeZone` (for a datetime-local input); null/'' → ''. */
export function isoToZoned(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const p = parts(d, timeZone)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${p.y}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}`
}
