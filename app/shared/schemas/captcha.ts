import * as v from 'valibot'
import { RealmCode } from './common'
import { CAPTCHA_TYPES, type CaptchaType } from './realm'

/** The visitor's session key (header x-session-key): a random id kept in the browser's session storage. */
export const SessionKey = v.pipe(v.string('validation.required'), v.regex(/^[\w-]{16,128}$/, 'validation.session_key'))

/** POST /captcha/challenge body (seed 000 §7): realm and an optional type; `lang` words text challenges. */
export const CaptchaChallengeRequest = v.object({
  realm: RealmCode,
  type: v.optional(v.picklist(CAPTCHA_TYPES, 'validation.picklist')),
  lang: v.optional(v.picklist(['pt-BR', 'en-US', 'es-ES'], 'validation.picklist'), 'pt-BR'),
})

/** POST /captcha/verify body: the challenge and the answer (text, image) or solution (pow). */
export const CaptchaVerifyRequest = v.object({
  type: v.picklist(CAPTCHA_TYPES, 'validation.picklist'),
  realm: RealmCode,
  payload: v.object({
    challengeId: v.pipe(v.string('validation.required'), v.minLength(8, 'validation.min_length'), v.maxLength(400, 'validation.max_length')),
    answer: v.optional(v.pipe(v.string(), v.maxLength(40, 'validation.max_length'))),
    solution: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(12, 'validation.max_length'))),
  }),
})

export interface CaptchaChallenge {
  challengeId: string
  type: CaptchaType
  expires_at: string
  data: { question?: string; image?: string; width?: number; height?: number; length?: number; difficulty?: number }
}

export interface CaptchaVerification {
  valid: boolean
  token: string
  expires_at: string
}
