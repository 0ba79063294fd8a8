import * as v from 'valibot'
import { STAMP_FIELDS, type Stamped, defineEntity } from '../entity'
import { Description, Name, fieldPath } from './common'

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

export const genreEntity = defineEntity<Genre>({
  name: 'tms_genre',
  table: 'tms_genre',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    ...STAMP_FIELDS,
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    min_words: { type: 'int', sort: true, list: true },
    max_words: { type: 'int', sort: true, list: true },
    description: { type: 'text', search: true, list: true },
  },
  defaultOrder: 'name',
})
