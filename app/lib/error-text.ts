import type { TFunction } from 'i18next'
import type { ErrorItem } from '#shared/schemas/error'
import { QUESTION_LIMITS } from '#shared/schemas/tms/constants'

/**
 * The text of a rule message or an API error item: a translation key with the limits and the item's value as
 * placeholders (`{{count}}`, `{{value}}`), else the cause's translation, else the message as sent.
 */
export function errorText(t: TFunction, e: Pick<ErrorItem, 'message' | 'cause'> & { value?: unknown }): string {
  // A value that is a record (a form rule's figures, e.g. `{ total, balance }`) gives its parts as placeholders.
  const parts = e.value && typeof e.value === 'object' && !Array.isArray(e.value) ? (e.value as Record<string, unknown>) : {}
  const values: Record<string, unknown> = { ...QUESTION_LIMITS, count: e.value as number, value: String(e.value ?? ''), ...parts }
  // An error wrapping another (a line of a text box: `form.line_error` with `{ line, rule, cause, value }`): the inner
  // rule's text goes in.
  if (typeof parts.rule === 'string')
    values.rule = errorText(t, { message: parts.rule, cause: typeof parts.cause === 'string' ? parts.cause : e.cause, value: parts.value })
  const key = e.message
  const translated = t(key, { ...values, defaultValue: '' })
  if (translated) return translated
  return t(`errors.${e.cause}`, { defaultValue: key })
}

/** A live rule message (a key) as text. */
export const ruleText = (t: TFunction, message: string) => errorText(t, { message, cause: 'invalid' })

/** Error items with their messages already translated (with placeholders), for the shared multi-error toast. */
export const translatedErrors = (t: TFunction, errors: ErrorItem[]): ErrorItem[] => errors.map((e) => ({ ...e, message: errorText(t, e) }))
