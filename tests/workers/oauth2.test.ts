import { describe, expect, it } from 'vitest'
import { bytesToBase64Url, randomToken } from '../../worker/lib/crypto'
import { DEMO, api, expectEnvelope, signIn } from './helpers'

const CLIENT = 'demo-reports'
const REDIRECT = 'http://localhost:8790/callback'

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomToken(48) // 64 characters, as the specification's verifier
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)))
  return { verifier, challenge: bytesToBase64Url(digest) }
}

function params(challenge: string, extra: Record<string, string> = {}) {
  return {
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'profile email',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  }
}

async function authorize(token: string, challenge: string, extra: Record<string, string> = {}) {
  return api(DEMO, 'mas/oauth2/authorize', { method: 'POST', token, json: params(challenge, extra) })
}

function exchange(form: Record<string, string>, json = false) {
  const body = { grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: CLIENT, ...form }
  return json
    ? api(DEMO, 'mas/oauth2/token', { method: 'POST', json: body })
    : api(DEMO, 'mas/oauth2/token', { method: 'POST', body: new URLSearchParams(body), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
}

describe('OAuth2 authorization with PKCE', () => {
  it('describes the request for the consent screen', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const { challenge } = await pkce()
    const res = await api(DEMO, `mas/oauth2/authorize?${new URLSearchParams(params(challenge))}`, { token })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toEqual({
      client: { client_id: CLIENT, name: 'Relatórios Demo' },
      scopes: ['profile', 'email'],
      redirect_uri: REDIRECT,
      state: 'xyz',
    })
  })

  it('issues a code and exchanges it with the right verifier for a token bound to realm and scopes', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const { verifier, challenge } = await pkce()
    const res = await authorize(token, challenge)
    expect(res.status).toBe(200)
    const grant = (await res.json()) as { code: string; redirect_to: string; state: string }
    expect(grant.redirect_to).toBe(`${REDIRECT}?code=${encodeURIComponent(grant.code)}&state=xyz`)
    const tokenRes = await exchange({ code: grant.code, code_verifier: verifier })
    expect(tokenRes.status, await tokenRes.clone().text()).toBe(200)
    const issued = (await tokenRes.json()) as { access_token: string; token_type: string; scope: string; expires_in: number }
    expect(issued).toMatchObject({ token_type: 'Bearer', scope: 'profile email', expires_in: 3600 })
    const me = await api(DEMO, 'mas/oauth2/userinfo', { headers: { authorization: `Bearer ${issued.access_token}` } })
    expect(await me.json()).toEqual({
      sub: 'manager@demo',
      realm: 'demo',
      scope: 'profile email',
      nick: 'manager@demo',
      name: 'Marina Souza',
      picture: '',
      email: 'marina@demo.edu',
    })
    // Bound to the realm: another realm's API refuses it; and it is no session token.
    await expectEnvelope(
      await api('escola.localhost', 'mas/oauth2/userinfo', { headers: { authorization: `Bearer ${issued.access_token}` } }),
      401,
      'invalid_token',
    )
    await expectEnvelope(await api(DEMO, 'mas/session', { token: issued.access_token }), 401, 'unauthorized')
  })

  it('refuses a wrong verifier, and the code is spent by the attempt', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const { verifier, challenge } = await pkce()
    const { code } = (await (await authorize(token, challenge)).json()) as { code: string }
    const wrong = await exchange({ code, code_verifier: (await pkce()).verifier })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', errors: [{ field: 'code_verifier', cause: 'invalid_grant' }] })
    const late = await exchange({ code, code_verifier: verifier })
    expect(((await late.json()) as { error: string }).error).toBe('invalid_grant')
  })

  it('serves a code once; a replay revokes the token it produced', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const { verifier, challenge } = await pkce()
    const { code } = (await (await authorize(token, challenge, { scope: 'permissions' })).json()) as { code: string }
    const first = (await (await exchange({ code, code_verifier: verifier }, true)).json()) as { access_token: string }
    const me = (await (await api(DEMO, 'mas/oauth2/userinfo', { headers: { authorization: `Bearer ${first.access_token}` } })).json()) as Record<
      string,
      unknown
    >
    expect(me).toMatchObject({ role: 'manager' })
    expect(me).not.toHaveProperty('email')
    expect((await exchange({ code, code_verifier: verifier }, true)).status).toBe(400)
    await expectEnvelope(await api(DEMO, 'mas/oauth2/userinfo', { headers: { authorization: `Bearer ${first.access_token}` } }), 401, 'invalid_token')
  })

  it('refuses a code presented by another client or redirect_uri', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const { verifier, challenge } = await pkce()
    const { code } = (await (await authorize(token, challenge)).json()) as { code: string }
    expect(await (await exchange({ code, code_verifier: verifier, client_id: 'other-app' })).json()).toMatchObject({
      error: 'invalid_grant',
      errors: [{ field: 'client_id' }],
    })
    const { code: code2 } = (await (await authorize(token, challenge)).json()) as { code: string }
    expect(await (await exchange({ code: code2, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:8790/callback' })).json()).toMatchObject({
      errors: [{ field: 'redirect_uri' }],
    })
    expect(await (await exchange({ code: code2, code_verifier: verifier, grant_type: 'password' })).json()).toMatchObject({ error: 'unsupported_grant_type' })
  })

  it('answers invalid_request with field, cause and value for a bad request', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const { challenge } = await pkce()
    const cases: [Record<string, string>, string][] = [
      [{ client_id: 'unknown-app' }, 'client_id'],
      [{ redirect_uri: 'https://evil.example/cb' }, 'redirect_uri'],
      [{ response_type: 'token' }, 'response_type'],
      [{ code_challenge_method: 'plain' }, 'code_challenge_method'],
      [{ code_challenge: 'short' }, 'code_challenge'],
      [{ scope: 'profile admin' }, 'scope'],
    ]
    for (const [extra, field] of cases) {
      const body = await expectEnvelope(await authorize(token, challenge, extra), 400, 'invalid_request')
      expect(body.errors[0].field, JSON.stringify(extra)).toBe(field)
      expect(body.errors.every((e) => e.cause === 'invalid_request')).toBe(true)
    }
    const unknown = await expectEnvelope(await authorize(token, challenge, { client_id: 'unknown-app' }), 400, 'invalid_request')
    expect(unknown.errors[0].value).toBe('unknown-app')
  })

  it('requires a signed-in user to authorize', async () => {
    const { challenge } = await pkce()
    await expectEnvelope(await api(DEMO, 'mas/oauth2/authorize', { method: 'POST', json: params(challenge) }), 401, 'unauthorized')
  })
})
