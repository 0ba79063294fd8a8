import type { AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ListSpec } from '~/lib/lists'
import { ListQuery, MAX_LIMIT, PAGE_SIZES, type ListPage } from '~/schemas/common'
import { requireAccess } from './auth.server'

/** The list query of a page URL; anything invalid falls back to the defaults (25 rows from the start). */
export function listQueryFromUrl(url: URL): ListQuery {
  const raw = Object.fromEntries(['limit', 'offset', 'like', 'order'].flatMap((k) => (url.searchParams.has(k) ? [[k, url.searchParams.get(k)]] : [])))
  const parsed = v.safeParse(ListQuery, raw)
  const query = parsed.success ? parsed.output : v.parse(ListQuery, {})
  if (!(PAGE_SIZES as readonly number[]).includes(query.limit)) query.limit = PAGE_SIZES[0]
  return query
}

/** Loads one page of a declared list for a console screen, behind the list's access rule. */
export async function loadList<Row>(request: Request, context: AppLoadContext, spec: ListSpec<Row>) {
  const { api, user } = await requireAccess(request, context, spec.access)
  const query = listQueryFromUrl(new URL(request.url))
  const page = await api.get<ListPage<Row>>(spec.apiPath, { ...query })
  return { page, query, user }
}

/** Every row of a declared list under the page's search and order (CSV export), up to `cap` rows. */
export async function loadAllRows<Row>(request: Request, context: AppLoadContext, spec: ListSpec<Row>, cap = 10_000): Promise<Row[]> {
  const { api } = await requireAccess(request, context, spec.access)
  const { like, order } = listQueryFromUrl(new URL(request.url))
  const rows: Row[] = []
  for (let offset = 0; offset < cap; offset += MAX_LIMIT) {
    const page = await api.get<ListPage<Row>>(spec.apiPath, { like, order, limit: MAX_LIMIT, offset })
    rows.push(...page.items)
    if (page.items.length < MAX_LIMIT || offset + MAX_LIMIT >= page.total) break
  }
  return rows.slice(0, cap)
}
