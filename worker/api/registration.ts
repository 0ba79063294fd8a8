import { Hono } from 'hono'
import { spendPortalToken, storeRehashedPassword } from '../db/users'
import { guardedJson } from '../lib/guard'
import * as v from 'valibot'
import { normalizeEmployeeId } from '#shared/schemas/auth'
import { RealmCode } from '#shared/schemas/common'
import { permissionMap } from '#shared/schemas/permission'
import { USER_KINDS } from '#shared/schemas/realm'
import { findSessionAuth } from '../db/sessions'
import { createUser, findUserByEmail, findUserByExternalId, freeNick, type SigninUser } from '../db/users'
import { sha256Hex } from '../lib/crypto'
import { apiError } from '../lib/errors'
import { issuerForms, OidcError, verifyIdToken } from '../lib/oidc'
import { hashPassword, needsRehash, verifyPassword } from '../lib/password'
import { statePortalFor } from '../lib/state-portal'
import { type AppEnv, type Ctx, parse, pathParam, readHeader } from './context'
import { beginSignin, issueSession, Platform, providerAttempt, type RealmRow, requireMethod, signinFailed, signinRealm } from './signin'

const Password = v.pipe(v.string('validation.required'), v.minLength(2, 'validation.password_length'), v.maxLength(200, 'validation.max_length'))
const Token = v.pipe(v.string('validation.required'), v.trim(), v.minLength(10, 'validation.token'), v.maxLength(8000, 'validation.max_length'))

/** POST /registration/edusp (employee sign-in, type sed): the normalised document id and the password. */
export const EduspSignin = v.object({
  realm: RealmCode,
  id: v.pipe(
    v.string('validation.required'),
    v.transform(normalizeEmployeeId),
    v.minLength(3, 'validation.document_length'),
    v.maxLength(40, 'validation.document_length'),
  ),
  password: Password,
  platform: Platform,
})

/** POST /registration/edusp/token: an access token of the state portal. */
export const EduspTokenSignin = v.object({ realm: RealmCode, token: Token, platform: Platform })

/** POST /mas/registration and /registration/{realm} (seed 000 §7). */
export const Registration = v.object({
  realm: v.optional(RealmCode),
  token: v.optional(Token),
  provider: v.picklist(['google', 'employee_token', 'revalidate'], 'validation.picklist'),
  auth_type: v.optional(v.picklist(USER_KINDS, 'validation.picklist')),
  create: v.optional(v.boolean('validation.boolean'), false),
  nonce: v.optional(v.pipe(v.string(), v.maxLength(200, 'validation.max_length'))),
  with_permissions: v.optional(v.boolean('validation.boolean'), false),
})

/** Employee-token sign-in, shared by /registration/edusp/token and provider `employee_token`. */
async function employeeTokenSignin(c: Ctx, realm: RealmRow, token: string, platform: string) {
  requireMethod(realm, 'employee_token')
  const portal = statePortalFor(realm)
  if (!portal) throw apiError(503, 'provider_unavailable', 'The state portal is not configured for this realm.', 'provider', 'employee_token')
  const attempt = await beginSignin(c, realm, null)
  const result = await portal.verify(token)
  if (!result.ok) {
    const expired = result.reason === 'expired'
    return signinFailed(
      c,
      attempt,
      apiError(401, expired ? 'token_expired' : 'token_invalid', expired ? 'The access token has expired.' : 'The access token is not valid.', 'token'),
    )
  }
  if (!(await spendPortalToken(c.env.DB, realm.code, await sha256Hex(result.jti), new Date(result.expiresAt).toISOString())))
    return signinFailed(c, attempt, apiError(401, 'token_used', 'The access token was already used.', 'token'))
  const user = await findUserByExternalId(c.env.DB, realm.code, result.id)
  if (!user || user.disabled) return signinFailed(c, attempt, apiError(401, 'credentials', 'No active account for this employee.', 'token'))
  return issueSession(c, attempt, user, platform)
}

/** The account of a verified Google identity: found by e-mail, or created when the e-mail domain maps to a kind. */
async function googleAccount(
  c: Ctx,
  realm: RealmRow,
  claims: { email: string; name?: string; picture?: string },
  create: boolean,
  kind?: string,
): Promise<SigninUser> {
  const domain = claims.email.split('@')[1]?.toLowerCase() ?? ''
  let authType: Record<string, string> = {}
  try {
    authType = JSON.parse(String(realm.auth_type)) as Record<string, string>
  } catch {
    authType = {}
  }
  const restricted = Object.keys(authType).length > 0
  if (restricted && !(domain in authType)) throw apiError(403, 'not_allowed', `E-mail domain ${domain} is not allowed in this realm.`, 'email', domain)
  const existing = await findUserByEmail(c.env.DB, realm.code, claims.email)
  if (existing) {
    if (existing.disabled) throw apiError(403, 'not_allowed', 'This account is not authorised.', 'email', claims.email)
    return existing
  }
  const mapped = authType[domain]
  if (!create || !mapped || (kind && kind !== mapped))
    throw apiError(403, 'not_allowed', 'This account is not authorised in this realm.', 'email', claims.email)
  const base =
    claims.email
      .split('@')[0]
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '')
      .slice(0, 40) || 'user'
  const nick = await freeNick(c.env.DB, realm.code, base, String(realm.nick_suffix ?? ''))
  // Kinds become the realm's role of the same name when it has one (student, teacher, admin); others get none.
  await createUser(
    c.env.DB,
    realm.code,
    { nick, name: claims.name ?? base, email: claims.email, avatar_url: claims.picture ?? '', roles: [mapped] },
    { provider: 'google', requestId: c.get('requestId'), ledger: realm },
  )
  const created = await findUserByEmail(c.env.DB, realm.code, claims.email)
  if (!created) throw new Error('created account not found')
  return created
}

