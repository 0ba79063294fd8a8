import type { ListSpec } from '~/lib/lists'
import { YES_NO, optionsOf, when, yesNo } from '~/lib/list-format'
import { SPEECH_TYPES, type Persona } from '#shared/schemas/persona'

/** Personas (`personai/persona`): the list and its CSV export. */
export const personaList: ListSpec<Persona> = {
  name: 'persona',
  apiPath: 'personai/persona',
  route: 'persona.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.persona.fields.name', sorting: true },
    { id: 'language', label: 'resources.persona.fields.language', sorting: true, width: 110 },
    { id: 'speech_type', label: 'resources.persona.fields.speech_type', width: 200, format: (v, _r, t) => t(`persona.speech_type.${String(v)}`) },
    { id: 'is_public', label: 'resources.persona.fields.is_public', width: 100, format: yesNo },
    { id: 'terms_accepted_at', label: 'resources.persona.fields.terms_accepted_at', width: 150, format: when, time: true },
    { id: 'updated_at', label: 'resources.persona.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.persona.fields.name' },
    { field: 'speech_type', type: 'select', label: 'resources.persona.fields.speech_type', options: optionsOf(SPEECH_TYPES, 'persona.speech_type') },
    { field: 'is_public', type: 'select', label: 'resources.persona.fields.is_public', options: YES_NO },
  ],
}
export default personaList
