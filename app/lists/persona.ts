import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Persona } from '#shared/schemas/persona'

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
    { id: 'is_public', label: 'resources.persona.fields.is_public', width: 100, format: (v, _r, t) => t(v ? 'form.yes' : 'form.no') },
    { id: 'terms_accepted_at', label: 'resources.persona.fields.terms_accepted_at', width: 150, format: when, time: true },
    { id: 'updated_at', label: 'resources.persona.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.persona.fields.name' },
    {
      field: 'speech_type',
      type: 'select',
      label: 'resources.persona.fields.speech_type',
      options: [
        { value: 'chromakey', label: 'persona.speech_type.chromakey' },
        { value: 'sync', label: 'persona.speech_type.sync' },
        { value: 'animation', label: 'persona.speech_type.animation' },
      ],
    },
    {
      field: 'is_public',
      type: 'select',
      label: 'resources.persona.fields.is_public',
      options: [
        { value: 'true', label: 'form.yes' },
        { value: 'false', label: 'form.no' },
      ],
    },
  ],
}
export default personaList
