import type { AppLoadContext } from '@remix-run/cloudflare'
import { AdjustmentsInput, RevisionRequest, correctionSchema, correctionValues } from '#shared/schemas/tms/correction'
import { apiAction } from '~/server/api-action.server'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { scoredQuestions } from './__correct'

/** The scores (or skill grades) the teacher typed (a question left empty keeps the score it had; a skill left empty is ungraded). */
function given(scores: Record<string, number | undefined>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [id, s] of Object.entries(scores)) if (s !== undefined) out[id] = s
  return out
}

/** One answer as the correction screen reads it (404 when it is not an answer of this task). */
export async function loadAnswer(request: Request, context: AppLoadContext, taskId: string, answerId: string) {
  const { api, user } = await requireRoute(request, context, 'tms.task.correct')
  const answer = await orErrorResponse(apiData(api.tms.answer[':id'].$get({ param: { id: answerId } })))
  if (answer.task?.id !== taskId) throw new Response(null, { status: 404 })
  return { api, user, answer }
}

/**
 * The correction's actions: save or finalize (scores on each question's step, comments, final considerations, the
 * AI comment as edited), or request adjustments (only its comment; the unsaved changes are discarded) — each one
 * `PUT /tms/answer/{id}/correction` —, or ask the AI assistant for a revision (`POST …/ai-revision`, paid); success
 * comes back to the screen with a flash.
 */
export async function correctAction(request: Request, context: AppLoadContext, taskId: string, answerId: string) {
  const intent = (await request.clone().formData()).get('action')
  const adjust = intent === 'request_adjustments'
  const { answer } = await loadAnswer(request, context, taskId, answerId)
  const back = `/tms/task/${taskId}/${answerId}/correct`
  const param = { id: answerId }
  if (adjust) {
    return apiAction(request, context, {
      route: 'tms.task.correct',
      schema: AdjustmentsInput,
      call: (api, json) => apiData(api.tms.answer[':id'].correction.$put({ param, json })),
      redirect: back,
      flash: 'correct.done.request_adjustments',
    })
  }
  if (intent === 'ai_revision') {
    return apiAction(request, context, {
      route: 'tms.task.correct',
      schema: RevisionRequest,
      call: (api, { action: _, ...json }) => apiData(api.tms.answer[':id']['ai-revision'].$post({ param, json })),
      redirect: back,
      flash: (a) => ({ kind: 'success', message: a.ai_result.engine === 'local' ? 'correct.ai.done_local' : 'correct.ai.done' }),
    })
  }
  const questions = scoredQuestions(answer.questions, answer.essay_skills)
  const withAi = answer.ai_comment.trim() !== ''
  return apiAction(request, context, {
    route: 'tms.task.correct',
    schema: correctionSchema(questions),
    prepare: correctionValues(questions, withAi),
    call: (api, { scores, skill_grades, ...rest }) =>
      apiData(
        api.tms.answer[':id'].correction.$put({
          param,
          json: { ...rest, scores: given(scores), skill_grades: Object.fromEntries(Object.entries(skill_grades).map(([id, g]) => [id, given(g)])) },
        }),
      ),
    redirect: back,
    flash: (a) => ({ kind: 'success', message: a.status === 'review' ? 'correct.done.save' : 'correct.done.finalize' }),
  })
}