async function googleSignin(c: Ctx, realm: RealmRow, body: v.InferOutput<typeof Registration>, platform: string) {
  requireMethod(realm, 'google')
  const audience = String(realm.google_client_id ?? '')
  if (!audience) throw apiError(503, 'provider_unavailable', 'Google sign-in is not configured for this realm.', 'provider', 'google')
  if (!body.token) throw apiError(400, platform === 'mobile' ? 'mobile' : 'required', 'validation.required', 'token')
  let claims
  try {
    claims = await verifyIdToken(body.token, { jwksUrl: c.env.GOOGLE_JWKS_URL, issuers: issuerForms(c.env.GOOGLE_ISSUER), audience, nonce: body.nonce })
  } catch (err) {
    if (err instanceof OidcError && err.reason === 'unavailable') throw apiError(503, 'provider_unavailable', err.message, 'provider', 'google')
    if (err instanceof OidcError) throw apiError(401, 'invalid_token', err.message, 'token', err.reason)
    throw err
  }
  const verified = claims.email_verified === true || claims.email_verified === 'true'
  if (!claims.email || !verified) throw apiError(403, 'email_missing', 'The Google account has no verified e-mail address.', 'email')
  const user = await googleAccount(c, realm, { email: claims.email, name: claims.name, picture: claims.picture }, body.create, body.auth_type)
  return issueSession(c, providerAttempt(realm), user, platform)
}

/** provider `revalidate` (mobile): the session of `token` is still valid; answers the profile and permissions. */
async function revalidate(c: Ctx, realm: RealmRow, body: v.InferOutput<typeof Registration>) {
  if (!body.token) throw apiError(400, 'required', 'validation.required', 'token')
  const found = await findSessionAuth(c.env.DB, body.token)
  if (found.status === 'unknown') throw apiError(401, 'unauthorized', 'The auth token is not valid.', 'token')
  if (found.status === 'ended') throw apiError(401, 'session_timeout', 'The session has ended; sign in again.', 'token')
  if (found.auth.realm !== realm.code) throw apiError(401, 'realm', `The auth token is not valid for realm ${realm.code}.`, 'token')
  return {
    nick: found.auth.nick,
    name: found.auth.name,
    avatar_url: found.auth.avatar_url,
    nick_suffix: String(realm.nick_suffix ?? ''),
    realm: realm.code,
    ...(body.with_permissions ? { permissions: permissionMap(found.auth.permissions) } : {}),
  }
}

/** The realm of a registration: path, x-api-realm and body must agree where given. */
function registrationRealm(c: Ctx, body: { realm?: string }, path?: string): string {
  const named = [path, c.req.header('x-api-realm'), body.realm].filter((r): r is string => Boolean(r))
  const code = named[0] ?? c.get('hostRealm')
  if (!code) throw apiError(400, 'required', 'validation.required', 'realm')
  const mismatch = named.find((r) => r !== code)
  if (mismatch) throw apiError(400, 'realm', 'The realm of the path, the x-api-realm header and the body differ.', 'realm', mismatch)
  return code
}

/** Sign-in by registration: Google, employee token or mobile revalidation, for a realm named by path, header or body. */
export async function register(c: Ctx, body: v.InferOutput<typeof Registration>, pathRealm?: string) {
  const platform = readHeader(c, 'x-api-platform', Platform)
  const realm = await signinRealm(c, registrationRealm(c, body, pathRealm ? parse(RealmCode, pathRealm) : undefined))
  if (body.provider === 'revalidate') return c.json(await revalidate(c, realm, body))
  if (body.provider === 'employee_token') {
    if (!body.token) throw apiError(400, 'required', 'validation.required', 'token')
    return c.json(await employeeTokenSignin(c, realm, body.token, platform))
  }
  return c.json(await googleSignin(c, realm, body, platform))
}

/** /registration: employee sign-in (edusp), employee-token sign-in and registration by realm path. */
export const registration = new Hono<AppEnv>()
  .post(
    '/edusp',
    guardedJson('public', EduspSignin, async (c, _auth, body) => {
      const realm = await signinRealm(c, body.realm)
      requireMethod(realm, 'employee')
      const attempt = await beginSignin(c, realm, body.id)
      const user = await findUserByExternalId(c.env.DB, realm.code, body.id)
      const valid = await verifyPassword(body.password, user && !user.disabled ? user.password_hash : '')
      if (!user || !valid) return signinFailed(c, attempt, apiError(401, 'credentials', 'Incorrect login or password.', 'id', body.id))
      if (needsRehash(user.password_hash)) {
        await storeRehashedPassword(c.env.DB, realm.code, user.nick, await hashPassword(body.password))
      }
      return c.json(await issueSession(c, attempt, user, body.platform, body.id))
    }),
  )
  .post(
    '/edusp/token',
    guardedJson('public', EduspTokenSignin, async (c, _auth, body) => {
      const realm = await signinRealm(c, body.realm)
      return c.json(await employeeTokenSignin(c, realm, body.token, body.platform))
    }),
  )
  .post(
    '/:realm',
    guardedJson('public', Registration, (c, _auth, body) => register(c, body, pathParam(c, 'realm'))),
  )
