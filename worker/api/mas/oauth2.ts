import { Hono } from 'hono'
import { primaryRoleAndPermissions } from '../../db/roles'
import { guarded } from '../../lib/guard'
import * as v from 'valibot'
import { permissionMap } from '#shared/schemas/permission'
import { AuthorizeParams, TokenRequest, type AuthorizeGrant, type AuthorizeRequestInfo } from '#shared/schemas/oauth2'
import { createAccessToken, createCode, CODE_TTL_MS, findAccessToken, findCode, getOAuthClient, revokeCodeTokens, spendCode } from '../../db/oauth2'
import type { Auth } from '../../db/sessions'
import { bytesToBase64Url, timingSafeEqual } from '../../lib/crypto'
import { ApiError, apiError, issuesToErrors } from '../../lib/errors'
import { type AppEnv, type Ctx, readJsonBody, requestRealm } from '../context'

const invalid = (field: string, value: unknown, message: string) => new ApiError(400, [{ field, cause: 'invalid_request', value, message }])

/** Validates an authorization request against the schema and the client's registration in the caller's realm. */
async function checkRequest(c: Ctx, auth: Auth, input: unknown) {
  const parsed = v.safeParse(AuthorizeParams, input)
  if (!parsed.success) {
    throw new ApiError(
      400,
      issuesToErrors(parsed.issues).map((e) => ({ ...e, field: e.field.split('.')[0], cause: 'invalid_request' })),
    )
  }
  const params = parsed.output
  const client = await getOAuthClient(c.env.DB, auth.realm, params.client_id)
  if (!client) throw invalid('client_id', params.client_id, 'oauth2.error.client')
  if (!client.redirect_uris.includes(params.redirect_uri)) throw invalid('redirect_uri', params.redirect_uri, 'oauth2.error.redirect_uri')
  const extra = params.scope.filter((s) => !(client.scopes as string[]).includes(s))
  if (extra.length) throw invalid('scope', extra.join(' '), 'oauth2.error.scope')
  return { params, client }
}

/** The OAuth error code beside the envelope, so standard client libraries understand the answer too. */
function tokenError(error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type', field: string, value: unknown, message: string) {
  return { error, error_description: message, errors: [{ field, cause: error, value, message }] }
}

/**
 * OAuth2 authorization code flow with PKCE S256 for the realm's registered client applications (public clients).
 * Request failures are `invalid_request` items naming the field, cause and value (seed 000 §7).
 */
