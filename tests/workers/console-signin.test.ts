import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { pairKey } from '../../worker/db/throttle'
import { sha256Hex } from '../../worker/lib/crypto'
import { mintPortalToken } from '../../worker/lib/state-portal'
import { DEMO_PORTAL_SECRET } from '../../worker/seed/demo'
import { DEMO, ESCOLA, call, consoleSignIn, cookieValue } from './helpers'
import { googleIdToken, newSessionKey, randomIp, rendered, solveCaptcha } from './signin-helpers'

// Sign-ins hash passwords and escola's solve a proof of work: slower than the default 5 s.
vi.setConfig({ testTimeout: 30_000 })

function post(host: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  return call(host, path, { method: 'POST', body: form, headers: { origin: `http://${host}`, 'cf-connecting-ip': randomIp(), ...headers } })
}

async function captchaFields(host = ESCOLA, realm = 'escola'): Promise<Record<string, string>> {
  const key = newSessionKey()
  return { captcha_token: await solveCaptcha(host, realm, key), session_key: key }
}

const sessionOf = (res: Response) => /dash_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0]

describe('the sign-in screen of each realm', () => {
  it('shows demo the username form at once, with the Google button and no tabs', async () => {
    const html = await (await call(DEMO, '/login')).text()
    expect(html).toContain('id="login-nick"')
    expect(html).toContain('Entrar com Google')
    expect(html).not.toContain('role="tablist"')
    expect(html).toContain('href="/authentication/recover"')
  })

  it('shows escola the employee and access-code tabs, the TV-provider tab hidden, and the captcha', async () => {
    const html = await (await call(ESCOLA, '/login')).text()
    expect(html).toContain('role="tablist"')
    expect(html).toMatch(/role="tab"[^>]*>Servidor</)
    expect(html).toMatch(/role="tab"[^>]*>Código de acesso</)
    // The TV-provider tab waits hidden (its panel in a template) for the 10th click on the logo.
    expect(html).toMatch(/<button[^>]*role="tab"[^>]*hidden=""[^>]*>Provedor de TV</)
    expect(html).not.toMatch(/<button[^>]*role="tab"(?![^>]*hidden="")[^>]*>Provedor de TV</)
    expect(html).toContain('id="employee-doc-number"')
    expect(html).toContain('data-captcha-state')
    expect(html).not.toContain('Entrar com Google')
  })
})

