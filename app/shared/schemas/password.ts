import * as v from 'valibot'
import { RealmCode } from './common'

/** New passwords: 8 to 200 characters (decision: the specification shows no rule beyond the confirmation). */
export const NEW_PASSWORD_MIN = 8

/** Reset keys are 256-bit random values in base64url. */
export const ResetKey = v.pipe(v.string('validation.required'), v.regex(/^[\w-]{43}$/, 'recover.error.invalid'))

/** POST /mas/password/recover: a nick or an e-mail address of the realm. */
export const RecoverRequest = v.object({
  realm: RealmCode,
  login: v.pipe(
    v.string('validation.required'),
    v.trim(),
    v.toLowerCase(),
    v.minLength(2, 'validation.username_length'),
    v.maxLength(200, 'validation.max_length'),
  ),
  lang: v.optional(v.picklist(['pt-BR', 'en-US', 'es-ES'], 'validation.picklist'), 'pt-BR'),
})

/** POST /mas/password/reset (key header): the new password and its confirmation, which must match (seed 000 §5). */
export const PasswordReset = v.pipe(
  v.object({
    password: v.pipe(
      v.string('validation.required'),
      v.minLength(NEW_PASSWORD_MIN, 'validation.new_password_length'),
      v.maxLength(200, 'validation.max_length'),
    ),
    confirm: v.string('validation.required'),
  }),
  v.forward(
    v.check((f) => f.password === f.confirm, 'validation.password_mismatch'),
    ['confirm'],
  ),
)