export const oauth2 = new Hono<AppEnv>()
  /** GET /mas/oauth2/authorize: checks a request and answers what the consent screen shows. */
  .get(
    '/authorize',
    guarded({}, async (c, auth) => {
      const { params, client } = await checkRequest(c, auth, c.req.query())
      return c.json({
        client: { client_id: client.client_id, name: client.name },
        scopes: params.scope as AuthorizeRequestInfo['scopes'],
        redirect_uri: params.redirect_uri,
        state: params.state,
      } satisfies AuthorizeRequestInfo)
    }),
  )
  /** POST /mas/oauth2/authorize: the signed-in user consents; answers a single-use code and where to send it. */
  .post(
    '/authorize',
    guarded({}, async (c, auth) => {
      const { params } = await checkRequest(c, auth, await readJsonBody(c))
      const code = await createCode(c.env.DB, auth.realm, {
        clientId: params.client_id,
        userRealm: auth.home_realm,
        nick: auth.nick,
        redirectUri: params.redirect_uri,
        scope: params.scope,
        codeChallenge: params.code_challenge,
      })
      const target = new URL(params.redirect_uri)
      target.searchParams.set('code', code)
      if (params.state) target.searchParams.set('state', params.state)
      return c.json({ code, state: params.state, redirect_to: target.toString(), expires_in: CODE_TTL_MS / 1000 } satisfies AuthorizeGrant)
    }),
  )
  /** POST /mas/oauth2/token (no session; form-encoded or JSON): exchanges a code and its PKCE verifier for an access token. */
  .post(
    '/token',
    guarded('public', async (c) => {
      const type = c.req.header('content-type') ?? ''
      let input: unknown
      try {
        input = type.includes('application/x-www-form-urlencoded') ? await c.req.parseBody() : await readJsonBody(c)
      } catch (err) {
        const message = err instanceof ApiError ? err.errors[0].message : 'The body must be form-encoded or JSON.'
        return c.json(tokenError('invalid_request', 'body', null, message), 400)
      }
      const parsed = v.safeParse(TokenRequest, input)
      if (!parsed.success) {
        const errors = issuesToErrors(parsed.issues).map((e) => ({ ...e, cause: 'invalid_request' }))
        return c.json({ error: 'invalid_request', error_description: errors[0].message, errors }, 400)
      }
      const req = parsed.output
      if (req.grant_type !== 'authorization_code')
        return c.json(tokenError('unsupported_grant_type', 'grant_type', req.grant_type, 'Only authorization_code is supported.'), 400)
      const code = await findCode(c.env.DB, req.code)
      const realm = requestRealm(c)
      if (!code || (realm && code.realm !== realm)) return c.json(tokenError('invalid_grant', 'code', null, 'The code is not valid.'), 400)
      if (code.used_at) {
        await revokeCodeTokens(c.env.DB, code.code_hash)
        return c.json(tokenError('invalid_grant', 'code', null, 'The code was already used.'), 400)
      }
      if (code.expires_at <= new Date().toISOString()) return c.json(tokenError('invalid_grant', 'code', null, 'The code has expired.'), 400)
      if (code.client_id !== req.client_id)
        return c.json(tokenError('invalid_grant', 'client_id', req.client_id, 'The code was issued to another client.'), 400)
      if (code.redirect_uri !== req.redirect_uri)
        return c.json(tokenError('invalid_grant', 'redirect_uri', req.redirect_uri, 'The redirect_uri differs from the authorization request.'), 400)
      // The code is spent by this attempt whatever the verifier: a wrong verifier means it was intercepted.
      if (!(await spendCode(c.env.DB, code.code_hash))) return c.json(tokenError('invalid_grant', 'code', null, 'The code was already used.'), 400)
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(req.code_verifier)))
      const enc = new TextEncoder()
      if (!timingSafeEqual(enc.encode(bytesToBase64Url(digest)), enc.encode(code.code_challenge))) {
        return c.json(tokenError('invalid_grant', 'code_verifier', null, 'The code_verifier does not match the code_challenge.'), 400)
      }
      const issued = await createAccessToken(c.env.DB, code)
      return c.json({ access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: code.scope }, 200, { 'cache-control': 'no-store' })
    }),
  )
  /** GET /mas/oauth2/userinfo (Authorization: Bearer): what the granted scopes allow the application to read. */
  .get(
    '/userinfo',
    guarded('public', async (c) => {
      const header = c.req.header('authorization') ?? ''
      const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1]
      if (!token) throw apiError(401, 'unauthorized', 'request without auth_token', 'authorization')
      const row = await findAccessToken(c.env.DB, token)
      const realm = requestRealm(c)
      if (!row || row.revoked_at || row.disabled || (realm && realm !== row.realm))
        throw apiError(401, 'invalid_token', 'The access token is not valid.', 'authorization')
      if (row.expires_at <= new Date().toISOString()) throw apiError(401, 'invalid_token', 'The access token has expired.', 'authorization')
      const scopes = row.scope.split(' ')
      const out: Record<string, unknown> = { sub: row.nick, realm: row.realm, scope: row.scope }
      if (scopes.includes('profile')) Object.assign(out, { nick: row.nick, name: row.name, picture: row.avatar_url })
      if (scopes.includes('email')) out.email = row.email
      if (scopes.includes('permissions')) {
        const held = await primaryRoleAndPermissions(c.env.DB, row.user_realm, row.nick)
        out.role = held.role
        out.permissions = permissionMap(held.permissions)
      }
      return c.json(out)
    }),
  )
