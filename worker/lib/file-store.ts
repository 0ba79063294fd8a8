/**
 * Storing an upload (seed 000 §5): the checks and the write shared by the console's `POST /mas/file` and the
 * student's own upload of the answer API (`POST /tms/answer-student/{taskId}/file`). Extension, size per kind,
 * content (magic bytes) and image dimensions are checked first; the storage key never comes from the user's file
 * name; the R2 object and the row (with its audit entry) are written together, the object removed when the row fails.
 */
import * as v from 'valibot'
import {
  FILE_TYPES,
  MAX_IMAGE_PIXELS,
  MAX_SIZE,
  TEMPORARY_UPLOAD_HOURS,
  extensionOf,
  isFileExtension,
  isSafeFileName,
  type FileKind,
} from '#shared/schemas/file'
import { auditStatement } from '../db/audit'
import { runBatch } from '../db/batch'
import { fileHeaders, insertFileStatement, type FileRow } from '../db/files'
import type { Auth } from '../db/sessions'
import { type Ctx } from '../api/context'
import { randomToken } from './crypto'
import { apiError } from './errors'
import { contentMatches, imageSize } from './file-sniff'

/** An upload's multipart file field, validated. */
export const UploadData = v.custom<File>((x) => x instanceof File, 'validation.file.required')

/** The multipart body of an upload, or the envelope (400) when it is not one. */
export async function multipartBody(c: Ctx): Promise<Record<string, unknown>> {
  try {
    return (await c.req.parseBody()) as Record<string, unknown>
  } catch {
    throw apiError(400, 'invalid', 'The upload must be multipart/form-data.', 'data')
  }
}

export interface StoreOptions {
  persist?: boolean
  permanent?: boolean
  /** Kinds the caller takes (any kind of FILE_TYPES when absent): another kind is refused as an unsupported type. */
  kinds?: readonly FileKind[]
  min_width?: number
  max_width?: number
  min_height?: number
  max_height?: number
}

/** Checks `data` and stores it for the caller's realm, uploaded by the caller. Returns the new row. */
export async function storeUpload(c: Ctx, auth: Auth, data: File, o: StoreOptions = {}): Promise<FileRow> {
  if (!isSafeFileName(data.name)) throw apiError(400, 'file_name', 'validation.file.name', 'data', null)
  const ext = extensionOf(data.name)
  if (!isFileExtension(ext) || (o.kinds && !o.kinds.includes(FILE_TYPES[ext].kind)))
    throw apiError(400, 'type', 'file.upload.type.error', 'data', ext || data.name)
  const { kind, type } = FILE_TYPES[ext]
  if (data.size > MAX_SIZE[kind]) throw apiError(400, 'max_size', 'validation.file.max_size', 'data', MAX_SIZE[kind])
  if (data.size === 0) throw apiError(400, 'empty', 'validation.file.empty', 'data', 0)

  const head = new Uint8Array(await data.slice(0, 256 * 1024).arrayBuffer())
  if (!contentMatches(ext, head)) throw apiError(400, 'content_mismatch', 'file.upload.type.error', 'data', ext)

  let size: { width: number; height: number } | null = null
  if (kind === 'image') {
    size = imageSize(ext, head)
    const out =
      !size ||
      size.width < 1 ||
      size.height < 1 ||
      size.width * size.height > MAX_IMAGE_PIXELS ||
      (o.min_width && size.width < o.min_width) ||
      (o.max_width && size.width > o.max_width) ||
      (o.min_height && size.height < o.min_height) ||
      (o.max_height && size.height > o.max_height)
    if (out) throw apiError(400, 'dimensions', 'file.upload.dimensions.error', 'data', size ?? null)
  }

  const now = new Date()
  const id = randomToken(16)
  const key = `${auth.realm}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${id}.${ext}`
  const kept = Boolean(o.persist || o.permanent)
  const row: FileRow = {
    id,
    realm: auth.realm,
    key,
    name: data.name.slice(0, 200),
    ext,
    kind,
    content_type: type,
    size: data.size,
    width: size?.width ?? null,
    height: size?.height ?? null,
    persist: kept ? 1 : 0,
    permanent: o.permanent ? 1 : 0,
    uploaded_by: auth.nick,
    created_at: now.toISOString(),
    expires_at: kept ? null : new Date(now.getTime() + TEMPORARY_UPLOAD_HOURS * 3_600_000).toISOString(),
  }
  await c.env.FILES.put(key, data.stream(), {
    httpMetadata: { contentType: type, contentDisposition: fileHeaders(row).get('Content-Disposition') ?? undefined },
    customMetadata: { realm: auth.realm, id, uploaded_by: auth.nick },
  })
  try {
    await runBatch(c.env.DB, [
      insertFileStatement(c.env.DB, row),
      auditStatement(c.env.DB, {
        realm: auth.realm,
        actor: auth.nick,
        action: 'create',
        entity: 'file',
        entityId: id,
        after: { name: row.name, size: row.size, kind },
        requestId: c.get('requestId'),
      }),
    ])
  } catch (err) {
    await c.env.FILES.delete(key)
    throw err
  }
  return row
}
