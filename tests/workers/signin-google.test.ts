import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { bytesToBase64Url } from '../../worker/lib/crypto'
import { OidcError, verifyIdToken } from '../../worker/lib/oidc'
import { DEMO, ESCOLA, api, expectEnvelope, signIn } from './helpers'
import { googleIdToken } from './signin-helpers'

const issuer = () => env.GOOGLE_ISSUER
const CLIENT = 'demo-console.apps.googleusercontent.com'

async function token(sub: string, opts: Parameters<typeof googleIdToken>[2] = {}): Promise<string> {
  const { id_token } = await googleIdToken(issuer(), sub, opts)
  expect(id_token).toBeTruthy()
  return id_token!
}

const register = (json: Record<string, unknown>, headers: Record<string, string> = {}, host = DEMO, path = 'mas/registration') =>
  api(host, path, { method: 'POST', json, headers: { 'x-api-platform': 'dashboard', ...headers } })

describe('Google sign-in (POST /mas/registration, provider google)', () => {
  it('signs in the existing account with the verified e-mail', async () => {
    const res = await register({ realm: 'demo', provider: 'google', token: await token('1001'), nonce: 'test-nonce' })
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({ nick: 'root@demo', name: 'Root Demo', files_base_url: 'http://demo.localhost/files/' })
    expect((await api(DEMO, 'mas/session', { token: String(body.auth_token) })).status).toBe(200)
  })

  it('creates the account of an allowed domain with the kind the domain maps to', async () => {
    const res = await register({ realm: 'demo', provider: 'google', token: await token('1002'), create: true })
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as { nick: string; role: string; auth_token: string }
    expect(body).toMatchObject({ nick: 'nova.professora@demo', role: 'teacher' })
    // The new account has its audit record, written with it (the actor is the provider).
    const records = () =>
      env.DB.prepare("SELECT * FROM audit_log WHERE entity = 'user' AND entity_id = 'nova.professora@demo'").all<{
        realm: string
        actor: string
        action: string
        changes: string
        request_id: string
      }>()
    const { results } = await records()
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ realm: 'demo', actor: 'provider:google', action: 'create', request_id: res.headers.get('x-request-id') })
    expect(JSON.parse(results[0].changes)).toMatchObject({ email: [null, 'nova.professora@demo.edu'], roles: [null, ['teacher']] })
    const session = (await (await api(DEMO, 'mas/session', { token: body.auth_token })).json()) as { permissions: Record<string, boolean> }
    expect(session.permissions.dashboard_dashboard_access).toBe(true)
    // Signing in again finds the same account.
    const again = (await (await register({ realm: 'demo', provider: 'google', token: await token('1002'), create: true })).json()) as { nick: string }
    expect(again.nick).toBe('nova.professora@demo')
    expect((await records()).results).toHaveLength(1)
  })

  it('creates students as students (no dashboard access; the console refuses them)', async () => {
    const res = await register({ realm: 'demo', provider: 'google', token: await token('1003'), create: true })
    const body = (await res.json()) as { role: string; auth_token: string }
    expect(body.role).toBe('student')
    const session = (await (await api(DEMO, 'mas/session', { token: body.auth_token })).json()) as { permissions: Record<string, boolean> }
    expect(session.permissions.dashboard_dashboard_access).toBe(false)
  })

  it('refuses an e-mail domain the realm does not allow, and an unknown account without create', async () => {
    const domain = await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1004'), create: true }), 403, 'not_allowed')
    expect(domain.errors[0]).toMatchObject({ field: 'email', value: 'gmail.example' })
    await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1006') }), 403, 'email_missing')
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM user WHERE realm = 'demo'").first<{ n: number }>()
    await env.DB.prepare("UPDATE user SET email = 'nova.professora.old@demo.edu' WHERE realm = 'demo' AND email = 'nova.professora@demo.edu'").run()
    await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1002'), create: false }), 403, 'not_allowed')
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM user WHERE realm = 'demo'").first<{ n: number }>()
    expect(after?.n).toBe(before?.n)
  })

  it('refuses an account without an e-mail, or with an unverified one', async () => {
    await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1005'), create: true }), 403, 'email_missing')
    await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1006'), create: true }), 403, 'email_missing')
  })

  it('refuses expired tokens, tokens for another client, another nonce, and altered tokens', async () => {
    const expired = await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1007') }), 401, 'invalid_token')
    expect(expired.errors[0].value).toBe('expired')
    const audience = await expectEnvelope(
      await register({ realm: 'demo', provider: 'google', token: await token('1001', { clientId: 'someone-else' }) }),
      401,
      'invalid_token',
    )
    expect(audience.errors[0].value).toBe('audience')
    const nonce = await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1001'), nonce: 'other' }), 401, 'invalid_token')
    expect(nonce.errors[0].value).toBe('nonce')
    const [head, payload, sig] = (await token('1001')).split('.')
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>
    const forgedPayload = bytesToBase64Url(new TextEncoder().encode(JSON.stringify({ ...claims, email: 'manager@demo.edu' })))
    const forged = await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: `${head}.${forgedPayload}.${sig}` }), 401, 'invalid_token')
    expect(forged.errors[0].value).toBe('signature')
    await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: 'not-a-jwt-at-all' }), 401, 'invalid_token')
  })

  it('refuses a token signed by a key that is not the issuer’s', async () => {
    const issued = await token('1001')
    const [head, payload] = issued.split('.')
    const pair = (await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    const sig = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', pair.privateKey, new TextEncoder().encode(`${head}.${payload}`)))
    const body = await expectEnvelope(
      await register({ realm: 'demo', provider: 'google', token: `${head}.${payload}.${bytesToBase64Url(sig)}` }),
      401,
      'invalid_token',
    )
    expect(body.errors[0].value).toBe('signature')
  })

  it('is refused where the realm does not allow Google', async () => {
    await expectEnvelope(await register({ realm: 'escola', provider: 'google', token: await token('1001') }, {}, ESCOLA), 403, 'provider_not_allowed')
  })

  it('reports the provider unavailable when the issuer’s keys cannot be had, or the realm has no client id', async () => {
    const err = await verifyIdToken(await token('1001'), { jwksUrl: `${issuer()}/no-such-key-set`, issuers: [issuer()], audience: CLIENT }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(OidcError)
    expect((err as OidcError).reason).toBe('unavailable')
    await env.DB.prepare("UPDATE realm SET google_client_id = '' WHERE code = 'demo'").run()
    try {
      await expectEnvelope(await register({ realm: 'demo', provider: 'google', token: await token('1001') }), 503, 'provider_unavailable')
    } finally {
      await env.DB.prepare('UPDATE realm SET google_client_id = ? WHERE code = ?').bind(CLIENT, 'demo').run()
    }
  })
})

