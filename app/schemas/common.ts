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

/** Query of every list endpoint: limit/offset paging (default 25/0), `like` search, `order` (`field` or `-field`). */
export const ListQuery = v.object({
  limit: intFromQuery(1, MAX_LIMIT, DEFAULT_LIMIT),
  offset: intFromQuery(0, Number.MAX_SAFE_INTEGER, 0),
  like: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
  order: v.optional(v.pipe(v.string(), v.regex(/^(-?[a-z_][a-z0-9_]*)?$/, 'validation.order')), ''),
})
export type ListQuery = v.InferOutput<typeof ListQuery>

/** Answer of every list endpoint. */
export interface ListPage<T> {
  items: T[]
  total: number
  limit: number
  offset: number
}

/** Accepts http(s) URLs; a bare host gets `https://` prepended (seed 000 §5: new realm URLs). */
export const UrlWithDefaultScheme = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s) => (s === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`)),
  v.check((s) => s === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(s), 'validation.url'),
)
