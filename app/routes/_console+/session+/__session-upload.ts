import { UPLOAD_EXTENSIONS } from '#shared/schemas/csm-recording'
import type { FieldSpec } from '~/lib/form-fields'

/**
 * session/create's form (issue 15), shared by the screen and its action: the session's fields, one select naming a
 * channel or a room (`channel:<id>` / `room:<id>`, split by `prepareUpload` into the API's `target` and
 * `target_id`), and the chosen file's type and size (hidden inputs the file input fills; the file itself is sent in
 * parts after the session exists, never posted with the form).
 */
export type Option = { value: string; label: string }

export function uploadFields(places: Option[], categories: Option[], extra: FieldSpec[]): FieldSpec[] {
  const [title, ...rest] = sessionFields(categories, extra)
  return [
    title,
    { name: 'target_id', label: 'session.create.place', kind: 'select', required: true, options: places },
    ...rest,
    { name: 'mime', label: 'session.create.file', kind: 'text', required: true },
    { name: 'size', label: 'session.create.file', kind: 'number' },
  ]
}

/** A session's own fields (session/create and session/edit): title, categories, reference date, the realm's extra fields. */
export function sessionFields(categories: Option[], extra: FieldSpec[]): FieldSpec[] {
  return [
    { name: 'title', label: 'resources.csm_session.fields.title', kind: 'text', required: true },
    ...(categories.length ? [{ name: 'category_ids', label: 'session.create.categories', kind: 'checkboxes' as const, options: categories }] : []),
    { name: 'reference_date', label: 'resources.csm_session.fields.reference_date', kind: 'date', required: true },
    ...extra,
  ]
}

/** The place select's `channel:<id>` / `room:<id>` → the API's `target` and `target_id`. */
export function prepareUpload(values: Record<string, unknown>): Record<string, unknown> {
  const place = typeof values.target_id === 'string' ? values.target_id : ''
  const at = place.indexOf(':')
  const out: Record<string, unknown> =
    at > 0 ? { ...values, target: place.slice(0, at), target_id: place.slice(at + 1) } : { ...values, target: 'room', target_id: undefined }
  // No file chosen: the file's one error is "required" (on its type), not a second one for its size.
  return out.mime ? out : { ...out, mime: undefined, size: 1 }
}

/** A chosen file's container type: the browser's, else by its extension (browsers often know no type for .mkv). */
export function fileMime(file: { name: string; type: string }): string {
  if (file.type) return file.type
  const ext = file.name.split('.').pop()?.toLowerCase() ?? ''
  return UPLOAD_EXTENSIONS[ext] ?? 'application/octet-stream'
}

/** The journal's key for this user's interrupted upload on this device (recorder-journal.ts keys by target and id). */
export const JOURNAL_TARGET = 'session-upload'
