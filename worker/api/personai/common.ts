import * as v from 'valibot'
import type { Access } from '#shared/access'
import { DialogInput, dialogProblems, type PersonaDialog, type SpeechType } from '#shared/schemas/persona'
import { findPersona, type DialogRow } from '../../db/personas'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { type Ctx, pathParam } from '../context'

/** What the persona endpoints share: their requirement (every one needs the realm's persona_enabled) and the persona of the path. */
export const PERSONA_FLAGS = ['persona_enabled'] as const
export const personaAccess = (...all: string[]): Access => ({ all, flags: PERSONA_FLAGS })
export const personaAnyAccess = (...any: string[]): Access => ({ any, flags: PERSONA_FLAGS })

/** The persona of the path in the caller's realm, or 404. */
export async function requirePersona(c: Ctx, auth: Auth, param = 'personaId') {
  const id = pathParam(c, param)
  const found = await findPersona(c.env.DB, auth.realm, id)
  if (!found) throw apiError(404, 'not_found', 'persona.not_found', 'persona_id', id)
  return found
}

/** A stored dialog as the editor sees it (its staged content when it has one), without its problems yet. */
export function dialogView(row: DialogRow): Omit<PersonaDialog, 'problems'> {
  const content = v.parse(DialogInput, JSON.parse(row.staged ?? row.content))
  return {
    ...content,
    id: row.id,
    persona_id: row.persona_id,
    stage: row.stage,
    position: row.position,
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  }
}

/** The persona's dialogs, each with the problems it has among the dialogs the save keeps (not to_delete). */
export function dialogsWithProblems(rows: DialogRow[], speechType: SpeechType): PersonaDialog[] {
  const views = rows.map(dialogView)
  const kept = views.filter((d) => d.stage !== 'to_delete')
  return views.map((d) => ({ ...d, problems: d.stage === 'to_delete' ? [] : dialogProblems(d, kept, speechType) }))
}
