import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ErrorItem } from '#shared/schemas/error'

export { issuesToErrors } from '#shared/schemas/error'

/** A failure answered with the error envelope `{ errors: [...] }` and the given status. */
export class ApiError extends Error {
  readonly errors: ErrorItem[]
  constructor(
    readonly status: ContentfulStatusCode,
    errors: ErrorItem[],
  ) {
    super(errors.map((e) => `${e.field}: ${e.cause}`).join('; '))
    // The offending value goes back to the caller, so it is bounded here: whatever was sent (a 50,000-deep array,
    // a megabyte string, a cycle, a BigInt) the envelope stays small and always serialises.
    this.errors = errors
      .slice(0, MAX_ERRORS)
      .map((e) => ({ field: clip(String(e.field), 200), cause: e.cause, value: boundedValue(e.value), message: clip(String(e.message), 500) }))
  }
}

/** At most this many items in one envelope (a body of 10,000 bad items answers the first ones). */
export const MAX_ERRORS = 50
const MAX_VALUE_DEPTH = 3
const MAX_VALUE_ITEMS = 20
const MAX_VALUE_TEXT = 200

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s)

/**
 * A JSON-safe, size-bounded copy of a value for the envelope: strings cut at 200 characters, at most 20 items or
 * keys per level, 3 levels deep (deeper parts become `…`), non-JSON values (functions, symbols, BigInt, NaN) null
 * or text. Iterates only to a fixed depth, so it cannot overflow the stack itself.
 */
export function boundedValue(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
      return clip(value, MAX_VALUE_TEXT)
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'boolean':
      return value
    case 'bigint':
      return clip(value.toString(), MAX_VALUE_TEXT)
    case 'object': {
      if (value === null) return null
      if (depth >= MAX_VALUE_DEPTH) return '…'
      if (Array.isArray(value)) {
        const items = value.slice(0, MAX_VALUE_ITEMS).map((x) => boundedValue(x, depth + 1))
        return value.length > MAX_VALUE_ITEMS ? [...items, '…'] : items
      }
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
      if (typeof File !== 'undefined' && value instanceof File) return { name: clip(value.name, MAX_VALUE_TEXT), size: value.size }
      const out: Record<string, unknown> = {}
      let n = 0
      for (const key of Object.keys(value)) {
        if (n++ === MAX_VALUE_ITEMS) {
          out['…'] = '…'
          break
        }
        out[clip(key, MAX_VALUE_TEXT)] = boundedValue((value as Record<string, unknown>)[key], depth + 1)
      }
      return out
    }
    default:
      return null
  }
}

/** Shorthand for a one-item ApiError. */
export function apiError(status: ContentfulStatusCode, cause: string, message: string, field = '', value: unknown = null): ApiError {
  return new ApiError(status, [{ field, cause, value, message }])
}
