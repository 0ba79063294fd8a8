import * as v from 'valibot'

/** Field schemas the question schemas share (question-types.ts, question.ts). */
const RICH_MAX = 50_000
export const rich = v.pipe(v.string('validation.question.text'), v.maxLength(RICH_MAX, 'validation.max_length'))
export const line = (max = 500) => v.pipe(v.string('validation.question.text'), v.maxLength(max, 'validation.max_length'))
export const int = v.pipe(
  v.number('validation.number'),
  v.integer('validation.integer'),
  v.minValue(0, 'validation.min_value'),
  v.maxValue(1_000_000, 'validation.max_value'),
)
export const list = <T extends v.GenericSchema>(item: T, max = 100) => v.optional(v.pipe(v.array(item), v.maxLength(max, 'validation.max_items')), [])
