import { apiData, orNull, type RealmApi } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'
import type { Persona } from '#shared/schemas/persona'

/** The realm's personas as options (read only when the user may list them), by name. */
export async function personaOptions(api: RealmApi, user: SessionUser): Promise<{ value: string; label: string }[]> {
  if (!user.permissions.persona_persona_list) return []
  const page = await apiData(api.entity<Persona>('personai/persona').index.$get({ query: { limit: 1000, order: 'name' } }))
  return page.items.map((p) => ({ value: p.id, label: p.name }))
}

/** The default voices, avatars and helpers. */
export const assistantDefaults = async (api: RealmApi) => {
  const d = await orNull(apiData(api.personai.assistant.defaults.$get()), [403])
  return d ?? { voices: [], default_voice: '', avatars: [], helpers: [] }
}
