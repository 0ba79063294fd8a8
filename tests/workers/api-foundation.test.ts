import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../worker/lib/crypto'
import { DEMO, ESCOLA, api, expectEnvelope, signIn } from './helpers'

describe('realm per host and public configuration', () => {
  it('answers every configuration field of a realm with api_endpoint on the serving origin', async () => {
    const res = await api(DEMO, 'mas/realm/demo/config')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-dash-version')).toBe('1.1.1064')
    const config = (await res.json()) as Record<string, unknown>
    expect(config).toMatchObject({
      realm: 'demo',
      name: 'Demo Academy',
      multirealm: false,
      realm_selected: true,
      time_zone: 'America/Sao_Paulo',
      api_endpoint: 'http://demo.localhost/api/',
      files_base_url: 'http://demo.localhost/files/',
      allowed_signin: ['iptv', 'google'],
      ledger_enabled: true,
      persona_enabled: true,
      nick_suffix: '@demo',
      logo_url: '/brand/demo-logo.svg',
      favicon_url: '/brand/demo-favicon.svg',
    })
    for (const field of [
      'development',
      'dashboard_url',
      'web_client_url',
      'base_url',
      'ios_store_url',
      'android_store_url',
      'br_bot_endpoint',
      'litmetrix_url',
      'cognitive_test_results_url',
      'allowed_roles',
      'auth_type',
      'terms',
      'privacy',
      'season_enable',
      'allowed_award',
      'canonical_name',
      'captcha_enabled',
      'tms_url',
      'tms_question_extra_fields',
      'allow_custom_user_profile_picture',
      'csm.player.attributes.controlsList',
      'task_external_preview_url',
      'token_sso_url',
      'handtalk_enabled',
      'google_client_id',
    ]) {
      expect(config, field).toHaveProperty([field])
    }
    expect(config).not.toHaveProperty('storage_credential_key')
    expect(config).not.toHaveProperty('metaverse_api_token')
  })

  it('reports escola with its own branding and flags off', async () => {
    const config = (await (await api(ESCOLA, 'mas/realm/escola/config')).json()) as Record<string, unknown>
    expect(config).toMatchObject({ realm: 'escola', name: 'Escola Estadual Modelo', ledger_enabled: false, persona_enabled: false, multirealm: false })
    expect(config.logo_url).toBe('/brand/escola-logo.svg')
  })

  it('marks configuration served on a multi-realm host as multirealm', async () => {
    const config = (await (await api('localhost', 'mas/realm/escola/config')).json()) as Record<string, unknown>
    expect(config.multirealm).toBe(true)
    expect(config.api_endpoint).toBe('http://localhost/api/')
  })

  it('answers 404 with the envelope for an unknown realm, and 400 for a malformed code', async () => {
    await expectEnvelope(await api(DEMO, 'mas/realm/nowhere/config'), 404, 'not_found')
    await expectEnvelope(await api(DEMO, 'mas/realm/Bad!Code/config'), 400)
  })

  it('resolves realms from host names stored in D1, so a new host works at once', async () => {
    await env.DB.prepare("INSERT INTO realm_host (host, realm) VALUES ('portal.escola.localhost', 'escola')").run()
    const config = (await (await api('portal.escola.localhost', 'mas/realm/escola/config')).json()) as Record<string, unknown>
    expect(config.multirealm).toBe(false)
    await env.DB.prepare("DELETE FROM realm_host WHERE host = 'portal.escola.localhost'").run()
  })
})

describe('API conventions', () => {
  it('serves the built version with the version header', async () => {
    const res = await api('localhost', 'version')
    expect(await res.json()).toEqual({ version: '1.1.1064' })
    expect(res.headers.get('x-dash-version')).toBe('1.1.1064')
  })

  it('answers unknown API paths with the envelope, never the console', async () => {
    const res = await api(DEMO, 'no/such/thing', { method: 'PATCH' })
    const body = await expectEnvelope(res, 404, 'not_found')
    expect(body.errors[0].value).toBe('PATCH /api/no/such/thing')
    expect(res.headers.get('x-dash-version')).toBe('1.1.1064')
  })

  it('refuses a body that is not JSON with a 400 envelope', async () => {
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', body: 'nick=root', headers: { 'content-type': 'text/plain' } }), 400, 'invalid')
  })
})

