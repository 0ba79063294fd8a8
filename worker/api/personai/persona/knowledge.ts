import { Hono } from 'hono'
import { extensionOf, isSafeFileName } from '#shared/schemas/file'
import type { ErrorItem } from '#shared/schemas/error'
import {
  KNOWLEDGE_CONTENT_TYPES,
  KNOWLEDGE_FILE_MAX,
  KNOWLEDGE_FILE_TYPES,
  KNOWLEDGE_MAX,
  KnowledgeLessonInput,
  KnowledgeUpdate,
  KnowledgeUrlInput,
  type KnowledgeFileType,
  type KnowledgeUploadResult,
} from '#shared/schemas/persona'
import { STALE_MS, scheduleKnowledge } from '../../../ai/knowledge'
import { auditStatement } from '../../../db/audit'
import { runBatch } from '../../../db/batch'
import {
  deleteDraftKnowledgeStatements,
  getKnowledge,
  insertKnowledgeStatement,
  knowledgeCensus,
  knowledgeKey,
  listKnowledge,
  retitleKnowledgeStatement,
  retryKnowledgeStatement,
  stageKnowledgeDeleteStatement,
  stalePending,
  type NewKnowledge,
} from '../../../db/personas'
import type { Auth } from '../../../db/sessions'
import { ApiError, apiError } from '../../../lib/errors'
import { contentMatches } from '../../../lib/file-sniff'
import { guarded, guardedJson } from '../../../lib/guard'
import { newId, nowIso } from '../../../lib/tms'
import { type AppEnv, type Ctx, pathParam } from '../../context'
import { personaAccess, personaAnyAccess, requirePersona } from '../common'

/**
 * /personai/persona/{personaId}/knowledge: what a persona knows (seed 002 §3 "Knowledge items", §4, §5 "Persona",
 * §8 "Knowledge: duplicate, maximum items, invalid type"; issue 16 item 2).
 * - Files: PDF, TXT or PPTX (multipart `files`, one or more); at most KNOWLEDGE_MAX items a persona, lessons not
 *   counted. An invalid type or passing the limit refuses the whole upload (422, each file named, nothing stored);
 *   a duplicate (same name and type as an item kept, or as another file of the upload) is skipped with a warning.
 * - URLs: fetched and read in the Worker; links to the restricted video sites are refused.
 * - Lessons: a reference (not counted; their text is read once lessons exist, issue 18).
 * Items are drafts until the persona's save (§4). Files and URLs are processed by a background job (pending →
 * processed or failed with the reason); a pending item cannot be deleted.
 */
const READ = personaAnyAccess('persona_persona_get', 'persona_persona_edit')
const EDIT = personaAccess('persona_persona_edit')

type Upload = { file: File; type: KnowledgeFileType }

/** The multipart `files` of an upload, each with its knowledge type, or 422 naming every file refused. */
async function uploadedFiles(c: Ctx): Promise<Upload[]> {
  let body: Record<string, unknown>
  try {
    body = (await c.req.parseBody({ all: true })) as Record<string, unknown>
  } catch {
    throw apiError(400, 'invalid', 'The upload must be multipart/form-data.', 'files')
  }
  const raw = body.files ?? body['files[]']
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((f): f is File => f instanceof File)
  if (!list.length) throw apiError(400, 'required', 'validation.file.required', 'files')
  const errors: ErrorItem[] = []
  const out: Upload[] = []
  for (const [i, file] of list.entries()) {
    const field = `files.${i}`
    const ext = extensionOf(file.name)
    const type = (KNOWLEDGE_FILE_TYPES as readonly string[]).includes(ext) ? (ext as KnowledgeFileType) : null
    const mime = file.type.split(';')[0].trim().toLowerCase()
    const mimeOk = type !== null && (mime === '' || mime === 'application/octet-stream' || KNOWLEDGE_CONTENT_TYPES[type].includes(mime))
    if (!isSafeFileName(file.name)) {
      errors.push({ field, cause: 'file_name', value: null, message: 'validation.file.name' })
      continue
    }
    if (!type || !mimeOk) {
      errors.push({ field, cause: 'invalid_type', value: file.name, message: 'validation.persona.knowledge_invalid_type' })
      continue
    }
    if (file.size === 0) {
      errors.push({ field, cause: 'empty', value: file.name, message: 'validation.file.empty' })
      continue
    }
    if (file.size > KNOWLEDGE_FILE_MAX) {
      errors.push({ field, cause: 'max_size', value: KNOWLEDGE_FILE_MAX, message: 'validation.file.max_size' })
      continue
    }
    // A file that is not what its extension says (a renamed page called notes.pdf) is an invalid type too.
    if (type !== 'txt' && !contentMatches(type === 'pdf' ? 'pdf' : 'zip', new Uint8Array(await file.slice(0, 16).arrayBuffer()))) {
      errors.push({ field, cause: 'invalid_type', value: file.name, message: 'validation.persona.knowledge_invalid_type' })
      continue
    }
    out.push({ file, type })
  }
  if (errors.length) throw new ApiError(422, errors)
  return out
}

