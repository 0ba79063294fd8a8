import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Poll } from '#shared/schemas/quiz'

/** Polls (`poll`, issue 14): rows-per-page pagination as every list (seed 002 §9). */
export const pollList: ListSpec<Poll> = {
  name: 'poll',
  apiPath: 'poll',
  route: 'poll.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.poll.fields.name', sorting: true },
    { id: 'type', label: 'resources.poll.fields.type', width: 120, format: (v, _r, t) => t(`resources.poll.type.${String(v)}`) },
    { id: 'channel_name', label: 'resources.poll.fields.channel_id', width: 180, ellipsis: true },
    { id: 'status', label: 'resources.poll.fields.status', sorting: true, width: 120, format: (v, _r, t) => t(`resources.quiz.status.${String(v)}`) },
    { id: 'question_count', label: 'resources.poll.fields.question_count', align: 'right', width: 110 },
    { id: 'created_at', label: 'resources.tms.fields.created_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.poll.fields.name' },
    {
      field: 'status',
      type: 'select',
      label: 'resources.poll.fields.status',
      options: ['draft', 'active', 'canceled', 'finished'].map((s) => ({ value: s, label: `resources.quiz.status.${s}` })),
    },
  ],
}
export default pollList
