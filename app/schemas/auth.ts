import * as v from 'valibot'

/** Username sign-in form (seed 000 §5): username and password each longer than 1 character. */
export const UsernameSignin = v.object({
  nick: v.pipe(v.string('validation.required'), v.trim(), v.toLowerCase(), v.minLength(2, 'validation.username_length'), v.maxLength(120, 'validation.max_length')),
  password: v.pipe(v.string('validation.required'), v.minLength(2, 'validation.password_length'), v.maxLength(200, 'validation.max_length')),
})
export type UsernameSignin = v.InferOutput<typeof UsernameSignin>

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
