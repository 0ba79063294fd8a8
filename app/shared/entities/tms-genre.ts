import * as v from 'valibot'
import type { Stamped } from '../schemas/entity'
import { Description, Name, fieldPath } from '../schemas/tms/common'
import { STAMPS, definePlainEntity } from './define'

const words = v.pipe(
  v.number('validation.number'),
  v.integer('validation.integer'),
  v.minValue(1, 'validation.min_value'),
  v.maxValue(5000, 'validation.max_value'),
)

/** Textual genre (seed 001 §3): minimum and maximum words. */
export const GenreInput = v.pipe(
  v.object({ name: Name(2, 120), min_words: words, max_words: words, description: v.optional(Description(1000), '') }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.max_words <= dataset.value.min_words)
      addIssue({ message: 'validation.tms.words_order', path: fieldPath(dataset.value, 'max_words') })
  }),
)
export type GenreInput = v.InferOutput<typeof GenreInput>
export type Genre = GenreInput & Stamped

export const genreEntity = definePlainEntity<Genre>({
  name: 'tms_genre',
  table: 'tms_genre',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: GenreInput,
  permission: 'tms_genre',
  api: 'tms/genre',
  route: { id: 'tms.genre', path: '/tms/genre', param: 'genreId', unsaved: true },
  labelField: 'name',
  saved: 'tms.saved',
  inUse: 'genre',
  fields: {
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    min_words: { type: 'int', sort: true, list: true, column: { align: 'right', width: 130 }, form: { kind: 'number', min: 1, required: true } },
    max_words: { type: 'int', sort: true, list: true, column: { align: 'right', width: 130 }, form: { kind: 'number', min: 1, required: true } },
    description: { type: 'text', search: true, list: true, column: { ellipsis: true }, form: { kind: 'textarea' } },
    ...STAMPS,
  },
  defaultOrder: 'name',
})
export default genreEntity
