import type { ListSpec } from '~/lib/lists'
import { when, whenUpdated } from '~/lib/list-format'
import type { SurveyModel } from '#shared/schemas/survey/survey'

/** Survey models (`survey/model`, issue 19); `new` and `updated` are the creation and change dates, as task models show them. */
export const surveyModelList: ListSpec<SurveyModel> = {
  name: 'survey_model',
  apiPath: 'survey/model',
  route: 'survey.model.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.survey.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'question_count', label: 'resources.survey.fields.question_count', sorting: true, align: 'right', width: 110 },
    { id: 'is_required', label: 'resources.survey.fields.is_required', width: 120, format: (v, _r, t) => t(v ? 'survey.yes' : 'survey.no') },
    { id: 'published_count', label: 'resources.survey.fields.published_count', align: 'right', width: 120 },
    { id: 'created_at', label: 'resources.tms_model.fields.new', sorting: true, width: 150, format: when, time: true },
    { id: 'updated_at', label: 'resources.tms_model.fields.updated', sorting: true, width: 150, format: whenUpdated, time: true },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [
    { field: 'title', type: 'text', label: 'resources.survey.fields.title' },
    { field: 'created_at', type: 'date', label: 'resources.tms_model.fields.new' },
    { field: 'updated_at', type: 'date', label: 'resources.tms_model.fields.updated' },
  ],
}
export default surveyModelList
