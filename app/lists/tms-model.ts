import type { ListSpec } from '~/lib/lists'
import { joined, when, whenUpdated } from '~/lib/list-format'
import type { Model } from '#shared/schemas/tms/model'
import { MODEL_KINDS } from '#shared/schemas/tms/constants'

/** Task models (`tms/model`). */
export const modelList: ListSpec<Model> = {
  name: 'tms_model',
  apiPath: 'tms/model',
  route: 'tms.model.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.tms_model.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'kind', label: 'resources.tms_model.fields.kind', sorting: true, width: 120, format: (v, _r, t) => t(`tms.kind.${String(v)}`) },
    { id: 'question_count', label: 'resources.tms_model.fields.question_count', sorting: true, align: 'right', width: 110 },
    { id: 'version', label: 'resources.tms_model.fields.version', sorting: true, align: 'right', width: 90 },
    { id: 'published_count', label: 'resources.tms_model.fields.published_count', align: 'right', width: 120 },
    { id: 'tags', label: 'resources.tms_model.fields.tags', format: joined, ellipsis: true },
    // "New" and "updated" (seed 001 §3): when the model was created, and when it last changed after that.
    { id: 'created_at', label: 'resources.tms_model.fields.new', sorting: true, width: 150, format: when, time: true },
    { id: 'updated_at', label: 'resources.tms_model.fields.updated', sorting: true, width: 150, format: whenUpdated, time: true },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [
    { field: 'title', type: 'text', label: 'resources.tms_model.fields.title' },
    { field: 'kind', type: 'select', label: 'resources.tms_model.fields.kind', options: MODEL_KINDS.map((k) => ({ label: `tms.kind.${k}`, value: k })) },
    { field: 'tag', type: 'text', label: 'resources.tms_model.fields.tags' },
    { field: 'category', type: 'select', label: 'resources.tms_model.fields.categories', options: [] },
    { field: 'created_at', type: 'date', label: 'resources.tms_model.fields.new' },
    { field: 'updated_at', type: 'date', label: 'resources.tms_model.fields.updated' },
  ],
}
export default modelList