/** Refuses going past the item limit (lessons are not counted). */
function checkLimit(counted: number, adding: number, field: string) {
  if (counted + adding > KNOWLEDGE_MAX)
    throw apiError(422, 'max_items', 'validation.persona.knowledge_max_items', field, { max: KNOWLEDGE_MAX, current: counted, adding })
}

const duplicate = (field: string, value: string) => ({ field, cause: 'duplicate' as const, value, message: 'validation.persona.knowledge_duplicate' })

const audit = (c: Ctx, auth: Auth, personaId: string, action: string, itemId: string, before: unknown, after: unknown) =>
  auditStatement(c.env.DB, {
    realm: auth.realm,
    actor: auth.nick,
    action,
    entity: 'persona_knowledge',
    entityId: itemId,
    before: before === null ? null : { persona_id: personaId, ...(before as object) },
    after: after === null ? null : { persona_id: personaId, ...(after as object) },
    requestId: c.get('requestId'),
  })

/** Stores new items (one batch), schedules the processing of those pending, and answers them with the warnings. */
async function addItems(c: Ctx, auth: Auth, personaId: string, items: NewKnowledge[], warnings: KnowledgeUploadResult['warnings']) {
  const db = c.env.DB
  const at = nowIso()
  if (items.length)
    await runBatch(db, [
      ...items.map((item) => insertKnowledgeStatement(db, auth.realm, personaId, item, auth.nick, at)),
      ...items.map((item) => audit(c, auth, personaId, 'create', item.id, null, { type: item.type, source: item.source, size: item.size })),
    ])
  scheduleKnowledge(
    c.executionCtx,
    c.env,
    auth.realm,
    personaId,
    items.filter((i) => i.status === 'pending').map((i) => i.id),
  )
  const ids = new Set(items.map((i) => i.id))
  const result: KnowledgeUploadResult = { items: (await listKnowledge(db, auth.realm, personaId)).filter((i) => ids.has(i.id)), warnings }
  return c.json(result, items.length ? 201 : 200)
}

async function requireItem(c: Ctx, auth: Auth, personaId: string) {
  const id = pathParam(c, 'itemId')
  const item = await getKnowledge(c.env.DB, auth.realm, personaId, id)
  if (!item) throw apiError(404, 'not_found', 'persona.knowledge.not_found', 'item_id', id)
  return item
}

