import { usage } from '../../db/tms'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { newId, nowIso } from '../../lib/tms'
import type { Ctx } from '../context'

/** Task categories, assessed skills and textual genres (seed 001 §3): the stamps and the in-use refusal their crud() declarations share. */
export const created = (auth: Auth) => ({ id: newId(), realm: auth.realm, created_at: nowIso(), updated_at: nowIso(), updated_by: auth.nick })
export const updated = (auth: Auth) => ({ updated_at: nowIso(), updated_by: auth.nick })

export async function refuseInUse(c: Ctx, auth: Auth, kind: 'category' | 'genre' | 'skill', id: string) {
  const n = await usage(c.env.DB, auth.realm, kind, id)
  if (n > 0) throw apiError(409, 'in_use', `tms.${kind}.in_use`, 'id', n)
}
