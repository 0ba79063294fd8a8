import type { ListSpec } from '~/lib/lists'
import { joined, when, whenUpdated } from '~/lib/list-format'
import { LESSON_LANGUAGES } from '#shared/schemas/lesson/content'
import type { LessonModel } from '#shared/schemas/lesson/lesson'

/** Lesson models (`lesson/model`, issue 18). */
export const lessonModelList: ListSpec<LessonModel> = {
  name: 'lesson_model',
  apiPath: 'lesson/model',
  route: 'lesson.model.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.lesson.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'language', label: 'resources.lesson.fields.language', sorting: true, width: 140, format: (v, _r, t) => t(`lesson.language.${String(v)}`) },
    { id: 'slide_count', label: 'resources.lesson.fields.slide_count', sorting: true, align: 'right', width: 100 },
    { id: 'published_count', label: 'resources.lesson.fields.published_count', align: 'right', width: 120 },
    { id: 'tags', label: 'resources.lesson.fields.tags', format: joined, ellipsis: true },
    { id: 'created_at', label: 'resources.tms_model.fields.new', sorting: true, width: 150, format: when, time: true },
    { id: 'updated_at', label: 'resources.tms_model.fields.updated', sorting: true, width: 150, format: whenUpdated, time: true },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [
    { field: 'title', type: 'text', label: 'resources.lesson.fields.title' },
    {
      field: 'language',
      type: 'select',
      label: 'resources.lesson.fields.language',
      options: LESSON_LANGUAGES.map((l) => ({ label: `lesson.language.${l}`, value: l })),
    },
    { field: 'tag', type: 'text', label: 'resources.lesson.fields.tags' },
    { field: 'created_at', type: 'date', label: 'resources.tms_model.fields.new' },
    { field: 'updated_at', type: 'date', label: 'resources.tms_model.fields.updated' },
  ],
}
export default lessonModelList