describe('POST /login, every method', () => {
  it('signs an employee in from the employee form, with a captcha', async () => {
    const res = await post(ESCOLA, '/login', {
      intent: 'employee',
      doc_type: 'rg',
      doc_number: '12.345.678-9',
      uf: 'SP',
      password: 'demo1234',
      redirectTo: '/',
      ...(await captchaFields()),
    })
    expect(res.status, await res.clone().text()).toBe(302)
    const cookie = sessionOf(res)!
    expect(await (await call(ESCOLA, '/', { headers: { cookie } })).text()).toContain('Beatriz Gestora')
  })

  it('keeps the employee form rules on the server too', async () => {
    const res = await post(ESCOLA, '/login', { intent: 'employee', doc_type: 'rg', doc_number: '1', uf: '-', password: 'x' })
    expect(res.status).toBe(400)
    const body = await res.text()
    for (const key of ['validation.document_length', 'validation.uf_required', 'validation.password_length']) expect(body).toContain(rendered(key))
    // What was typed comes back (never the password).
    expect(body).toMatch(/id="employee-doc-number"[^>]*value="1"/)
    expect(body).not.toMatch(/value="x"/)
  })

  it('asks for the captcha where the realm requires it', async () => {
    const res = await post(ESCOLA, '/login', { intent: 'employee', doc_type: 'rne', doc_number: 'V123456-7', uf: '-', password: 'demo1234' })
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(body).toContain(rendered('captcha.error.required'))
    expect(body).toContain('name="captcha_token"')
  })

  it('signs in with an access code of the state portal', async () => {
    const token = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', 'RNEV1234567', 600)
    const res = await post(ESCOLA, '/login', { intent: 'employee_token', token, ...(await captchaFields()) })
    expect(res.status, await res.clone().text()).toBe(302)
  })

  it("refuses a role the realm's allowed_roles leaves out of the console, with a message that says so", async () => {
    // escola admits manager, root, support and admin; professor@escola is a teacher.
    const token = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', 'CIN98765432100MG', 600)
    const res = await post(ESCOLA, '/login', { intent: 'employee_token', token, ...(await captchaFields()) })
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/dash_session=[^;]/)
    expect(await res.text()).toContain(rendered('login.msg.error.role_not_allowed'))
  })

  it('signs in from a token link, and answers the token credentials error for a bad one', async () => {
    const token = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', 'RG123456789SP', 600)
    const ok = await post('localhost', '/login', {
      intent: 'token',
      token,
      provider: 'employee_token',
      realm: 'escola',
      redirectTo: '/',
      ...(await captchaFields('localhost')),
    })
    expect(ok.status, await ok.clone().text()).toBe(302)
    expect(ok.headers.get('set-cookie')).toMatch(/dash_realm=/)
    const bad = await post(ESCOLA, '/login', { intent: 'token', token, provider: 'employee_token', ...(await captchaFields()) })
    expect(bad.status).toBe(401)
    expect(await bad.text()).toContain(rendered('login.msg.error.credentials.token'))
    const notAllowed = await post(DEMO, '/login', { intent: 'token', token, provider: 'employee_token' })
    expect(await notAllowed.text()).toContain(rendered('login.msg.error.credentials.token'))
  })

  it('renders the token-login view for a link whose provider the realm allows', async () => {
    const token = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', 'RG123456789SP', 600)
    // The link names the console's home; the console sends it on to the sign-in page, parameters included.
    const sent = await call(ESCOLA, `/?token=${token}&provider=employee_token&realm=escola`)
    expect(sent.headers.get('location')).toBe(`/login?token=${token}&provider=employee_token&realm=escola`)
    const html = await (await call(ESCOLA, sent.headers.get('location')!)).text()
    expect(html).toContain('Entrando com o seu link de acesso…')
    expect(html).toContain('name="intent" value="token"')
    const ignored = await (await call(DEMO, `/login?token=${token}&provider=employee_token`)).text()
    expect(ignored).not.toContain('Entrando com o seu link de acesso…')
  })

  it('signs in with Google: the nonce of the popup must match the id_token', async () => {
    const nonce = 'nonce-of-this-popup-0123456789'
    const { id_token } = await googleIdToken(env.GOOGLE_ISSUER, '1001', { nonce })
    const cookie = `dash_g_nonce=${cookieValue(nonce)}`
    const res = await post(DEMO, '/login', { intent: 'google', id_token: id_token!, redirectTo: '/' }, { cookie })
    expect(res.status, await res.clone().text()).toBe(302)
    expect(res.headers.get('set-cookie')).toMatch(/dash_g_nonce=;/)
    const other = await post(DEMO, '/login', { intent: 'google', id_token: id_token! }, { cookie: `dash_g_nonce=${cookieValue('another-nonce-0123456789')}` })
    expect(other.status).toBe(401)
    expect(await other.text()).toContain(rendered('login.msg.error.google.invalid'))
    const none = await post(DEMO, '/login', { intent: 'google', id_token: id_token! })
    expect(await none.text()).toContain(rendered('login.msg.error.google.invalid'))
  })

  it('maps Google refusals to their messages', async () => {
    const nonce = 'nonce-of-this-popup-9876543210'
    const cookie = `dash_g_nonce=${cookieValue(nonce)}`
    const expectMessage = async (sub: string, key: string) => {
      const { id_token } = await googleIdToken(env.GOOGLE_ISSUER, sub, { nonce })
      expect(await (await post(DEMO, '/login', { intent: 'google', id_token: id_token! }, { cookie })).text()).toContain(rendered(key))
    }
    await expectMessage('1004', 'login.msg.error.google.not_allowed')
    await expectMessage('1005', 'login.msg.error.google.email')
    // A student is created by domain, then refused the console like any student.
    await expectMessage('1003', 'login.msg.error.403')
  })

  it('tells how long to wait while an account is delayed from this address, offering the captcha that skips the wait', async () => {
    const ip = randomIp()
    const key = await pairKey('teacher@demo', ip)
    await env.DB.prepare("INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'pair', ?, 4, ?)")
      .bind(key, new Date().toISOString())
      .run()
    const res = await post(DEMO, '/login', { nick: 'teacher', password: 'demo1234' }, { 'cf-connecting-ip': ip })
    expect(res.status).toBe(429)
    const body = await res.text()
    expect(body).toMatch(/Muitas tentativas sem sucesso\. Tente novamente em \d+ segundos\./)
    // The form shows the captcha from now on (set only when the API answers captcha_required; demo asks for none).
    expect(body).toContain('name="captcha_token"')
    expect((await (await call(DEMO, '/login')).text()).includes('name="captcha_token"')).toBe(false)
    const solved = await post(
      DEMO,
      '/login',
      { nick: 'teacher', password: 'demo1234', redirectTo: '/', ...(await captchaFields(DEMO, 'demo')) },
      { 'cf-connecting-ip': ip },
    )
    expect(solved.status, await solved.clone().text()).toBe(302)
  })
})

