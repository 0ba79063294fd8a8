import { Hono } from 'hono'
import { DialogInput, dialogProblems, type PersonaDialog, type SpeechType } from '#shared/schemas/persona'
import { auditStatement } from '../../../db/audit'
import { runBatch } from '../../../db/batch'
import {
  deleteDraftDialogStatement,
  insertDialogStatement,
  listDialogRows,
  stageDialogDeleteStatement,
  stageDialogUpdateStatement,
  updateDraftDialogStatement,
  type DialogRow,
} from '../../../db/personas'
import type { Auth } from '../../../db/sessions'
import { ApiError, apiError } from '../../../lib/errors'
import { guarded, guardedJson } from '../../../lib/guard'
import { newId, nowIso } from '../../../lib/tms'
import type { AppEnv, Ctx } from '../../context'
import { pathParam } from '../../context'
import { dialogView, dialogsWithProblems, personaAccess, personaAnyAccess, requirePersona } from '../common'

/**
 * /personai/persona/{personaId}/dialog: a persona's dialogs (seed 002 §3 "Dialogs", §4 item stages, §5 rules).
 * A new dialog is a draft until the persona's save; a change to a saved one is staged (to_update); a removed saved
 * one is to_delete (a removed draft simply goes). Rules a dialog breaks on its own refuse the write (422); whether
 * it is reachable, and whether its options still lead to dialogs the save keeps, depend on the other dialogs: the
 * list shows each dialog's `problems`, and the save refuses while any remains.
 */
// A new dialog's options lead to the persona's other dialogs: creating one needs to see them.
const LIST = personaAnyAccess('persona_dialog_list', 'persona_dialog_get', 'persona_dialog_create', 'persona_dialog_edit')
const GET = personaAnyAccess('persona_dialog_get', 'persona_dialog_edit')

/**
 * Refuses a dialog that breaks a rule of its own (every rule but reachability, which other dialogs can still
 * provide): 422 listing each problem.
 */
function checkDialog(id: string, body: DialogInput, others: Omit<PersonaDialog, 'problems'>[], speechType: SpeechType) {
  const kept = [...others.filter((d) => d.stage !== 'to_delete' && d.id !== id), { ...body, id }]
  const problems = dialogProblems({ ...body, id }, kept, speechType).filter((p) => p.cause !== 'unreachable')
  if (problems.length) throw new ApiError(422, problems)
}

async function loadDialogs(c: Ctx, auth: Auth) {
  const p = await requirePersona(c, auth)
  return { persona: p, rows: await listDialogRows(c.env.DB, auth.realm, p.id) }
}

function requireDialog(c: Ctx, rows: DialogRow[]) {
  const id = pathParam(c, 'dialogId')
  const row = rows.find((r) => r.id === id)
  if (!row) throw apiError(404, 'not_found', 'persona.dialog.not_found', 'dialog_id', id)
  return row
}

const audit = (c: Ctx, auth: Auth, personaId: string, action: string, dialogId: string, before: unknown, after: unknown) =>
  auditStatement(c.env.DB, {
    realm: auth.realm,
    actor: auth.nick,
    action,
    entity: 'persona_dialog',
    entityId: dialogId,
    before: before === null ? null : { persona_id: personaId, dialog: before },
    after: after === null ? null : { persona_id: personaId, dialog: after },
    requestId: c.get('requestId'),
  })

export const dialog = new Hono<AppEnv>()
  /** GET …/dialog: the persona's dialogs as the editor sees them, with their problems (e.g. unreachable). */
  .get(
    '/',
    guarded(LIST, async (c, auth) => {
      const { persona, rows } = await loadDialogs(c, auth)
      const items = dialogsWithProblems(rows, persona.speech_type)
      // The persona's name and speech type: what the dialog screens show and the answers' rules depend on.
      const head = { id: persona.id, name: persona.name, speech_type: persona.speech_type }
      return c.json({ items, total: items.length, problems: items.reduce((n, d) => n + d.problems.length, 0), persona: head })
    }),
  )
  .get(
    '/:dialogId',
    guarded(GET, async (c, auth) => {
      const { persona, rows } = await loadDialogs(c, auth)
      const row = requireDialog(c, rows)
      return c.json(dialogsWithProblems(rows, persona.speech_type).find((d) => d.id === row.id)!)
    }),
  )
  /** POST …/dialog: a new dialog, a draft until the persona is saved. */
  .post(
    '/',
    guardedJson(personaAccess('persona_dialog_create'), DialogInput, async (c, auth, body) => {
      const db = c.env.DB
      const { persona, rows } = await loadDialogs(c, auth)
      const id = newId()
      checkDialog(id, body, rows.map(dialogView), persona.speech_type)
      const at = nowIso()
      const position = rows.reduce((n, r) => Math.max(n, r.position + 1), 0)
      await runBatch(db, [
        insertDialogStatement(db, auth.realm, persona.id, id, body, position, auth.nick, at),
        audit(c, auth, persona.id, 'create', id, null, body),
      ])
      const after = await listDialogRows(db, auth.realm, persona.id)
      return c.json(
        dialogsWithProblems(after, persona.speech_type).find((d) => d.id === id)!,
        201,
      )
    }),
  )
  /** PUT …/dialog/{dialogId}: a draft changes in place; a saved dialog's change is staged (to_update). */
  .put(
    '/:dialogId',
    guardedJson(personaAccess('persona_dialog_edit'), DialogInput, async (c, auth, body) => {
      const db = c.env.DB
      const { persona, rows } = await loadDialogs(c, auth)
      const row = requireDialog(c, rows)
      if (row.stage === 'to_delete') throw apiError(409, 'to_delete', 'validation.persona.item_to_delete', 'dialog_id', row.id)
      checkDialog(row.id, body, rows.map(dialogView), persona.speech_type)
      const at = nowIso()
      await runBatch(db, [
        row.stage === 'draft'
          ? updateDraftDialogStatement(db, auth.realm, persona.id, row.id, body, auth.nick, at)
          : stageDialogUpdateStatement(db, auth.realm, persona.id, row.id, body, auth.nick, at),
        audit(c, auth, persona.id, 'update', row.id, JSON.parse(row.staged ?? row.content), body),
      ])
      const after = await listDialogRows(db, auth.realm, persona.id)
      return c.json(dialogsWithProblems(after, persona.speech_type).find((d) => d.id === row.id)!)
    }),
  )
  /** DELETE …/dialog/{dialogId}: a draft goes now; a saved dialog becomes to_delete until the save. */
  .delete(
    '/:dialogId',
    guarded(personaAccess('persona_dialog_delete'), async (c, auth) => {
      const db = c.env.DB
      const { persona, rows } = await loadDialogs(c, auth)
      const row = requireDialog(c, rows)
      const at = nowIso()
      if (row.stage !== 'to_delete')
        await runBatch(db, [
          row.stage === 'draft'
            ? deleteDraftDialogStatement(db, auth.realm, persona.id, row.id)
            : stageDialogDeleteStatement(db, auth.realm, persona.id, row.id, auth.nick, at),
          audit(c, auth, persona.id, 'delete', row.id, JSON.parse(row.staged ?? row.content), null),
        ])
      return c.body(null, 204)
    }),
  )
