import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Genre } from '#shared/schemas/tms/genre'

/** Textual genres (`tms/genre`). */
export const genreList: ListSpec<Genre> = {
  name: 'tms_genre',
  apiPath: 'tms/genre',
  route: 'tms.genre.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.tms_genre.fields.name', sorting: true },
    { id: 'min_words', label: 'resources.tms_genre.fields.min_words', sorting: true, align: 'right', width: 130 },
    { id: 'max_words', label: 'resources.tms_genre.fields.max_words', sorting: true, align: 'right', width: 130 },
    { id: 'description', label: 'resources.tms_genre.fields.description', ellipsis: true, tooltip: true },
    { id: 'updated_at', label: 'resources.tms.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [{ field: 'name', type: 'text', label: 'resources.tms_genre.fields.name' }],
}
export default genreList
