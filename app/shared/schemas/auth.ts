import * as v from 'valibot'

/** Username sign-in form (seed 000 §5): username and password each longer than 1 character. */
export const UsernameSignin = v.object({
  nick: v.pipe(
    v.string('validation.required'),
    v.trim(),
    v.toLowerCase(),
    v.minLength(2, 'validation.username_length'),
    v.maxLength(120, 'validation.max_length'),
  ),
  password: v.pipe(v.string('validation.required'), v.minLength(2, 'validation.password_length'), v.maxLength(200, 'validation.max_length')),
})
export type UsernameSignin = v.InferOutput<typeof UsernameSignin>

/** The 27 Brazilian state codes (seed 000 §3); `-` is the blank choice, required for rne. */
export const UF_CODES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const
export const NO_UF = '-'
export const DOCUMENT_TYPES = ['rg', 'cin', 'rne'] as const
export type DocumentType = (typeof DOCUMENT_TYPES)[number]
/** Document number length (seed 000 §5, §9): longer than 1 character, at most 28. */
export const DOCUMENT_MAX = 28

/** The state a document type starts with when chosen (seed 000 §5): rne has none, rg and cin start at SP. */
export function defaultUf(type: DocumentType): string {
  return type === 'rne' ? NO_UF : 'SP'
}

/**
 * The employee id the state directory knows (decision, README): uppercase, only letters and digits of the
 * number, then `<TYPE><NUMBER><UF>`; rne carries no state. rg "12.345.678-9" + SP → "RG123456789SP".
 */
export function employeeId(type: DocumentType, number: string, uf: string): string {
  const clean = number.toUpperCase().replace(/[^A-Z0-9]/g, '')
  return normalizeEmployeeId(`${type}${clean}${type === 'rne' || uf === NO_UF ? '' : uf}`)
}

/** An employee id as sent by any client, reduced to its canonical form. */
export function normalizeEmployeeId(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

/** Employee sign-in form (seed 000 §5): document type, number (2..28), state (not blank for rg and cin), password. */
export const EmployeeSignin = v.pipe(
  v.object({
    doc_type: v.picklist(DOCUMENT_TYPES, 'validation.document_type'),
    doc_number: v.pipe(
      v.string('validation.required'),
      v.trim(),
      v.minLength(2, 'validation.document_length'),
      v.maxLength(DOCUMENT_MAX, 'validation.document_length'),
    ),
    uf: v.pipe(v.string('validation.required'), v.toUpperCase(), v.picklist([...UF_CODES, NO_UF], 'validation.uf')),
    password: v.pipe(v.string('validation.required'), v.minLength(2, 'validation.password_length'), v.maxLength(200, 'validation.max_length')),
  }),
  v.forward(
    v.check((f) => f.doc_type === 'rne' || f.uf !== NO_UF, 'validation.uf_required'),
    ['uf'],
  ),
)
export type EmployeeSignin = v.InferOutput<typeof EmployeeSignin>

/** Access token pasted from the state portal (employee-token sign-in). */
export const EmployeeTokenSignin = v.object({
  token: v.pipe(v.string('validation.required'), v.trim(), v.minLength(10, 'validation.token'), v.maxLength(4000, 'validation.max_length')),
})

/** POST /device answer. */
export interface DeviceSession {
  device_id: string
  auth_token: string
  realm: string
  nick: string
  name: string
  avatar_url: string
  files_base_url: string
  role: string
  roles: string[]
  origin_realm: string
  expires_at: string
}

/** Field → message key of the first failed rule per field, for forms. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of issues) {
    const field = (issue.path ?? []).map((p) => String(p.key)).join('.') || 'form'
    out[field] ??= issue.message
  }
  return out
}
