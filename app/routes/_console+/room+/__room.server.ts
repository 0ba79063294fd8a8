import { extraFieldSpecs, type FieldSpec } from '~/lib/form-fields'
import { apiData, type RealmApi } from '~/server/api.server'
import { roomFields } from './__room'

/** The room form: its own fields, then the realm's active extra fields of rooms (seed 002 §3). */
export async function roomFormFields(api: RealmApi): Promise<FieldSpec[]> {
  const { items } = await apiData(api.mas.extra_field.form[':entity'].$get({ param: { entity: 'room' } }))
  return [...roomFields, ...extraFieldSpecs(items)]
}
