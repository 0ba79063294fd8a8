import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { PollQuestionInput } from '#shared/schemas/quiz'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction, apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'

/** The poll's control screen: its settings, questions and the votes per option (from D1). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm, user } = await requireRoute(request, context, 'poll.control')
  const param = { id: params.pollId ?? '' }
  const poll = await orErrorResponse(apiData(api.poll[':id'].$get({ param })))
  const [questions, statistics] = await Promise.all([apiData(api.poll[':id'].question.$get({ param })), apiData(api.poll[':id'].statistics.$get({ param }))])
  return {
    poll,
    questions: questions.items,
    statistics: statistics.questions,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    canEdit: user.permissions.poll_poll_edit === true,
    canClone: user.permissions.poll_poll_create === true,
  }
}

/** What a lifecycle `op` answers the screen. */
export type PollLifecycleAnswer = { ok: boolean; op?: string; errors: ErrorItem[]; clone?: { id: string; name: string } }

/** Publish, show result and finish go through the quiz party (the live island); these change a question at rest. */
const QUESTION_OPS = ['hide', 'delete_question'] as const
const Lifecycle = v.object({
  op: v.picklist(['start', 'cancel', 'finish', 'clone', ...QUESTION_OPS] as const),
  question: v.optional(v.pipe(v.string(), v.maxLength(64)), ''),
})

/**
 * `?intent=question` adds a question, `?intent=edit_question&question={qid}` changes a pending one (the API refuses any
 * other, 409); otherwise a lifecycle `op` (the poll's, or one question's).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.pollId ?? ''
  const param = { id }
  const search = new URL(request.url).searchParams
  if (search.get('intent') === 'question')
    return apiAction(request, context, {
      access: { all: ['poll_poll_edit'] },
      schema: PollQuestionInput,
      call: (api, json) => apiData(api.poll[':id'].question.$post({ param, json })),
      onSuccess: (_: unknown, submission) => submission.reply({ resetForm: true }),
    })
  if (search.get('intent') === 'edit_question') {
    const qid = search.get('question') ?? ''
    return apiAction(request, context, {
      access: { all: ['poll_poll_edit'] },
      schema: PollQuestionInput,
      call: (api, json) => apiData(api.poll[':id'].question[':qid'].$put({ param: { id, qid }, json })),
      // The screen closes the question's form on this success (the table reloads with the saved question).
      onSuccess: (_: unknown, submission) => submission.reply(),
    })
  }
  const { api } = await requireRoute(request, context, 'poll.control')
  const form = v.safeParse(Lifecycle, Object.fromEntries(await request.formData()))
  if (!form.success) return { ok: false as const, errors: [{ field: 'op', cause: 'invalid', value: null, message: 'validation.picklist' }] as ErrorItem[] }
  const { op, question } = form.output
  const qp = { param: { id, qid: question } }
  return apiResult(async () => {
    const q = api.poll[':id'].question[':qid']
    if (op === 'start') await apiData(api.poll[':id'].start.$post({ param }))
    else if (op === 'cancel') await apiData(api.poll[':id'].cancel.$post({ param }))
    else if (op === 'finish') await apiData(api.poll[':id'].finish.$post({ param }))
    else if (op === 'clone') return { ok: true as const, op, errors: [] as ErrorItem[], clone: await apiData(api.poll[':id'].clone.$post({ param })) }
    else if (op === 'hide') await apiData(q.hide.$post(qp))
    else await apiData(q.$delete(qp))
    return { ok: true as const, op, errors: [] as ErrorItem[] }
  })
}