describe('POST /device', () => {
  it('signs in with nick and password, appending the realm nick suffix', async () => {
    const res = await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'root', password: 'demo1234' } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({ nick: 'root@demo', name: 'Root Demo', role: 'root', files_base_url: 'http://demo.localhost/files/' })
    expect(typeof body.device_id).toBe('string')
    expect(String(body.auth_token).length).toBeGreaterThanOrEqual(43) // 256 bits, base64url
    expect(body).not.toHaveProperty('password')
    expect(JSON.stringify(body)).not.toContain('pbkdf2')
  })

  it('accepts a nick that already carries the suffix', async () => {
    expect(await signIn(DEMO, 'demo', 'manager@demo')).toBeTruthy()
  })

  it('stores only the hash of the token, bound to its realm', async () => {
    const token = await signIn(DEMO, 'demo', 'teacher')
    const row = await env.DB.prepare('SELECT realm, nick FROM session WHERE token_hash = ?')
      .bind(await sha256Hex(token))
      .first()
    expect(row).toEqual({ realm: 'demo', nick: 'teacher@demo' })
    const raw = await env.DB.prepare('SELECT COUNT(*) AS n FROM session WHERE token_hash = ?').bind(token).first<{ n: number }>()
    expect(raw?.n).toBe(0)
  })

  it('stores passwords only as salted PBKDF2 hashes within the 100,000-iteration limit per call', async () => {
    const { results } = await env.DB.prepare("SELECT password_hash FROM user WHERE realm = 'demo'").all<{ password_hash: string }>()
    for (const { password_hash } of results) {
      expect(password_hash).toMatch(/^pbkdf2-sha256\$\d+x100000\$[\w-]{22}\$[\w-]{43}$/)
      expect(password_hash).not.toContain('demo1234')
    }
  })

  it('refuses a wrong password with 401 and cause credentials', async () => {
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'root', password: 'wrong-pass' } }), 401, 'credentials')
  })

  it('refuses an unknown user exactly like a wrong password', async () => {
    const body = await expectEnvelope(
      await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'ghost', password: 'demo1234' } }),
      401,
      'credentials',
    )
    expect(body.errors[0].message).toBe('Incorrect login or password.')
  })

  it('refuses too-short username and password with one item per field', async () => {
    const body = await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'r', password: 'x' } }), 400)
    expect(body.errors.map((e) => e.field).sort()).toEqual(['nick', 'password'])
    expect(body.errors.find((e) => e.field === 'password')?.value).toBeNull()
  })

  it('refuses a missing password as required', async () => {
    const body = await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'root' } }), 400, 'required')
    expect(body.errors[0].field).toBe('password')
  })

  it('refuses signing in to another realm on a realm host', async () => {
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'escola', nick: 'root', password: 'demo1234' } }), 400, 'realm')
  })

  it('refuses a disabled user', async () => {
    await env.DB.prepare(
      "INSERT INTO user (realm, nick, name, password_hash, origin_realm, disabled) SELECT realm, 'off@demo', 'Off', password_hash, realm, 1 FROM user WHERE realm='demo' AND nick='root@demo'",
    ).run()
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'off', password: 'demo1234' } }), 401, 'credentials')
  })
})

describe('tokens, permissions and logout', () => {
  it('refuses calls without a token: request without auth_token', async () => {
    const body = await expectEnvelope(await api(DEMO, 'mas/session'), 401, 'unauthorized')
    expect(body.errors[0].message).toBe('request without auth_token')
  })

  it('answers the role permission map with GET /mas/permission/{role}', async () => {
    const token = await signIn(DEMO, 'demo', 'teacher')
    const res = await api(DEMO, 'mas/permission/teacher', { token })
    expect(res.status).toBe(200)
    const role = (await res.json()) as Record<string, unknown>
    expect(role).toMatchObject({ realm: 'demo', role: 'teacher', dashboard_dashboard_access: true, mas_realm_list_all: false })
    for (const meta of ['description', 'updated_at', 'updated_by']) expect(role).toHaveProperty(meta)
  })

  it('shows a student role without dashboard access', async () => {
    const token = await signIn(DEMO, 'demo', 'student')
    const role = (await (await api(DEMO, 'mas/permission/student', { token })).json()) as Record<string, unknown>
    expect(role.dashboard_dashboard_access).toBe(false)
  })

  it('keeps other roles behind mas_role_get', async () => {
    const teacher = await signIn(DEMO, 'demo', 'teacher')
    await expectEnvelope(await api(DEMO, 'mas/permission/root', { token: teacher }), 403, 'forbidden')
    const root = await signIn(DEMO, 'demo', 'root')
    expect((await api(DEMO, 'mas/permission/teacher', { token: root })).status).toBe(200)
  })

  it("refuses a demo token on escola's API", async () => {
    const token = await signIn(DEMO, 'demo', 'root')
    expect((await api(DEMO, 'mas/session', { token })).status).toBe(200)
    await expectEnvelope(await api(ESCOLA, 'mas/session', { token }), 401, 'realm')
    await expectEnvelope(await api('localhost', 'mas/session', { token, headers: { 'x-api-realm': 'escola' } }), 401, 'realm')
  })

  it('revokes the token on logout', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    expect((await api(DEMO, 'device', { method: 'DELETE', token })).status).toBe(204)
    await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401, 'unauthorized')
  })

  it('answers session_timeout for an expired session', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    await env.DB.prepare("UPDATE session SET expires_at = '2000-01-01T00:00:00.000Z' WHERE token_hash = ?")
      .bind(await sha256Hex(token))
      .run()
    await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401, 'session_timeout')
  })

  it('applies a permission change to the next request of a session', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    expect((await api(DEMO, 'mas/realm', { token })).status).toBe(200)
    await env.DB.prepare("DELETE FROM role_permission WHERE realm='demo' AND role='manager' AND permission='mas_realm_list'").run()
    await expectEnvelope(await api(DEMO, 'mas/realm', { token }), 403, 'forbidden')
    await env.DB.prepare("INSERT INTO role_permission (realm, role, permission) VALUES ('demo','manager','mas_realm_list')").run()
  })
})
