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
