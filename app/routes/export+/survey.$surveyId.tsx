import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { toCsv, type TableColumn } from '~/lib/table'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { getT } from '~/server/i18n.server'
import { roomParam } from '../_console+/survey+/__survey.server'

type Row = { question: string; type: string; option: string; count: number | string; percent: number | string }

/** CSV of a survey's result (optionally of one room): one line per choice or scale point, and each text answer. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'survey.survey.result')
  const room = roomParam(request)
  const [r, t] = await Promise.all([
    orErrorResponse(apiData(api.survey.survey[':id'].result.$get({ param: { id: params.surveyId ?? '' }, query: room ? { room } : {} }))),
    getT(request),
  ])
  const rows: Row[] = r.questions.flatMap((q, i): Row[] => {
    const question = `${i + 1}. ${q.statement}`
    const type = t(`survey.type.${q.type}`)
    return q.type === 'text'
      ? q.texts.map((text) => ({ question, type, option: text, count: '', percent: '' }))
      : q.options.map((o) => ({ question, type, option: o.label, count: o.count, percent: o.percent }))
  })
  const columns: TableColumn<Row>[] = (['question', 'type', 'option', 'count', 'percent'] as const).map((id) => ({ id, label: `survey.result.csv.${id}` }))
  return new Response(toCsv(columns, rows, t), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="survey-${r.survey.id}${room ? `-${room}` : ''}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}
