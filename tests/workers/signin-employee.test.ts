import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { employeeId } from '#shared/schemas/auth'
import { sha256Hex } from '../../worker/lib/crypto'
import { mintPortalToken } from '../../worker/lib/state-portal'
import { DEMO_EMPLOYEES, DEMO_PORTAL_SECRET } from '../../worker/seed/demo'
import { DEMO, ESCOLA, api, expectEnvelope } from './helpers'
import { newSessionKey, randomIp, solveCaptcha } from './signin-helpers'

// Each sign-in hashes a password (600,000 PBKDF2 iterations) and some solve a proof of work: slower than the default 5 s.
vi.setConfig({ testTimeout: 30_000 })

/** A sign-in call from one client address, with a freshly solved captcha (escola requires one on every sign-in). */
async function withCaptcha(path: string, json: Record<string, unknown>, ip = randomIp(), realm = 'escola', host = ESCOLA) {
  const key = newSessionKey()
  const token = await solveCaptcha(host, realm, key)
  return api(host, path, { method: 'POST', json, headers: { 'x-captcha-token': token, 'x-session-key': key, 'cf-connecting-ip': ip } })
}

describe('employee id', () => {
  it('normalises type, number and state: uppercase, letters and digits only, rne without state', () => {
    expect(employeeId('rg', '12.345.678-9', 'SP')).toBe('RG123456789SP')
    expect(employeeId('cin', '987.654.321-00', 'mg')).toBe('CIN98765432100MG')
    expect(employeeId('rne', 'v123456-7', '-')).toBe('RNEV1234567')
    for (const e of DEMO_EMPLOYEES) expect(employeeId(e.doc_type, e.doc_number, e.uf)).toBe(e.id)
  })
})

describe('POST /registration/edusp (employee sign-in)', () => {
  it.each(DEMO_EMPLOYEES)('signs in $nick with their document and password', async (e) => {
    // escola's allowed_roles keep its teacher out of the console (tests/workers/realm-rules.test.ts): the teacher
    // signs in to the mobile app.
    const platform = e.nick === 'professor@escola' ? 'mobile' : 'dashboard'
    const res = await withCaptcha('registration/edusp', { realm: 'escola', id: e.id, password: 'demo1234', platform })
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({ nick: e.nick, realm: 'escola' })
    expect(typeof body.auth_token).toBe('string')
    expect((await api(ESCOLA, 'mas/session', { token: String(body.auth_token) })).status).toBe(200)
  })

  it('normalises the id the client sends', async () => {
    const res = await withCaptcha('registration/edusp', { realm: 'escola', id: 'rg 12.345.678-9 sp', password: 'demo1234' })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { nick: string }).nick).toBe('gestora@escola')
  })

  it('refuses a wrong password or an unknown document with the credentials error', async () => {
    await expectEnvelope(await withCaptcha('registration/edusp', { realm: 'escola', id: 'RG123456789SP', password: 'wrong-pass' }), 401, 'credentials')
    await expectEnvelope(await withCaptcha('registration/edusp', { realm: 'escola', id: 'RG000000000SP', password: 'demo1234' }), 401, 'credentials')
  })

  it('validates the id and password, changing nothing', async () => {
    const body = await expectEnvelope(await withCaptcha('registration/edusp', { realm: 'escola', id: '1', password: 'x' }), 400)
    expect(body.errors.map((e) => e.field).sort()).toEqual(['id', 'password'])
  })

  it('requires a captcha when the realm enables it, and each captcha token serves once', async () => {
    const json = { realm: 'escola', id: 'RG123456789SP', password: 'demo1234' }
    const missing = await expectEnvelope(
      await api(ESCOLA, 'registration/edusp', { method: 'POST', json, headers: { 'cf-connecting-ip': randomIp() } }),
      400,
      'captcha_required',
    )
    expect(missing.errors[0].field).toBe('x-captcha-token')
    const key = newSessionKey()
    const token = await solveCaptcha(ESCOLA, 'escola', key)
    const headers = { 'x-captcha-token': token, 'x-session-key': key, 'cf-connecting-ip': randomIp() }
    expect((await api(ESCOLA, 'registration/edusp', { method: 'POST', json, headers })).status).toBe(200)
    await expectEnvelope(await api(ESCOLA, 'registration/edusp', { method: 'POST', json, headers }), 400, 'captcha_invalid')
  })

  it('refuses a captcha token of another visitor or one that expired', async () => {
    const json = { realm: 'escola', id: 'RG123456789SP', password: 'demo1234' }
    const key = newSessionKey()
    const token = await solveCaptcha(ESCOLA, 'escola', key)
    const other = { 'x-captcha-token': token, 'x-session-key': newSessionKey(), 'cf-connecting-ip': randomIp() }
    await expectEnvelope(await api(ESCOLA, 'registration/edusp', { method: 'POST', json, headers: other }), 400, 'captcha_invalid')
    await env.DB.prepare("UPDATE captcha_token SET expires_at = '2000-01-01T00:00:00.000Z' WHERE token_hash = ?")
      .bind(await sha256Hex(token))
      .run()
    const mine = { 'x-captcha-token': token, 'x-session-key': key, 'cf-connecting-ip': randomIp() }
    await expectEnvelope(await api(ESCOLA, 'registration/edusp', { method: 'POST', json, headers: mine }), 400, 'captcha_invalid')
  })

  it('is refused where the realm does not allow employee sign-in', async () => {
    await expectEnvelope(
      await api(DEMO, 'registration/edusp', { method: 'POST', json: { realm: 'demo', id: 'RG123456789SP', password: 'demo1234' } }),
      403,
      'provider_not_allowed',
    )
  })
})

