import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import { LESSON_STATUSES, type Lesson } from '#shared/schemas/lesson/lesson'

/** Published lessons (`lesson/lesson`, issue 18) with their date status and targets. */
export const lessonList: ListSpec<Lesson> = {
  name: 'lesson_lesson',
  apiPath: 'lesson/lesson',
  route: 'lesson.lesson.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.lesson.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'status', label: 'resources.lesson.fields.status', sorting: true, width: 120, format: (v, _r, t) => t(`lesson.status.${String(v)}`) },
    { id: 'rooms', label: 'resources.tms_task.fields.rooms', ellipsis: true, tooltip: true },
    { id: 'publish_at', label: 'resources.tms_task.fields.publish_at', sorting: true, width: 150, format: when, time: true },
    { id: 'expire_at', label: 'resources.tms_task.fields.expire_at', sorting: true, width: 150, format: when, time: true },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [
    { field: 'title', type: 'text', label: 'resources.lesson.fields.title' },
    {
      field: 'status',
      type: 'select',
      label: 'resources.lesson.fields.status',
      options: LESSON_STATUSES.map((s) => ({ label: `lesson.status.${s}`, value: s })),
    },
    { field: 'room', type: 'select', label: 'resources.tms_task.fields.rooms', options: [] },
    { field: 'publish_at', type: 'date', label: 'resources.tms_task.fields.publish_at' },
  ],
}
export default lessonList
