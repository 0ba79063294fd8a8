import * as v from 'valibot'

/** Realm code rule (seed 000 §5): a lowercase letter or digit, then up to 8 letters, digits, hyphens or
 * underscores, ending with a letter or digit. Decision: letters are lowercase throughout, so the longest
 * code is 10 characters (REALM_CODE_MAX). */
export const REALM_CODE_PATTERN = /^[a-z0-9](?:[a-z0-9_-]{0,8}[a-z0-9])?$/
export const REALM_CODE_MAX = 10

export const RealmCode = v.pipe(
  v.string('validation.realm_code'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(REALM_CODE_MAX, 'validation.realm_code'),
  v.regex(REALM_CODE_PATTERN, 'validation.realm_code'),
)

/** A day of the calendar, `YYYY-MM-DD` (not 2026-02-30); false for any other text, never a throw. */
export const isCalendarDay = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)

/** A day of the calendar as a schema: one issue ('validation.day': a date, no time) for any text that is not one. */
export const CalendarDay = (notString = 'validation.day') => v.pipe(v.string(notString), v.check(isCalendarDay, 'validation.day'))

/** Default page size and allowed page sizes of every list (seed 000 §9). */
export const PAGE_SIZES = [25, 50, 100] as const
export const DEFAULT_LIMIT = 25
export const MAX_LIMIT = 1000

const intFromQuery = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.union([v.string(), v.number()]),
      v.transform((x) => (typeof x === 'number' ? x : x.trim() === '' ? fallback : Number(x))),
      v.number('validation.number'),
      v.integer('validation.integer'),
      v.minValue(min, 'validation.min_value'),
      v.maxValue(max, 'validation.max_value'),
    ),
    fallback,
  )

/**
 * Longest opaque paging cursor a list accepts (it holds one sort value and one key). A page whose boundary rows
 * would need a longer one (a very long sorted text) answers no cursors, and the console pages it by offset.
 */
export const CURSOR_MAX = 4000
const Cursor = v.optional(v.pipe(v.string(), v.maxLength(CURSOR_MAX, 'validation.max_length')), '')

/**
 * Query of every list endpoint: `like` search, `order` (`field` or `-field`), and paging, either by position
 * (`limit`/`offset`, default 25/0) or by cursor: `after` (the page after the row a `next` cursor names), `before`
 * (the page before a `prev` cursor's row) or `last=1` (the last page, read by reversing the order: no large
 * OFFSET). With a cursor `offset` skips nothing; it is the position of the page the client reports (the console
 * carries it in its URLs to show "26–50"), answered back as it came.
 */
export const ListQuery = v.object({
  limit: intFromQuery(1, MAX_LIMIT, DEFAULT_LIMIT),
  offset: intFromQuery(0, Number.MAX_SAFE_INTEGER, 0),
  like: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
  order: v.optional(v.pipe(v.string(), v.regex(/^(-?[a-z_][a-z0-9_]*)?$/, 'validation.order')), ''),
  after: Cursor,
  before: Cursor,
  last: v.optional(
    v.pipe(
      v.picklist(['', '0', '1', 'true', 'false'], 'validation.boolean'),
      v.transform((x) => x === '1' || x === 'true'),
    ),
    '',
  ),
})
export type ListQuery = v.InferOutput<typeof ListQuery>

/**
 * Lists count matching rows up to this many: `total` is exact below it; above it the answer says `total_capped`
 * (the console shows "more than 10,000") instead of counting every row of a large realm on each page.
 */
export const COUNT_CAP = 10_000

/** Answer of every list endpoint. */
export interface ListPage<T> {
  items: T[]
  /** Matching rows, counted up to COUNT_CAP (then `total_capped`). */
  total: number
  /** True when more than `total` rows match (the count stopped at COUNT_CAP). */
  total_capped?: boolean
  limit: number
  offset: number
  /** Cursor of the page after this one (`?after=`), null on the last page. */
  next?: string | null
  /** Cursor of the page before this one (`?before=`), null on the first page. */
  prev?: string | null
}

