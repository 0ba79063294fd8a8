import type { ListSpec } from '~/lib/lists'
import { joined, when, whenUpdated } from '~/lib/list-format'
import type { BankItem } from '#shared/schemas/tms/bank'
import { DIFFICULTIES, GRADES } from '#shared/schemas/tms/constants'
import { questionTypeLabel, QUESTION_TYPES } from '#shared/schemas/tms/question-types'

/** The question bank (`tms/question_bank`), searchable by every classification field. */
export const bankList: ListSpec<BankItem> = {
  name: 'tms_question_bank',
  apiPath: 'tms/question_bank',
  route: 'tms.question_bank.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'statement_text', label: 'resources.tms_question_bank.fields.statement', sorting: true, ellipsis: true, tooltip: true },
    { id: 'type', label: 'resources.tms_question_bank.fields.type', sorting: true, width: 150, format: (v, _r, t) => t(questionTypeLabel(String(v))) },
    {
      id: 'difficulty',
      label: 'resources.tms_question_bank.fields.difficulty',
      sorting: true,
      width: 110,
      format: (v, _r, t) => t(`tms.difficulty.${String(v)}`),
    },
    {
      id: 'grade_id',
      label: 'resources.tms_question_bank.fields.grade_id',
      sorting: true,
      width: 150,
      format: (v, _r, t) => (v ? t(`tms.grade.${String(v)}`) : ''),
    },
    { id: 'subject_id', label: 'resources.tms_question_bank.fields.subject_id', sorting: true, width: 110 },
    { id: 'standard_id', label: 'resources.tms_question_bank.fields.standard_id', sorting: true, width: 110 },
    { id: 'descriptor_id', label: 'resources.tms_question_bank.fields.descriptor_id', sorting: true, width: 110 },
    { id: 'batch_id', label: 'resources.tms_question_bank.fields.batch_id', sorting: true, width: 120 },
    { id: 'curriculum', label: 'resources.tms_question_bank.fields.curriculum', sorting: true, width: 110 },
    { id: 'tags', label: 'resources.tms_question_bank.fields.tags', format: joined },
    // "New" and "updated" (seed 001 §3): when the question entered the bank, and when it last changed after that.
    { id: 'created_at', label: 'resources.tms_question_bank.fields.new', sorting: true, width: 150, format: when, time: true },
    { id: 'updated_at', label: 'resources.tms_question_bank.fields.updated', sorting: true, width: 150, format: whenUpdated, time: true },
  ],
  search: [
    {
      field: 'type',
      type: 'select',
      label: 'resources.tms_question_bank.fields.type',
      options: QUESTION_TYPES.map((q) => ({ label: questionTypeLabel(q), value: q })),
    },
    {
      field: 'difficulty',
      type: 'select',
      label: 'resources.tms_question_bank.fields.difficulty',
      options: DIFFICULTIES.map((d) => ({ label: `tms.difficulty.${d}`, value: d })),
    },
    {
      field: 'grade_id',
      type: 'select',
      label: 'resources.tms_question_bank.fields.grade_id',
      options: GRADES.map((g) => ({ label: `tms.grade.${g}`, value: String(g) })),
    },
    { field: 'subject_id', type: 'text', label: 'resources.tms_question_bank.fields.subject_id' },
    { field: 'standard_id', type: 'text', label: 'resources.tms_question_bank.fields.standard_id' },
    { field: 'descriptor_id', type: 'text', label: 'resources.tms_question_bank.fields.descriptor_id' },
    { field: 'batch_id', type: 'text', label: 'resources.tms_question_bank.fields.batch_id' },
    { field: 'curriculum', type: 'text', label: 'resources.tms_question_bank.fields.curriculum' },
    { field: 'tag', type: 'text', label: 'resources.tms_question_bank.fields.tags' },
    { field: 'category', type: 'select', label: 'resources.tms_question_bank.fields.categories', options: [] },
    { field: 'created_at', type: 'date', label: 'resources.tms_question_bank.fields.new' },
    { field: 'updated_at', type: 'date', label: 'resources.tms_question_bank.fields.updated' },
  ],
}
export default bankList
