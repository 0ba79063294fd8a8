import * as v from 'valibot'
import { WebUrl } from './common'

/** What a client application may be allowed to read (the consent screen lists each, `oauth2.scope.<name>`). */
export const OAUTH_SCOPES = ['profile', 'email', 'permissions'] as const
export type OAuthScope = (typeof OAUTH_SCOPES)[number]

const Base64Url = (min: number, max: number) =>
  v.pipe(v.string('validation.required'), v.regex(new RegExp(`^[A-Za-z0-9._~-]{${min},${max}}$`), 'oauth2.error.invalid'))

/** Parameters of an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636): only code + S256. */
export const AuthorizeParams = v.object({
  client_id: v.pipe(v.string('validation.required'), v.minLength(1, 'validation.required'), v.maxLength(100, 'validation.max_length')),
  redirect_uri: v.pipe(v.string('validation.required'), WebUrl({ max: 500 })),
  response_type: v.literal('code', 'oauth2.error.response_type'),
  scope: v.pipe(
    v.string('validation.required'),
    v.transform((s) => [...new Set(s.split(/\s+/).filter(Boolean))]),
    v.minLength(1, 'validation.required'),
    v.checkItems((s) => (OAUTH_SCOPES as readonly string[]).includes(s), 'oauth2.error.scope'),
  ),
  state: v.optional(v.pipe(v.string(), v.maxLength(500, 'validation.max_length')), ''),
  code_challenge: Base64Url(43, 128),
  code_challenge_method: v.literal('S256', 'oauth2.error.challenge_method'),
})
export type AuthorizeParams = v.InferOutput<typeof AuthorizeParams>

/** The token request (RFC 6749 §4.1.3) with the PKCE verifier (43 to 128 characters). */
export const TokenRequest = v.object({
  grant_type: v.string('validation.required'),
  code: v.pipe(v.string('validation.required'), v.maxLength(200, 'validation.max_length')),
  redirect_uri: v.pipe(v.string('validation.required'), v.maxLength(500, 'validation.max_length')),
  client_id: v.pipe(v.string('validation.required'), v.maxLength(100, 'validation.max_length')),
  code_verifier: Base64Url(43, 128),
})

/** GET /mas/oauth2/authorize answer: what the consent screen shows. */
export interface AuthorizeRequestInfo {
  client: { client_id: string; name: string }
  scopes: OAuthScope[]
  redirect_uri: string
  state: string
}

/** POST /mas/oauth2/authorize answer. */
export interface AuthorizeGrant {
  code: string
  state: string
  redirect_to: string
  expires_in: number
}