describe('POST /registration/edusp/token (employee-token sign-in)', () => {
  const mint = (id = 'RG123456789SP', ttl = 600, realm = 'escola', secret = DEMO_PORTAL_SECRET) => mintPortalToken(secret, realm, id, ttl)

  it('signs in the employee the state portal vouches for, once per token', async () => {
    const token = await mint()
    const res = await withCaptcha('registration/edusp/token', { realm: 'escola', token, platform: 'dashboard' })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { nick: string }).nick).toBe('gestora@escola')
    await expectEnvelope(await withCaptcha('registration/edusp/token', { realm: 'escola', token }), 401, 'token_used')
  })

  it('refuses expired, forged, other-realm and unknown-employee tokens', async () => {
    await expectEnvelope(await withCaptcha('registration/edusp/token', { realm: 'escola', token: await mint('RG123456789SP', -10) }), 401, 'token_expired')
    await expectEnvelope(
      await withCaptcha('registration/edusp/token', { realm: 'escola', token: await mint('RG123456789SP', 600, 'escola', 'another-secret') }),
      401,
      'token_invalid',
    )
    await expectEnvelope(
      await withCaptcha('registration/edusp/token', { realm: 'escola', token: await mint('RG123456789SP', 600, 'demo') }),
      401,
      'token_invalid',
    )
    const good = await mint()
    const [head, payload, sig] = good.split('.')
    const tampered = `${head}.${payload.slice(0, -2)}${payload.endsWith('AA') ? 'BB' : 'AA'}.${sig}`
    await expectEnvelope(await withCaptcha('registration/edusp/token', { realm: 'escola', token: tampered }), 401, 'token_invalid')
    await expectEnvelope(await withCaptcha('registration/edusp/token', { realm: 'escola', token: await mint('RG999SP') }), 401, 'credentials')
  })

  it('is also served by POST /mas/registration with provider employee_token', async () => {
    const res = await withCaptcha('mas/registration', { realm: 'escola', token: await mint('RNEV1234567'), provider: 'employee_token' })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { nick: string }).nick).toBe('coordenadora@escola')
  })

  it('reports the provider unavailable when the realm has no portal configured', async () => {
    await env.DB.prepare("UPDATE realm SET employee_token_secret = '' WHERE code = 'escola'").run()
    try {
      await expectEnvelope(await withCaptcha('registration/edusp/token', { realm: 'escola', token: await mint() }), 503, 'provider_unavailable')
    } finally {
      await env.DB.prepare('UPDATE realm SET employee_token_secret = ? WHERE code = ?').bind(DEMO_PORTAL_SECRET, 'escola').run()
    }
  })
})
