import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { LISTS } from '~/lib/lists'
import { toCsv } from '~/lib/table'
import { getT } from '~/server/i18n.server'
import { loadAllRows } from '~/server/list.server'

/** CSV export of a declared list under the current search and order, with the table's own columns and labels. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const spec = LISTS[params.list ?? '']
  if (!spec) throw new Response('Not found', { status: 404 })
  const [rows, t] = await Promise.all([loadAllRows(request, context, spec), getT(request)])
  const date = new Date().toISOString().slice(0, 10)
  return new Response(toCsv(spec.columns, rows, t), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${spec.name}-${date}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}