describe('Google popup pages', () => {
  it('sends the popup to the issuer with client id, callback, nonce and state, remembering the nonce', async () => {
    const res = await call(DEMO, '/authentication/google?state=0123456789abcdef0123')
    expect(res.status).toBe(302)
    const target = new URL(res.headers.get('location')!)
    expect(`${target.origin}${target.pathname}`).toBe(`${env.GOOGLE_ISSUER}/authorize`)
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      client_id: 'demo-console.apps.googleusercontent.com',
      redirect_uri: 'http://demo.localhost/authentication/google/callback',
      response_type: 'id_token',
      state: '0123456789abcdef0123',
    })
    expect(res.headers.get('set-cookie')).toContain(`dash_g_nonce=${cookieValue(target.searchParams.get('nonce'))}`)
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i)
  })

  it('reports the provider unavailable where Google is not allowed', async () => {
    const res = await call(ESCOLA, '/authentication/google?state=0123456789abcdef0123')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('unavailable')
  })

  it('serves the callback page that hands the fragment to the opener', async () => {
    const res = await call(DEMO, '/authentication/google/callback')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Concluindo a entrada com Google…')
  })
})

describe('session timeout in the console', () => {
  it('signs out automatically with the session-expired warning', async () => {
    const cookie = await consoleSignIn(DEMO, 'manager')
    const token = JSON.parse(atob(decodeURIComponent(/dash_session=([^;]+)/.exec(cookie)![1]))) as string
    await env.DB.prepare('UPDATE session SET last_seen_at = ? WHERE token_hash = ?')
      .bind(new Date(Date.now() - 31 * 60_000).toISOString(), await sha256Hex(token))
      .run()
    const sent = await call(DEMO, '/realm', { headers: { cookie } })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe('/login?redirectTo=%2Frealm&reason=session_timeout')
    expect(sent.headers.get('set-cookie')).toMatch(/dash_session=;.*Max-Age=0/)
    const res = await call(DEMO, sent.headers.get('location')!)
    expect(await res.text()).toContain('A sua sessão expirou. Entre novamente.')
  })

  it('sets the session cookie to live as long as the session', async () => {
    const res = await post(DEMO, '/login', { nick: 'root', password: 'demo1234' })
    const maxAge = Number(/Max-Age=(\d+)/.exec(res.headers.get('set-cookie') ?? '')?.[1])
    expect(maxAge).toBeGreaterThan(12 * 3600 - 120)
    expect(maxAge).toBeLessThanOrEqual(12 * 3600)
  })
})

describe('POST /login validation', () => {
  it('refuses an unknown sign-in method with the 400 message, calling nothing', async () => {
    const res = await post(DEMO, '/login', { intent: 'telepathy', nick: 'root', password: 'demo1234' })
    expect(res.status).toBe(400)
    expect(res.headers.get('set-cookie')).toBeNull()
  })
})
