import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import { SURVEY_STATUSES, type Survey } from '#shared/schemas/survey/survey'

/** Published surveys (`survey/survey`, issue 19) with their date status, targets and answer counts. */
export const surveyList: ListSpec<Survey> = {
  name: 'survey_survey',
  apiPath: 'survey/survey',
  route: 'survey.survey.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.survey.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'status', label: 'resources.survey.fields.status', sorting: true, width: 120, format: (v, _r, t) => t(`lesson.status.${String(v)}`) },
    { id: 'rooms', label: 'resources.tms_task.fields.rooms', ellipsis: true, tooltip: true },
    { id: 'answer_count', label: 'resources.survey.fields.answer_count', sorting: true, align: 'right', width: 110 },
    { id: 'publish_at', label: 'resources.tms_task.fields.publish_at', sorting: true, width: 150, format: when, time: true },
    { id: 'expire_at', label: 'resources.tms_task.fields.expire_at', sorting: true, width: 150, format: when, time: true },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [
    { field: 'title', type: 'text', label: 'resources.survey.fields.title' },
    {
      field: 'status',
      type: 'select',
      label: 'resources.survey.fields.status',
      options: SURVEY_STATUSES.map((s) => ({ label: `lesson.status.${s}`, value: s })),
    },
    { field: 'room', type: 'select', label: 'resources.tms_task.fields.rooms', options: [] },
    { field: 'publish_at', type: 'date', label: 'resources.tms_task.fields.publish_at' },
  ],
}
export default surveyList