/** Longest address accepted anywhere. */
export const URL_MAX = 2000
/** Schemes a web address may use. `ftp` only where seed 000 §5 allows plain links (never for content links). */
export type UrlScheme = 'http' | 'https' | 'ftp'
const WEB: readonly UrlScheme[] = ['http', 'https']
/** Control characters, whitespace and bidirectional controls: never part of an address someone typed on purpose. */
const UNSAFE_IN_URL = /[\u0000-\u0020\u007f-\u00a0\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/
/** Text that names its own scheme (`a:b`, `javascript:…`); `host:8080` is a port, not a scheme. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i

/**
 * The one parser of web addresses: an absolute URL that `new URL` accepts, with an allowed scheme, a host and no
 * user name or password (`https://bank.example@evil.example`). Null for anything else, never an exception, so
 * readers of stored values can use it too.
 */
export function parseWebUrl(raw: string, schemes: readonly UrlScheme[] = WEB): URL | null {
  if (typeof raw !== 'string' || raw.length > URL_MAX || UNSAFE_IN_URL.test(raw)) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if (!schemes.includes(url.protocol.slice(0, -1) as UrlScheme)) return null
  if (!url.hostname || url.username || url.password) return null
  return url
}

/** True for an address `parseWebUrl` accepts. */
export const isWebUrl = (raw: string, schemes: readonly UrlScheme[] = WEB) => parseWebUrl(raw, schemes) !== null

export interface WebUrlOptions {
  /** Allowed schemes; http and https by default. */
  schemes?: readonly UrlScheme[]
  /** Prepend `https://` to text without a scheme (seed 000 §5: new realm URLs get https:// if missing). */
  defaultScheme?: boolean
  /** Accept the empty string (an unset optional address). */
  empty?: boolean
  /** Also accept a path on this site (`/ledger/…`, never `//host`); absolute ones still need an allowed scheme. */
  relative?: boolean
  max?: number
}

/**
 * The one valibot schema of every address field (asset links, realm URLs, metaverse scenes, return and redirect
 * addresses): trimmed, at most `max` characters, and accepted only when `parseWebUrl` parses it (or, where
 * `relative`, it is a path on this site). Failures are `validation.url` (400 with the envelope), so a malformed
 * address never reaches code that parses it again.
 */
export function WebUrl(options: WebUrlOptions = {}) {
  const { schemes = WEB, defaultScheme = false, empty = false, relative = false, max = URL_MAX } = options
  return v.pipe(
    v.string('validation.url'),
    v.trim(),
    v.maxLength(max, 'validation.max_length'),
    v.transform((s) => (defaultScheme && s !== '' && !HAS_SCHEME.test(s) && !s.startsWith('/') ? `https://${s}` : s)),
    v.check((s) => (s === '' ? empty : isAcceptedUrl(s, { schemes, relative })), 'validation.url'),
  )
}

/** The rule WebUrl applies, for code that reads stored addresses back (a value stored before the rule may break it). */
export function isAcceptedUrl(s: string, { schemes = WEB, relative = false }: Pick<WebUrlOptions, 'schemes' | 'relative'> = {}): boolean {
  return (relative && isLocalPath(s)) || isWebUrl(s, schemes)
}

/** A path on this site: starts with one `/` (not `//` or `/\`, which browsers read as another host), nothing unsafe. */
export function isLocalPath(s: string): boolean {
  if (!/^\/(?![/\\])/.test(s) || UNSAFE_IN_URL.test(s)) return false
  try {
    return new URL(s, 'http://x.invalid').host === 'x.invalid'
  } catch {
    return false
  }
}

/** Realm and content addresses: http(s), `https://` prepended when the scheme is missing, empty allowed. */
export const UrlWithDefaultScheme = WebUrl({ defaultScheme: true, empty: true })
