import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { BankEditor } from '~/components/tms/bank-editor'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { bankSaveAction } from './__bank.server'
import { editorRefs } from './__model.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.question_bank.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'tms.question_bank.edit')
  const item = await orErrorResponse(apiData(api.tms.question_bank[':id'].$get({ param: { id: params.questionId ?? '' } })))
  const { categories, genres, skills } = await editorRefs(api, user)
  return { item, categories: categories.filter((c) => c.enabled && c.selectable), genres, skills }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => bankSaveAction(request, context, 'tms.question_bank.edit', params.questionId)

export default function QuestionBankEditRoute() {
  const { item, categories, genres, skills } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  const { id: _id, realm: _realm, statement_text: _text, created_at, created_by, updated_at: _u, updated_by: _ub, ...question } = item
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.tms.question_bank.edit')}</h1>
          <p className="hint">{t('tms.bank.created_by', { by: created_by, at: formatTime(created_at, clock) })}</p>
        </div>
        <Link to="/tms/question_bank" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <BankEditor key={`${item.id}/${item.updated_at}`} initial={question} refs={{ genres, skills }} categories={categories} />
    </>
  )
}

export const ErrorBoundary = RouteError