export const knowledge = new Hono<AppEnv>()
  /**
   * GET …/knowledge: the persona's items with their status and stage. A pending item whose job died (the Worker
   * stopped before it ended) is run again from here.
   */
  .get(
    '/',
    guarded(READ, async (c, auth) => {
      const p = await requirePersona(c, auth)
      const stale = await stalePending(c.env.DB, auth.realm, p.id, new Date(Date.now() - STALE_MS).toISOString())
      scheduleKnowledge(c.executionCtx, c.env, auth.realm, p.id, stale)
      const items = await listKnowledge(c.env.DB, auth.realm, p.id)
      return c.json({ items, total: items.length, counted: items.filter((i) => i.type !== 'lesson' && i.stage !== 'to_delete').length, max: KNOWLEDGE_MAX })
    }),
  )
  /** POST …/knowledge (multipart `files`): PDF, TXT or PPTX files, each a pending draft item processed in the background. */
  .post(
    '/',
    guarded(EDIT, async (c, auth) => {
      const p = await requirePersona(c, auth)
      const files = await uploadedFiles(c)
      const { counted, keys } = await knowledgeCensus(c.env.DB, auth.realm, p.id)
      const warnings: KnowledgeUploadResult['warnings'] = []
      const accepted: Upload[] = []
      files.forEach((u, i) => {
        const key = knowledgeKey(u.type, u.file.name)
        if (keys.has(key)) warnings.push(duplicate(`files.${i}`, u.file.name))
        else {
          keys.add(key)
          accepted.push(u)
        }
      })
      checkLimit(counted, accepted.length, 'files')
      const items: NewKnowledge[] = []
      for (const u of accepted) {
        const id = newId()
        const file_key = `${auth.realm}/knowledge/${p.id}/${id}.${u.type}`
        await c.env.FILES.put(file_key, await u.file.arrayBuffer(), { httpMetadata: { contentType: KNOWLEDGE_CONTENT_TYPES[u.type][0] } })
        items.push({ id, type: u.type, source: u.file.name, title: u.file.name, file_key, size: u.file.size, status: 'pending' })
      }
      return addItems(c, auth, p.id, items, warnings)
    }),
  )
  /** POST …/knowledge/url: a web page, fetched and read in the background (restricted video sites refused). */
  .post(
    '/url',
    guardedJson(EDIT, KnowledgeUrlInput, async (c, auth, body) => {
      const p = await requirePersona(c, auth)
      const { counted, keys } = await knowledgeCensus(c.env.DB, auth.realm, p.id)
      if (keys.has(knowledgeKey('url', body.url))) return addItems(c, auth, p.id, [], [duplicate('url', body.url)])
      checkLimit(counted, 1, 'url')
      return addItems(c, auth, p.id, [{ id: newId(), type: 'url', source: body.url, title: body.url, file_key: '', size: 0, status: 'pending' }], [])
    }),
  )
  /** POST …/knowledge/lesson: a lesson as knowledge (not counted in the limit; a reference until lessons exist). */
  .post(
    '/lesson',
    guardedJson(EDIT, KnowledgeLessonInput, async (c, auth, body) => {
      const p = await requirePersona(c, auth)
      const { keys } = await knowledgeCensus(c.env.DB, auth.realm, p.id)
      if (keys.has(knowledgeKey('lesson', body.lesson_id))) return addItems(c, auth, p.id, [], [duplicate('lesson_id', body.lesson_id)])
      return addItems(
        c,
        auth,
        p.id,
        [{ id: newId(), type: 'lesson', source: body.lesson_id, title: body.title, file_key: '', size: 0, status: 'processed' }],
        [],
      )
    }),
  )
  /** PUT …/knowledge/{itemId}: the item's title (a draft changes in place; a saved item becomes to_update). */
  .put(
    '/:itemId',
    guardedJson(EDIT, KnowledgeUpdate, async (c, auth, body) => {
      const db = c.env.DB
      const p = await requirePersona(c, auth)
      const item = await requireItem(c, auth, p.id)
      if (item.stage === 'to_delete') throw apiError(409, 'to_delete', 'validation.persona.item_to_delete', 'item_id', item.id)
      await runBatch(db, [
        retitleKnowledgeStatement(db, auth.realm, p.id, item.id, body.title, nowIso()),
        audit(c, auth, p.id, 'update', item.id, { title: item.title }, { title: body.title }),
      ])
      return c.json((await listKnowledge(db, auth.realm, p.id)).find((i) => i.id === item.id)!)
    }),
  )
  /**
   * DELETE …/knowledge/{itemId}: a pending item is refused (409 pending); a draft goes now (its file with it); a saved
   * item becomes to_delete until the persona's save.
   */
  .delete(
    '/:itemId',
    guarded(EDIT, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePersona(c, auth)
      const item = await requireItem(c, auth, p.id)
      if (item.status === 'pending') throw apiError(409, 'pending', 'validation.persona.knowledge_pending', 'item_id', item.id)
      if (item.stage === 'to_delete') return c.body(null, 204)
      const gone = { type: item.type, source: item.source }
      if (item.stage === 'draft') {
        await runBatch(db, [...deleteDraftKnowledgeStatements(db, auth.realm, p.id, item.id), audit(c, auth, p.id, 'delete', item.id, gone, null)])
        if (item.file_key) c.executionCtx.waitUntil(c.env.FILES.delete(item.file_key))
      } else {
        await runBatch(db, [stageKnowledgeDeleteStatement(db, auth.realm, p.id, item.id, nowIso()), audit(c, auth, p.id, 'delete', item.id, gone, null)])
      }
      return c.body(null, 204)
    }),
  )
  /** POST …/knowledge/{itemId}/process: a failed item processed again (back to pending). */
  .post(
    '/:itemId/process',
    guarded(EDIT, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePersona(c, auth)
      const item = await requireItem(c, auth, p.id)
      if (item.status !== 'failed') throw apiError(409, 'not_failed', 'validation.persona.knowledge_not_failed', 'item_id', item.status)
      await retryKnowledgeStatement(db, auth.realm, p.id, item.id, nowIso()).run()
      scheduleKnowledge(c.executionCtx, c.env, auth.realm, p.id, [item.id])
      return c.json(
        (await listKnowledge(db, auth.realm, p.id)).find((i) => i.id === item.id)!,
        202,
      )
    }),
  )
