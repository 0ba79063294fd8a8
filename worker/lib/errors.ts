import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { BaseIssue } from 'valibot'
import type { ErrorItem } from '../../app/schemas/error'

/** A failure answered with the error envelope `{ errors: [...] }` and the given status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly errors: ErrorItem[],
  ) {
    super(errors.map((e) => `${e.field}: ${e.cause}`).join('; '))
  }
}

/** Shorthand for a one-item ApiError. */
export function apiError(status: ContentfulStatusCode, cause: string, message: string, field = '', value: unknown = null): ApiError {
  return new ApiError(status, [{ field, cause, value, message }])
}

/** valibot issues → envelope items: field is the dotted path, cause the failed rule. */
export function issuesToErrors(issues: readonly BaseIssue<unknown>[]): ErrorItem[] {
  return issues.map((issue) => {
    const field = (issue.path ?? []).map((p) => String(p.key)).join('.')
    const missing = issue.input === undefined && (issue.kind === 'schema' || issue.type === 'non_optional')
    return {
      field,
      cause: missing ? 'required' : issue.type,
      value: redact(field, issue.input),
      message: missing ? 'validation.required' : issue.message,
    }
  })
}

function redact(field: string, value: unknown): unknown {
  return /password|secret|token|key/i.test(field) ? null : value === undefined ? null : value
}
