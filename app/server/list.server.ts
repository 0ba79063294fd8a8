import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ListSpec } from '~/lib/lists'
import { dateParam, paramsOf } from '~/lib/search'
import { ListQuery, MAX_LIMIT, PAGE_SIZES } from '#shared/schemas/common'
import { RealmApiError, apiData, orErrorResponse, type RealmApi } from './api.server'
import { getLocale } from './i18n.server'
import { requireRoute } from './auth.server'

/** Table load timeout (seed 000 §9): a list that does not answer in time shows its error state. */
export const LIST_TIMEOUT_MS = 5000

/**
 * The list query of a page URL (paging by cursor: `after`/`before`/`last`, with `offset` the position shown); anything
 * invalid falls back to the defaults (25 rows from the start).
 */
export function listQueryFromUrl(url: URL): ListQuery {
  const raw = Object.fromEntries(
    ['limit', 'offset', 'like', 'order', 'after', 'before', 'last'].flatMap((k) => (url.searchParams.has(k) ? [[k, url.searchParams.get(k)]] : [])),
  )
  const parsed = v.safeParse(ListQuery, raw)
  const query = parsed.success ? parsed.output : v.parse(ListQuery, {})
  if (!(PAGE_SIZES as readonly number[]).includes(query.limit)) query.limit = PAGE_SIZES[0]
  return query
}

/** The search-bar filters of a page URL that the list's descriptors declare; dates typed in the page language become ISO. */
function filtersFromUrl<Row>(url: URL, spec: ListSpec<Row>, locale: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const d of spec.search ?? [])
    for (const p of paramsOf(d)) {
      const value = url.searchParams.get(p)
      if (value) out[p] = d.type === 'date' ? dateParam(value, locale) : value
    }
  return out
}

/**
 * A list's API in this realm: `{realm}` in its path stands for the realm in use (lists of a realm's own resources);
 * a query in the path (`mas/realm?deleted=true`) is the list's fixed query, under the page's own.
 */
function listApi<Row>(api: RealmApi, spec: ListSpec<Row>, realm: string | null, timeoutMs?: number) {
  const [path, fixed] = spec.apiPath.replace('{realm}', encodeURIComponent(realm ?? '')).split('?')
  return { list: api.entity<Row>(path, timeoutMs).index, fixed: Object.fromEntries(new URLSearchParams(fixed ?? '')) }
}

/** Loads one page of a declared list for a console screen, behind the list's route guard. */
export async function loadList<Row>(request: Request, context: AppLoadContext, spec: ListSpec<Row>) {
  const { api, user, realm } = await requireRoute(request, context, spec.route)
  const url = new URL(request.url)
  const query = listQueryFromUrl(url)
  const { list, fixed } = listApi(api, spec, realm.code, LIST_TIMEOUT_MS)
  const page = await orErrorResponse(
    apiData(list.$get({ query: { ...fixed, ...query, ...filtersFromUrl(url, spec, await getLocale(request)) } })).catch((err: unknown) => {
      // A page link whose cursor no longer fits the list (an old bookmark, a hand-edited URL): its first page instead.
      if (err instanceof RealmApiError && err.status === 400 && err.errors.length > 0 && err.errors.every((e) => e.field === 'after' || e.field === 'before')) {
        for (const k of ['after', 'before', 'last', 'offset']) url.searchParams.delete(k)
        throw redirect(`${url.pathname}${url.search}`)
      }
      throw err
    }),
  )
  return { page, query, user, realm, api }
}

/** Every row of a declared list under the page's search, filters and order (CSV export), up to `cap` rows. */
export async function loadAllRows<Row>(request: Request, context: AppLoadContext, spec: ListSpec<Row>, cap = 10_000): Promise<Row[]> {
  const { api, realm } = await requireRoute(request, context, spec.route)
  const url = new URL(request.url)
  const { like, order } = listQueryFromUrl(url)
  const filters = filtersFromUrl(url, spec, await getLocale(request))
  const { list, fixed } = listApi(api, spec, realm.code)
  const rows: Row[] = []
  // Page after page by cursor (each page seeks the index from the last row read); by offset for lists without cursors.
  let after: string | null | undefined
  for (let offset = 0; offset < cap; offset += MAX_LIMIT) {
    const paging = after ? { after } : { offset }
    const page = await orErrorResponse(apiData(list.$get({ query: { ...fixed, like, order, ...filters, limit: MAX_LIMIT, ...paging } })))
    rows.push(...page.items)
    after = page.next
    if (page.items.length < MAX_LIMIT || (page.next === undefined ? offset + MAX_LIMIT >= page.total : !page.next)) break
  }
  return rows.slice(0, cap)
}
