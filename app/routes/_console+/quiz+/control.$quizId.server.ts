import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { QuizBankImportInput, QuizImportInput, QuizQuestionInput } from '#shared/schemas/quiz'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse, orNull } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction, apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { bankIds } from '~/components/quiz/bank-import'

/** The quiz's control screen: its settings and questions, and (from D1) statistics, winners and what the finish paid. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm, user } = await requireRoute(request, context, 'quiz.control')
  const param = { id: params.quizId ?? '' }
  const quiz = await orErrorResponse(apiData(api.quiz[':id'].$get({ param })))
  // The question bank's single-choice items (`?bank=` searches their statements), for an editor who may list the bank.
  const bankLike = (new URL(request.url).searchParams.get('bank') ?? '').trim().slice(0, 200)
  const canBank =
    user.permissions.quiz_quiz_edit === true && user.permissions.tms_question_bank_list === true && (quiz.status === 'draft' || quiz.status === 'active')
  const [questions, statistics, winners, bank] = await Promise.all([
    apiData(api.quiz[':id'].question.$get({ param })),
    apiData(api.quiz[':id'].statistics.$get({ param })),
    orNull(apiData(api.quiz[':id'].winners.$get({ param })), [404]),
    canBank
      ? apiData(
          api.entity<BankRow>('tms/question_bank').index.$get({ query: { limit: String(BANK_PAGE), like: bankLike, type: 'single', order: 'statement_text' } }),
        ).then(
          (page) => ({ items: page.items.map((b) => ({ id: b.id, text: clip(b.statement_text) })), more: page.items.length === BANK_PAGE, failed: false }),
          () => ({ items: [], more: false, failed: true }),
        )
      : null,
  ])
  return {
    quiz,
    questions: questions.items,
    statistics,
    winners,
    bank: bank ? { ...bank, like: bankLike } : null,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    canEdit: user.permissions.quiz_quiz_edit === true,
    canClone: user.permissions.quiz_quiz_create === true,
  }
}

/** Bank items offered at once (a search narrows them). */
const BANK_PAGE = 20
type BankRow = { id: string; statement_text: string }
/** A statement as a choice's label: at most 160 characters. */
const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text)

/** What a bank import answers the screen besides its form's reply: what it added and what it skipped, and why. */
export type BankImportAnswer = {
  imported: { id: string; position: number; text: string }[]
  skipped: { id: string; index: number; text: string; field: string; cause: string; message: string; value: unknown }[]
}

/** What a lifecycle `op` answers the screen. */
export type LifecycleAnswer = {
  ok: boolean
  errors: ErrorItem[]
  finish?: { payouts: { nick: string; points: number; transaction_id: string }[] }
  clone?: { id: string; name: string }
}

const Lifecycle = v.object({
  op: v.picklist(['start', 'cancel', 'finish', 'clone', 'delete_question', 'hide_question'] as const),
  question: v.optional(v.pipe(v.string(), v.maxLength(64)), ''),
})

/**
 * `?intent=question` adds a question, `?intent=edit_question&question={qid}` changes a pending one (the API refuses any
 * other, 409), `?intent=import` imports a file's questions, `?intent=bank` the chosen question-bank items (answering
 * what it added and what it skipped); otherwise a lifecycle `op`.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.quizId ?? ''
  const param = { id }
  const intent = new URL(request.url).searchParams.get('intent')
  const done = { onSuccess: (_: unknown, submission: { reply: (o?: { resetForm?: boolean }) => unknown }) => submission.reply({ resetForm: true }) }
  if (intent === 'question')
    return apiAction(request, context, {
      access: { all: ['quiz_quiz_edit'] },
      schema: QuizQuestionInput,
      call: (api, json) => apiData(api.quiz[':id'].question.$post({ param, json })),
      ...done,
    })
  if (intent === 'edit_question') {
    const qid = new URL(request.url).searchParams.get('question') ?? ''
    return apiAction(request, context, {
      access: { all: ['quiz_quiz_edit'] },
      schema: QuizQuestionInput,
      call: (api, json) => apiData(api.quiz[':id'].question[':qid'].$put({ param: { id, qid }, json })),
      // The screen closes the question's form on this success (the table reloads with the saved question).
      onSuccess: (_, submission) => submission.reply(),
    })
  }
  if (intent === 'bank')
    return apiAction(request, context, {
      access: { all: ['quiz_quiz_edit', 'tms_question_bank_list'] },
      schema: QuizBankImportInput,
      prepare: bankIds,
      call: (api, json) => apiData(api.quiz[':id'].question.bank.$post({ param, json })),
      onSuccess: (answer, submission) => ({
        ...submission.reply({ resetForm: true }),
        bank: {
          imported: answer.items.map((q) => ({ id: q.id, position: q.position, text: q.text })),
          skipped: answer.skipped,
        } satisfies BankImportAnswer,
      }),
    })
  if (intent === 'import')
    return apiAction(request, context, {
      access: { all: ['quiz_quiz_edit'] },
      schema: QuizImportInput,
      call: (api, json) => apiData(api.quiz[':id'].question.import.$post({ param, json })),
      ...done,
    })
  const { api } = await requireRoute(request, context, 'quiz.control')
  const form = v.safeParse(Lifecycle, Object.fromEntries(await request.formData()))
  if (!form.success) return { ok: false as const, errors: [{ field: 'op', cause: 'invalid', value: null, message: 'validation.picklist' }] as ErrorItem[] }
  const { op, question } = form.output
  return apiResult(async () => {
    if (op === 'start') await apiData(api.quiz[':id'].start.$post({ param }))
    else if (op === 'cancel') await apiData(api.quiz[':id'].cancel.$post({ param }))
    else if (op === 'finish') return { ok: true as const, errors: [] as ErrorItem[], finish: await apiData(api.quiz[':id'].finish.$post({ param })) }
    else if (op === 'clone') return { ok: true as const, errors: [] as ErrorItem[], clone: await apiData(api.quiz[':id'].clone.$post({ param })) }
    else if (op === 'hide_question') await apiData(api.quiz[':id'].question[':qid'].hide.$post({ param: { id, qid: question } }))
    else await apiData(api.quiz[':id'].question[':qid'].$delete({ param: { id, qid: question } }))
    return { ok: true as const, errors: [] as ErrorItem[] }
  })
}
