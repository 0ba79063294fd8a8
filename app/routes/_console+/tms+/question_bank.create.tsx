import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { BankEditor } from '~/components/tms/bank-editor'
import { requireRoute } from '~/server/auth.server'
import { bankSaveAction } from './__bank.server'
import { editorRefs } from './__model.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.question_bank.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'tms.question_bank.create')
  const { categories, genres, skills } = await editorRefs(api, user)
  return { categories: categories.filter((c) => c.enabled && c.selectable), genres, skills }
}

export const action = ({ request, context }: ActionFunctionArgs) => bankSaveAction(request, context, 'tms.question_bank.create')

/** A new bank question (seed 001 §3): type text, difficulty easy, score 0. */
const EMPTY = {
  type: 'text',
  statement: '',
  comment: '',
  score: 0,
  required: true,
  shuffle: false,
  partial_score: false,
  categories: [],
  media_type: '',
  media_url: '',
  extra_fields: {},
  options: { min_text_count: 1, max_text_count: 1000 },
  difficulty: 'easy',
  tags: [],
  grade_id: null,
  subject_id: '',
  standard_id: '',
  descriptor_id: '',
  batch_id: '',
  curriculum: '',
}

export default function QuestionBankCreateRoute() {
  const { categories, genres, skills } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.tms.question_bank.create')}</h1>
        <Link to="/tms/question_bank" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <BankEditor initial={EMPTY} refs={{ genres, skills }} categories={categories} />
    </>
  )
}

export const ErrorBoundary = RouteError
