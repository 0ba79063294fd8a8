import { Hono } from 'hono'
import * as v from 'valibot'
import { ImageCheckRequest } from '#shared/schemas/ai'
import { PersonaAsk, PersonaCreate, PersonaMessages, PersonaTerms, PersonaUpdate, personaEntity, speechTypeOf, type Persona } from '#shared/schemas/persona'
import { aiApiError, textFor } from '../../ai'
import { answerPersona, personaIndex } from '../../ai/persona-answer'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { getFile, persistFileStatement, uploadedFile } from '../../db/files'
import { deleteChatSessionsStatement } from '../../db/persona-chat'
import {
  acceptTermsStatement,
  knowledgeFileKeys,
  listDialogRows,
  pendingKnowledgeCount,
  saveItemsStatements,
  stageCounts,
  touchPersonaStatement,
} from '../../db/personas'
import { assistantsOfPersona } from '../../db/assistants'
import { getRealmRow, realmConfig } from '../../db/realms'
import type { Auth } from '../../db/sessions'
import { born, crud, stamp } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, origin } from '../context'
import { PERSONA_FLAGS, dialogsWithProblems, personaAccess, personaAnyAccess, requirePersona } from './common'
import { checkPersonaImage } from './persona/image'

/**
 * /personai/persona: personas (seed 002 §2, §3, §4, §5 "Persona"; issue 16 item 2), every endpoint needing the realm's
 * `persona_enabled` and its permission. The persona's own fields (identification, voice, messages) are written at
 * once; its dialogs (`./persona/dialog.ts`) and knowledge (`./persona/knowledge.ts`) are staged items that
 * `POST /{id}/save` applies in one batch (§4). `POST /{id}/terms` records the terms agreement, required before use.
 */
const FLAGS = PERSONA_FLAGS
const personaReadAccess = personaAnyAccess('persona_persona_get', 'persona_persona_edit')
const EDIT = personaAccess('persona_persona_edit')
const WRITE = personaAnyAccess('persona_persona_create', 'persona_persona_edit')

/** An uploaded image of the realm as the persona's (or an assistant's) image; answers its URL. */
export async function personaImage(c: Ctx, auth: Auth, id: string): Promise<string> {
  const file = await getFile(c.env.DB, auth.realm, id)
  if (!file || file.kind !== 'image') throw apiError(422, 'not_found', 'validation.file.required', 'image_file_id', id)
  const realm = await getRealmRow(c.env.DB, auth.realm)
  const base = realm ? realmConfig(realm, origin(c), c.get('hostRealm') === null).files_base_url : '/files/'
  return uploadedFile(file, base).cdn_full_url
}

type Body = v.InferOutput<typeof PersonaUpdate>

async function personaValues(c: Ctx, auth: Auth, body: Body, existing?: Persona): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {
    name: body.name,
    bio: body.bio,
    tags: body.tags,
    language: body.language,
    is_public: body.is_public,
    fluid_conversation: body.fluid_conversation,
    synchronized_speech: body.synchronized_speech,
    humanized: body.humanized,
    speech_type: speechTypeOf(body),
    voice: body.voice,
    messages: body.messages,
  }
  if (body.image_file_id !== (existing?.image_file_id ?? '')) {
    values.image_file_id = body.image_file_id
    values.image_url = body.image_file_id ? await personaImage(c, auth, body.image_file_id) : ''
    // The server's face and celebrity check (a refusal stops the save); the persona keeps what it found, or why it did not run.
    values.image_check = body.image_file_id ? await checkPersonaImage(c, auth, body.image_file_id) : {}
  }
  return values
}

const personaCrud = crud(personaEntity, {
  permissions: {
    list: 'persona_persona_list',
    get: ['persona_persona_get', 'persona_persona_edit'],
    create: 'persona_persona_create',
    edit: 'persona_persona_edit',
    delete: 'persona_persona_delete',
  },
  flags: FLAGS,
  create: PersonaCreate,
  update: PersonaUpdate,
  beforeCreate: async (c, auth, body) => ({
    ...(await personaValues(c, auth, body)),
    ...born(auth),
  }),
  beforeUpdate: async (c, auth, body, existing: Persona) => ({
    ...(await personaValues(c, auth, body, existing)),
    ...stamp(auth),
  }),
  // Pending knowledge cannot be deleted (seed 002 §4), nor the persona holding it.
  beforeDelete: async (c, auth, existing) => {
    const pending = await pendingKnowledgeCount(c.env.DB, auth.realm, existing.id)
    if (pending) throw apiError(409, 'pending', 'validation.persona.knowledge_pending', 'knowledge', pending)
    // An assistant is built on its persona for good (seed 002 §4): a persona in use stays.
    const assistants = await assistantsOfPersona(c.env.DB, auth.realm, existing.id)
    if (assistants) throw apiError(409, 'in_use', 'validation.assistant.persona_in_use', 'assistants', assistants)
    const keys = await knowledgeFileKeys(c.env.DB, auth.realm, existing.id)
    // The knowledge files go once the rows are gone (the rows cascade with the persona).
    if (keys.length) c.executionCtx.waitUntil(c.env.FILES.delete(keys))
  },
  statements: (c, auth, write) => {
    // The persona's public chat transcripts go with it (persona_chat_session has no foreign key to persona).
    if (write.action === 'delete') return [deleteChatSessionsStatement(c.env.DB, auth.realm, write.id)]
    const id = write.values.image_file_id
    return typeof id === 'string' && id ? [persistFileStatement(c.env.DB, auth.realm, id)] : []
  },
  // `terms_accepted`: whether the persona may be used (seed 002 §5 "terms agreement applies before use").
  expand: (_c, row) => ({ ...row, terms_accepted: Boolean(row.terms_accepted_at) }),
})

