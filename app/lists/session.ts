import type { ListSpec } from '~/lib/lists'
import { calendarDay, when } from '~/lib/list-format'
import { RECORDED_IN, SESSION_STATUSES, VIDEO_STATUSES, type SessionItem } from '#shared/schemas/session'

/** Sessions (`session`, issue 15): statuses, video statuses and places always as translated labels. */
export const sessionList: ListSpec<SessionItem> = {
  name: 'csm_session',
  apiPath: 'csm/session',
  route: 'session.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.csm_session.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'reference_date', label: 'resources.csm_session.fields.reference_date', sorting: true, width: 130, format: calendarDay },
    { id: 'recorded_in', label: 'resources.csm_session.fields.recorded_in', width: 120, format: (v, _r, t) => t(`session.recorded_in.${String(v)}`) },
    { id: 'channel_name', label: 'resources.csm_session.fields.channel_id', width: 160, ellipsis: true, format: (v) => (v ? String(v) : '') },
    { id: 'room_name', label: 'resources.csm_session.fields.room_id', width: 160, ellipsis: true, format: (v) => (v ? String(v) : '') },
    { id: 'owner', label: 'resources.csm_session.fields.owner', width: 140, ellipsis: true },
    { id: 'status', label: 'resources.csm_session.fields.status', width: 130, format: (v, _r, t) => t(`session.status.${String(v)}`) },
    { id: 'video_status', label: 'resources.csm_session.fields.video_status', width: 130, format: (v, _r, t) => t(`live.session.video_status.${String(v)}`) },
    { id: 'live_seconds', label: 'resources.csm_session.fields.live_seconds', sorting: true, align: 'right', width: 120 },
    { id: 'started_at', label: 'resources.csm_session.fields.started_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'title', type: 'text', label: 'resources.csm_session.fields.title' },
    {
      field: 'status',
      type: 'select',
      label: 'resources.csm_session.fields.status',
      options: SESSION_STATUSES.map((s) => ({ label: `session.status.${s}`, value: s })),
    },
    {
      field: 'video_status',
      type: 'select',
      label: 'resources.csm_session.fields.video_status',
      options: VIDEO_STATUSES.map((s) => ({ label: `live.session.video_status.${s}`, value: s })),
    },
    {
      field: 'recorded_in',
      type: 'select',
      label: 'resources.csm_session.fields.recorded_in',
      options: RECORDED_IN.map((s) => ({ label: `session.recorded_in.${s}`, value: s })),
    },
    // The realm's channels, rooms and categories, given by the list's loader (withFilterOptions).
    { field: 'channel_id', type: 'select', label: 'resources.csm_session.fields.channel_id', options: [] },
    { field: 'room_id', type: 'select', label: 'resources.csm_session.fields.room_id', options: [] },
    { field: 'category_id', type: 'select', label: 'resources.csm_session.fields.category_ids', options: [] },
    { field: 'owner', type: 'text', label: 'resources.csm_session.fields.owner' },
    { field: 'reference_date', type: 'date', label: 'resources.csm_session.fields.reference_date' },
  ],
}
export default sessionList
