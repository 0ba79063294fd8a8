import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import * as v from 'valibot'
import { FILE_TYPES, MAX_IMAGE_PIXELS, MAX_SIZE, TEMPORARY_UPLOAD_HOURS, extensionOf, isFileExtension, isSafeFileName } from '#shared/schemas/file'
import { getRealmRow, realmConfig } from '../../db/realms'
import { fileHeaders, getFile, insertFileStatement, persistFileStatement, uploadedFile, type FileRow } from '../../db/files'
import { auditStatement } from '../../db/audit'
import { randomToken } from '../../lib/crypto'
import { apiError } from '../../lib/errors'
import { contentMatches, imageSize } from '../../lib/file-sniff'
import { guarded } from '../../lib/guard'
import { type AppEnv, origin, parse, pathParam } from '../context'

const flag = v.optional(
  v.pipe(
    v.union([v.string(), v.boolean()]),
    v.transform((x) => x === true || x === 'true' || x === '1' || x === 'on'),
  ),
  false,
)
const dim = v.optional(
  v.pipe(v.string(), v.transform(Number), v.number('validation.number'), v.integer('validation.integer'), v.minValue(1), v.maxValue(100_000)),
)

/** Multipart fields of POST /mas/file (seed 000 §7): data, persist, permanent, and optional image bounds. */
const UploadForm = v.object({
  data: v.custom<File>((x) => x instanceof File, 'validation.file.required'),
  persist: flag,
  permanent: flag,
  min_width: dim,
  max_width: dim,
  min_height: dim,
  max_height: dim,
})

export const file = new Hono<AppEnv>()
  /**
   * POST /mas/file: stores an upload in R2 and answers its `cdn_full_url`. Extension, size per kind, content
   * (magic bytes) and image dimensions are checked first; the storage key never comes from the user's file name.
   */
  .post(
    '/',
    guarded({ all: ['mas_file_upload'] }, async (c, auth) => {
      let body: Record<string, unknown>
      try {
        body = (await c.req.parseBody()) as Record<string, unknown>
      } catch {
        throw apiError(400, 'invalid', 'The upload must be multipart/form-data.', 'data')
      }
      const form = parse(UploadForm, body)
      const data = form.data
      if (!isSafeFileName(data.name)) throw apiError(400, 'file_name', 'validation.file.name', 'data', null)
      const ext = extensionOf(data.name)
      if (!isFileExtension(ext)) throw apiError(400, 'type', 'file.upload.type.error', 'data', ext || data.name)
      const { kind, type } = FILE_TYPES[ext]
      if (data.size > MAX_SIZE[kind]) throw apiError(400, 'max_size', 'validation.file.max_size', 'data', MAX_SIZE[kind])
      if (data.size === 0) throw apiError(400, 'empty', 'validation.file.empty', 'data', 0)

      const head = new Uint8Array(await data.slice(0, 256 * 1024).arrayBuffer())
      if (!contentMatches(ext, head)) throw apiError(400, 'content_mismatch', 'file.upload.type.error', 'data', ext)

      let size: { width: number; height: number } | null = null
      if (kind === 'image') {
        size = imageSize(ext, head)
        const { min_width, max_width, min_height, max_height } = form
        const out =
          !size ||
          size.width < 1 ||
          size.height < 1 ||
          size.width * size.height > MAX_IMAGE_PIXELS ||
          (min_width && size.width < min_width) ||
          (max_width && size.width > max_width) ||
          (min_height && size.height < min_height) ||
          (max_height && size.height > max_height)
        if (out) throw apiError(400, 'dimensions', 'file.upload.dimensions.error', 'data', size ?? null)
      }

      const realm = await getRealmRow(c.env.DB, auth.realm)
      if (!realm) throw apiError(404, 'not_found', `Realm ${auth.realm} was not found.`, 'realm', auth.realm)
      const now = new Date()
      const id = randomToken(16)
      const key = `${auth.realm}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${id}.${ext}`
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
        persist: form.persist || form.permanent ? 1 : 0,
        permanent: form.permanent ? 1 : 0,
        uploaded_by: auth.nick,
        created_at: now.toISOString(),
        expires_at: form.persist || form.permanent ? null : new Date(now.getTime() + TEMPORARY_UPLOAD_HOURS * 3_600_000).toISOString(),
      }
      const headers = fileHeaders(row)
      await c.env.FILES.put(key, data.stream(), {
        httpMetadata: { contentType: type, contentDisposition: headers.get('Content-Disposition') ?? undefined },
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
      return c.json(uploadedFile(row, realmConfig(realm, origin(c), c.get('hostRealm') === null).files_base_url), 201)
    }),
  )
  /** POST /mas/file/{id}/persist: keeps a temporary upload (called when the form that uploaded it is saved). */
  .post(
    '/:id/persist',
    guarded({ all: ['mas_file_upload'] }, async (c, auth) => {
      const id = pathParam(c, 'id')
      const row = await getFile(c.env.DB, auth.realm, id)
      if (!row) throw apiError(404, 'not_found', `File ${id} was not found.`, 'id', id)
      await runBatch(c.env.DB, [
        persistFileStatement(c.env.DB, auth.realm, id),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'persist',
          entity: 'file',
          entityId: id,
          before: { persist: row.persist === 1 },
          after: { persist: true },
          requestId: c.get('requestId'),
        }),
      ])
      const realm = await getRealmRow(c.env.DB, auth.realm)
      return c.json(uploadedFile({ ...row, persist: 1, expires_at: null }, realmConfig(realm!, origin(c), c.get('hostRealm') === null).files_base_url))
    }),
  )