describe('POST /registration/{realm} and the mobile revalidation', () => {
  it('takes the realm from the path with x-api-realm and x-api-platform headers', async () => {
    const res = await register({ provider: 'google', token: await token('1001') }, { 'x-api-realm': 'demo' }, 'localhost', 'registration/demo')
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { nick: string }).nick).toBe('root@demo')
    await expectEnvelope(
      await register({ provider: 'google', token: await token('1001') }, { 'x-api-realm': 'escola' }, 'localhost', 'registration/demo'),
      400,
      'realm',
    )
    await expectEnvelope(
      await register({ provider: 'google', token: await token('1001') }, { 'x-api-platform': 'tv' }, 'localhost', 'registration/demo'),
      400,
      'picklist',
    )
  })

  it('revalidates a mobile session: profile, nick suffix and permissions', async () => {
    const auth = await signIn(DEMO, 'demo', 'teacher')
    const res = await register({ realm: 'demo', token: auth, provider: 'revalidate', with_permissions: true }, { 'x-api-platform': 'mobile' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, unknown> & { permissions: Record<string, boolean> }
    expect(body).toMatchObject({ nick: 'teacher@demo', name: 'Paulo Lima', nick_suffix: '@demo' })
    expect(body.permissions.tms_model_list).toBe(true)
    expect(body.permissions.mas_realm_list_all).toBe(false)
    await api(DEMO, 'device', { method: 'DELETE', token: auth })
    await expectEnvelope(await register({ realm: 'demo', token: auth, provider: 'revalidate' }, { 'x-api-platform': 'mobile' }), 401, 'unauthorized')
  })

  it('answers the mobile error when a mobile sign-in carries no token', async () => {
    await expectEnvelope(await register({ realm: 'demo', provider: 'google' }, { 'x-api-platform': 'mobile' }), 400, 'mobile')
  })
})