export const persona = new Hono<AppEnv>()
  /**
   * POST /personai/persona/image-check: the server's check of an uploaded image before it becomes a persona's (the
   * photo step calls it after uploading): `{ status: 'checked', provider, model, faces, at }` or `{ status: 'not_run',
   * provider, reason }`; 422 `no_face` or `celebrity` refuses it. The persona's save checks again (once per image).
   */
  .post(
    '/image-check',
    guardedJson(WRITE, ImageCheckRequest, async (c, auth, body) => c.json(await checkPersonaImage(c, auth, body.image_file_id))),
  )
  /** POST /personai/persona/{id}/terms: the terms agreement (`accept: true`), who and when recorded. */
  .post(
    '/:personaId/terms',
    guardedJson(EDIT, PersonaTerms, async (c, auth) => {
      const p = await requirePersona(c, auth)
      const at = nowIso()
      await runBatch(c.env.DB, [
        acceptTermsStatement(c.env.DB, auth.realm, p.id, auth.nick, at),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'accept_terms',
          entity: 'persona',
          entityId: p.id,
          before: { terms_accepted_at: p.terms_accepted_at },
          after: { terms_accepted_at: at },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json({ id: p.id, terms_accepted: true, terms_accepted_at: at, terms_accepted_by: auth.nick })
    }),
  )
  /** GET /personai/persona/{id}/stages: how many of the persona's items each stage holds (what a save will do). */
  .get(
    '/:personaId/stages',
    guarded(personaReadAccess, async (c, auth) => {
      const p = await requirePersona(c, auth)
      return c.json(await stageCounts(c.env.DB, auth.realm, p.id))
    }),
  )
  /**
   * POST /personai/persona/{id}/save: applies the item stages (seed 002 §4) in one batch — drafts added, changes
   * applied, items to delete removed — after checking the dialogs the save keeps (any problem refuses the save with
   * every problem listed, e.g. an unreachable dialog). Files of removed knowledge leave the bucket afterwards.
   */
  .post(
    '/:personaId/save',
    guarded(EDIT, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePersona(c, auth)
      const dialogs = dialogsWithProblems(await listDialogRows(db, auth.realm, p.id), p.speech_type)
      const errors = dialogs.filter((d) => d.stage !== 'to_delete').flatMap((d) => d.problems.map((e) => ({ ...e, field: `dialogs.${d.id}.${e.field}` })))
      if (errors.length) throw new ApiError(422, errors)
      const before = await stageCounts(db, auth.realm, p.id)
      const keys = await knowledgeFileKeys(db, auth.realm, p.id, true)
      const at = nowIso()
      await runBatch(db, [
        ...saveItemsStatements(db, auth.realm, p.id),
        touchPersonaStatement(db, auth.realm, p.id, auth.nick, at),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'save_items',
          entity: 'persona',
          entityId: p.id,
          before,
          after: null,
          requestId: c.get('requestId'),
        }),
      ])
      if (keys.length) c.executionCtx.waitUntil(c.env.FILES.delete(keys))
      return c.json({ id: p.id, applied: { added: before.draft, updated: before.to_update, deleted: before.to_delete } })
    }),
  )
  /**
   * POST /personai/persona/{id}/ask: the editor's chat test — the persona answers a question as the chat will (dialog
   * tree first, then its knowledge through the realm's text engine, then its unknown-answer message), over its
   * items as edited (drafts included). Using a persona needs its terms agreement (409 terms_required).
   */
  .post(
    '/:personaId/ask',
    guardedJson(personaReadAccess, PersonaAsk, async (c, auth, body) => {
      const db = c.env.DB
      const p = await requirePersona(c, auth)
      if (!p.terms_accepted_at) throw apiError(409, 'terms_required', 'validation.persona.terms_required', 'terms', null)
      const dialogs = dialogsWithProblems(await listDialogRows(db, auth.realm, p.id), p.speech_type).filter((d) => d.stage !== 'to_delete')
      const [index, text] = await Promise.all([personaIndex(db, auth.realm, p.id, true), textFor(c.env, auth.realm)])
      try {
        const answer = await answerPersona({
          question: body.question,
          dialogs,
          index,
          engine: text.engine,
          messages: v.parse(PersonaMessages, JSON.parse(p.messages)),
          language: p.language,
          persona: p.name,
        })
        return c.json(answer)
      } catch (err) {
        throw aiApiError(err)
      }
    }),
  )
  .route('/', personaCrud)
