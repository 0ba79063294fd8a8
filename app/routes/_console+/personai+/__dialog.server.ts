import { apiData, orErrorResponse, type RealmApi } from '~/server/api.server'

/** The persona (its name and speech type) and its dialogs, for the dialog screens (the dialog permissions suffice). */
export async function personaDialogs(api: RealmApi, personaId: string) {
  const answer = await orErrorResponse(apiData(api.personai.persona[':personaId'].dialog.$get({ param: { personaId } })))
  return { persona: answer.persona, dialogs: answer.items }
}
