import type { ListSpec } from '~/lib/lists'
import { YES_NO, optionsOf, when, yesNo } from '~/lib/list-format'
import { HELPER_IDS, type Assistant } from '#shared/schemas/assistant'

/** Assistants (`personai/assistant`): the list and its CSV export. */
export const assistantList: ListSpec<Assistant> = {
  name: 'assistant',
  apiPath: 'personai/assistant',
  route: 'assistant.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.assistant.fields.name', sorting: true },
    { id: 'persona_name', label: 'resources.assistant.fields.persona_name', width: 200, ellipsis: true },
    { id: 'helper', label: 'resources.assistant.fields.helper', width: 130, format: (v, _r, t) => (v ? t(`assistant.helper.${String(v)}`) : '') },
    { id: 'standard', label: 'resources.assistant.fields.standard', width: 150, format: yesNo },
    { id: 'updated_at', label: 'resources.assistant.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.assistant.fields.name' },
    { field: 'helper', type: 'select', label: 'resources.assistant.fields.helper', options: optionsOf(HELPER_IDS, 'assistant.helper') },
    { field: 'standard', type: 'select', label: 'resources.assistant.fields.standard', options: YES_NO },
  ],
}
export default assistantList
