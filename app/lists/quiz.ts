import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Quiz } from '#shared/schemas/quiz'

/** Quizzes (`quiz`, issue 14): rows-per-page pagination as every list (seed 002 §9). */
export const quizList: ListSpec<Quiz> = {
  name: 'quiz',
  apiPath: 'quiz',
  route: 'quiz.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.quiz.fields.name', sorting: true },
    { id: 'channel_name', label: 'resources.quiz.fields.channel_id', width: 180, ellipsis: true },
    { id: 'status', label: 'resources.quiz.fields.status', sorting: true, width: 120, format: (v, _r, t) => t(`resources.quiz.status.${String(v)}`) },
    { id: 'question_count', label: 'resources.quiz.fields.question_count', align: 'right', width: 110 },
    { id: 'reward_value', label: 'resources.quiz.fields.reward_value', align: 'right', width: 120 },
    { id: 'created_at', label: 'resources.tms.fields.created_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.quiz.fields.name' },
    {
      field: 'status',
      type: 'select',
      label: 'resources.quiz.fields.status',
      options: ['draft', 'active', 'canceled', 'finished'].map((s) => ({ value: s, label: `resources.quiz.status.${s}` })),
    },
  ],
}
export default quizList
