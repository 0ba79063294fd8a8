import type { BaseIssue } from 'valibot'

/** One failure of an API call (seed 000 §7): every API error answers `{ errors: ErrorItem[] }`. */
export interface ErrorItem {
  field: string
  cause: string
  value: unknown
  message: string
}

export interface ErrorEnvelope {
  errors: ErrorItem[]
}

/** Causes the console knows how to translate (`errors.<cause>` in the catalogues). */
export const KNOWN_CAUSES = [
  'credentials',
  'dashboard_access',
  'forbidden',
  'invalid',
  'not_found',
  'realm',
  'required',
  'session_timeout',
  'unauthorized',
  'conflict',
  'csrf',
  'internal',
] as const

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as ErrorEnvelope).errors) &&
    (value as ErrorEnvelope).errors.every((e) => typeof e === 'object' && e !== null && 'cause' in e)
  )
}

/** valibot issues → envelope items: field is the dotted path, cause the failed rule (the Worker's answer to bad input). */
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
