import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { SurveyAnswerInput, SurveyInput, SurveyPublishInput, SurveyUpdate } from '#shared/schemas/survey/survey'
import { apiData, validBody } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'
import { ID, invalid, jsonField } from '../lesson+/__lesson.server'

/** The result's room filter from the address; an invalid one is ignored (all rooms), as list filters are. */
export const roomParam = (request: Request) => {
  const r = v.safeParse(ID, new URL(request.url).searchParams.get('room'))
  return r.success ? r.output : undefined
}

/** The model editor's action: creates (`modelId` absent) or replaces a model, back to its edit screen. */
export async function surveyModelAction(request: Request, context: AppLoadContext, modelId: string | null) {
  const { api } = await requireRoute(request, context, modelId ? 'survey.model.edit' : 'survey.model.create')
  const body = jsonField(await request.formData(), 'model')
  if (body === undefined) return invalid('model')
  return apiResult(async () => {
    const saved = modelId
      ? await apiData(api.survey.model[':id'].$put({ param: { id: modelId }, json: validBody(SurveyInput, body) }))
      : await apiData(api.survey.model.$post({ json: validBody(SurveyInput, body) }))
    throw redirect(`/survey/model/edit/${saved.id}`, { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'survey.editor.saved' }) } })
  })
}

/** Publishes a model to its targets and dates (`publication` as JSON), then the survey's detail. */
export async function surveyPublishAction(request: Request, context: AppLoadContext, route: 'survey.survey.create' | 'survey.survey.edit') {
  const { api } = await requireRoute(request, context, route)
  const body = jsonField(await request.formData(), 'publication')
  if (body === undefined) return invalid('publication')
  return apiResult(async () => {
    const survey = await apiData(api.survey.survey.$post({ json: validBody(SurveyPublishInput, body) }))
    throw redirect(`/survey/survey/detail/${survey.id}`, {
      headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: `survey.publish.done_${survey.status}` }) },
    })
  })
}

/** The lists' delete action (after the typed confirmation); a model with published surveys is refused (§8). */
export async function surveyDeleteAction(request: Request, context: AppLoadContext, kind: 'model' | 'survey') {
  const { api } = await requireRoute(request, context, kind === 'model' ? 'survey.model.list' : 'survey.survey.list')
  const id = v.safeParse(ID, (await request.formData()).get('id'))
  if (!id.success)
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'validation.id' }] as ErrorItem[] }, { status: 400 })
  return apiResult(async () => {
    if (kind === 'model') await api.survey.model[':id'].$delete({ param: { id: id.output } })
    // A survey with answers is refused (409 survey_has_answers); the list shows why.
    else await api.survey.survey[':id'].$delete({ param: { id: id.output } })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}

/** Staff revise an answer (`answers` as JSON); the API keeps the revision. */
export async function surveyReviseAction(request: Request, context: AppLoadContext, surveyId: string, answerId: string) {
  const { api } = await requireRoute(request, context, 'survey.survey.revise')
  const body = jsonField(await request.formData(), 'answers')
  if (body === undefined) return invalid('answers')
  return apiResult(async () => {
    await apiData(
      api.survey.survey[':id'].answers[':answerId'].$put({ param: { id: surveyId, answerId }, json: validBody(SurveyAnswerInput, { answers: body }) }),
    )
    throw redirect(`/survey/survey/${surveyId}/${answerId}/revise`, {
      headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'survey.revise.saved' }) },
    })
  })
}

/**
 * The detail screen's actions (issue 19): `intent=update` changes the dates and targets (`publication` as JSON, the
 * publish form's shape; the model is not sent), `intent=withdraw` deletes the publication (refused with answers),
 * back to the list. Each checks its own permission besides the screen's.
 */
export async function surveyDetailAction(request: Request, context: AppLoadContext, surveyId: string) {
  const form = await request.formData()
  const intent = form.get('intent')
  if (intent === 'withdraw') {
    const { api } = await requireAccess(request, context, { all: ['survey_survey_list', 'survey_survey_delete'] })
    return apiResult(async () => {
      await apiData(api.survey.survey[':id'].$delete({ param: { id: surveyId } }))
      throw redirect('/survey/survey', { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'survey.withdraw.done' }) } })
    })
  }
  if (intent !== 'update') return invalid('intent')
  const { api } = await requireAccess(request, context, { all: ['survey_survey_list', 'survey_survey_edit'] })
  const body = jsonField(form, 'publication')
  if (!body || typeof body !== 'object') return invalid('publication')
  const { model_id: _model, ...update } = body as Record<string, unknown>
  return apiResult(async () => {
    await apiData(api.survey.survey[':id'].$put({ param: { id: surveyId }, json: validBody(SurveyUpdate, update) }))
    throw redirect(`/survey/survey/detail/${surveyId}`, { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'survey.edit.saved' }) } })
  })
}
