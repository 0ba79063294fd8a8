import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'

/** The answer states (seed 001 §4) and deliveries the list filters by (the API's `worker/lib/answer-state.ts`). */
export const ANSWER_STATUSES = ['draft', 'submitted', 'review', 'pending', 'pending_agreement', 'finished'] as const
export const DELIVERIES = ['on_time', 'delayed'] as const

/** A row of the teachers' answer list (`GET /tms/answer`, view tms_answer_view). */
export interface AnswerItem {
  id: string
  task_id: string
  task_title: string
  nick: string
  student_name: string
  room_id: string | null
  room_name: string
  status: string
  delivery: string | null
  offline: boolean
  opened_at: string
  delivered_at: string | null
  duration_seconds: number | null
  score: number | null
  max_score: number
  ai_revision: string | null
  corrected_by: string | null
}

const points = (v: unknown) => (typeof v === 'number' ? String(Math.round(v * 100) / 100) : '')

/** Students' answers across tasks (`tms/answer`, issue 17): filters task, room, student, status, on time/late; CSV. */
export const answerList: ListSpec<AnswerItem> = {
  name: 'tms_answer',
  apiPath: 'tms/answer',
  route: 'tms.answer.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'task_title', label: 'resources.tms_answer.fields.task', ellipsis: true, tooltip: true },
    { id: 'student_name', label: 'resources.tms_answer.fields.student', ellipsis: true, tooltip: true },
    { id: 'nick', label: 'resources.tms_answer.fields.nick', width: 140 },
    { id: 'room_name', label: 'resources.tms_answer.fields.room', width: 150, ellipsis: true },
    { id: 'status', label: 'resources.tms_answer.fields.status', width: 150, format: (v, _r, t) => t(`correct.status.${String(v)}`) },
    { id: 'delivery', label: 'resources.tms_answer.fields.delivery', width: 120, format: (v, _r, t) => (v ? t(`correct.delivery.${String(v)}`) : '') },
    { id: 'delivered_at', label: 'resources.tms_answer.fields.delivered_at', sorting: true, width: 150, format: when, time: true },
    { id: 'score', label: 'resources.tms_answer.fields.score', align: 'right', width: 90, format: points },
    { id: 'max_score', label: 'resources.tms_answer.fields.max_score', align: 'right', width: 90, format: points },
  ],
  search: [
    // The realm's tasks and rooms, given by the list's loader (withFilterOptions).
    { field: 'task_id', type: 'select', label: 'resources.tms_answer.fields.task', options: [] },
    { field: 'room_id', type: 'select', label: 'resources.tms_answer.fields.room', options: [] },
    { field: 'nick', type: 'text', label: 'resources.tms_answer.fields.nick' },
    {
      field: 'status',
      type: 'select',
      label: 'resources.tms_answer.fields.status',
      options: ANSWER_STATUSES.map((s) => ({ label: `correct.status.${s}`, value: s })),
    },
    {
      field: 'delivery',
      type: 'select',
      label: 'resources.tms_answer.fields.delivery',
      options: DELIVERIES.map((s) => ({ label: `correct.delivery.${s}`, value: s })),
    },
    { field: 'delivered_at', type: 'date', label: 'resources.tms_answer.fields.delivered_at' },
  ],
}
export default answerList
