import * as v from 'valibot'
import { isCalendarDay } from '../common'

/** Shared field schemas of the task-authoring area. */
export const Id = v.pipe(v.string('validation.required'), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'validation.id'))

export const Name = (min = 2, max = 80) =>
  v.pipe(v.string('validation.required'), v.trim(), v.minLength(min, 'validation.min_length'), v.maxLength(max, 'validation.max_length'))

export const Description = (max = 2000) => v.pipe(v.string(), v.trim(), v.maxLength(max, 'validation.max_length'))

/** Tags: short words, at most 20, no duplicates (case does not count). */
export const Tags = v.optional(
  v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.minLength(1, 'validation.min_length'), v.maxLength(30, 'validation.max_length'))),
    v.maxLength(20, 'validation.max_items'),
    v.check((tags) => new Set(tags.map((t) => t.toLowerCase())).size === tags.length, 'validation.tms.tag_duplicate'),
  ),
  [],
)

/** Linked category ids; linking one twice is refused (seed 001 §5). */
export const CategoryLinks = v.optional(
  v.pipe(
    v.array(Id),
    v.maxLength(50, 'validation.max_items'),
    v.check((ids) => new Set(ids).size === ids.length, 'validation.tms.category_duplicate'),
  ),
  [],
)

/** An instant as ISO-8601 (a time zone or `Z` required), answered in UTC. */
export const Instant = v.pipe(
  v.string('validation.date'),
  // One issue for any text that is not an instant (a regex and a separate check would name the same text twice).
  // Its day must be one of the calendar: the engine's own parser takes 2099-02-31 as 3 March.
  v.check(
    (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && isCalendarDay(s.slice(0, 10)) && !Number.isNaN(Date.parse(s)),
    'validation.date',
  ),
  v.transform((s) => new Date(s).toISOString()),
)

export const Flag = v.optional(v.boolean('validation.boolean'), false)
export const Minutes = v.optional(
  v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(0, 'validation.min_value'), v.maxValue(1440, 'validation.max_value')),
  0,
)

/** Plain object path items for a cross-field rule reported at one field. */
export function fieldPath(input: Record<string, unknown>, key: string): [v.IssuePathItem] {
  return [{ type: 'object', origin: 'value', input, key, value: input[key] }]
}
