import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import * as v from 'valibot'
import { getRealmRow, realmConfig } from '../../db/realms'
import { getFile, persistFileStatement, uploadedFile } from '../../db/files'
import { auditStatement } from '../../db/audit'
import { apiError } from '../../lib/errors'
import { UploadData, multipartBody, storeUpload } from '../../lib/file-store'
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
  data: UploadData,
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
      const form = parse(UploadForm, await multipartBody(c))
      const realm = await getRealmRow(c.env.DB, auth.realm)
      if (!realm) throw apiError(404, 'not_found', `Realm ${auth.realm} was not found.`, 'realm', auth.realm)
      const row = await storeUpload(c, auth, form.data, form)
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
