import * as v from 'valibot'
import { defineEntity } from './entity'

/** What a complaint report is about. */
export const REPORT_TARGETS = ['user', 'message', 'post', 'room', 'channel', 'content'] as const
export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const
export type ReportStatus = (typeof REPORT_STATUSES)[number]

/** A complaint report filed by a user about content or another user (realm/report). */
export type ComplaintReport = {
  id: string
  realm: string
  target_type: (typeof REPORT_TARGETS)[number]
  target_id: string
  reason: string
  /** The reporter's text, stored through the word filter (masked). */
  message: string
  status: ReportStatus
  reporter: string
  resolution: string
  created_at: string
  updated_at: string
  updated_by: string
}

/** POST /mas/report: the reason must be one of the realm's report_reasons. */
export const ReportCreate = v.object({
  target_type: v.picklist(REPORT_TARGETS, 'validation.picklist'),
  target_id: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(120, 'validation.max_length')),
  reason: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(60, 'validation.max_length')),
  message: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000, 'validation.max_length')), ''),
})
/** PUT /mas/report/{id}: staff decide what happened. */
export const ReportUpdate = v.object({
  status: v.picklist(REPORT_STATUSES, 'validation.picklist'),
  resolution: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000, 'validation.max_length')), ''),
})

export const reportEntity = defineEntity<ComplaintReport>({
  name: 'report',
  table: 'complaint_report',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    target_type: { type: 'text', sort: true, list: true, filter: 'eq' },
    target_id: { type: 'text', search: true, list: true, filter: 'eq' },
    reason: { type: 'text', search: true, sort: true, list: true, filter: 'eq' },
    message: { type: 'text', search: true, list: true },
    status: { type: 'text', sort: true, list: true, filter: 'eq' },
    reporter: { type: 'text', search: true, sort: true, list: true, filter: 'eq' },
    resolution: { type: 'text', list: true },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: '-created_at',
})
