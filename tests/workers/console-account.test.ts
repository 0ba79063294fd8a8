import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import worker from '../../worker/index'
import { bytesToBase64Url, randomToken } from '../../worker/lib/crypto'
import { DEMO, ESCOLA, api, call, consoleSignIn, cookieValue } from './helpers'

vi.setConfig({ testTimeout: 30_000 })

function post(host: string, path: string, fields: Record<string, string>, cookie = '') {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  return call(host, path, { method: 'POST', body: form, headers: { origin: `http://${host}`, cookie } })
}

describe('password recovery pages', () => {
  it('requests a link with a neutral answer and shows it in the development outbox to a signed-in staff member', async () => {
    const res = await post(DEMO, '/authentication/recover', { intent: 'request', login: 'student' })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Se a conta existir')
    const cookie = await consoleSignIn(DEMO, 'teacher')
    const outbox = await (await call(DEMO, '/authentication/outbox', { headers: { cookie } })).text()
    expect(outbox).toContain('Redefinição de senha — Demo Academy')
    expect(outbox).toMatch(/href="http:\/\/demo\.localhost\/authentication\/recover\?key=[\w-]{43}"/)
  })

  it('shows the sign-in screen instead of the outbox to a visitor, and no mail', async () => {
    await post(DEMO, '/authentication/recover', { intent: 'request', login: 'student' })
    const res = await call(DEMO, '/authentication/outbox')
    expect(res.status).toBe(401)
    const html = await res.text()
    expect(html).not.toContain('Redefinição de senha')
    expect(html).not.toContain('/authentication/recover?key=')
    expect(html).toContain('name="password"')
  })

  it('has no outbox page when the Worker does not run in development mode', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    expect((await call(DEMO, '/authentication/outbox', { headers: { cookie } })).status).toBe(200)
    const ctx = createExecutionContext()
    const res = await worker.fetch(
      new Request(`http://${DEMO}/authentication/outbox`, { headers: { host: DEMO, cookie } }),
      { ...env, DEV_MODE: undefined },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('/authentication/recover?key=')
  })

  it('shows the reset form for a key and reports a key that does not work', async () => {
    const key = randomToken(32)
    const page = await (await call(DEMO, `/authentication/recover?key=${key}`)).text()
    expect(page).toContain('Criar uma nova senha')
    expect(page).toContain('autoComplete="new-password"')
    const res = await post(DEMO, `/authentication/recover?key=${key}`, { intent: 'reset', key, password: 'new-password-1', confirm: 'new-password-1' })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Link de recuperação não encontrado.')
    const mismatch = await post(DEMO, `/authentication/recover?key=${key}`, { intent: 'reset', key, password: 'new-password-1', confirm: 'new-password-2' })
    expect(mismatch.status).toBe(400)
    expect(await mismatch.text()).toContain('As senhas não coincidem.')
  })

  it('asks for a realm first on the multi-realm host, unless the link names it', async () => {
    expect(await (await call('localhost', '/authentication/recover')).text()).toContain('id="realm-code"')
    const named = await (await call('localhost', '/authentication/recover?realm=demo&key=abc')).text()
    expect(named).toContain('Criar uma nova senha')
  })
})

describe('OAuth2 consent at /oauth2/authorize', () => {
  const REDIRECT = 'http://localhost:8790/callback'
  async function query() {
    const verifier = randomToken(48)
    const challenge = bytesToBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
    const params = {
      client_id: 'demo-reports',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'profile email',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }
    return { verifier, params, qs: new URLSearchParams(params).toString() }
  }

  it('keeps the plain realm chooser without OAuth2 parameters', async () => {
    expect((await call(DEMO, '/oauth2/authorize')).headers.get('location')).toBe('/')
    expect(await (await call('localhost', '/oauth2/authorize')).text()).toContain('id="realm-code"')
  })

  it('asks to sign in first, returning to the request afterwards', async () => {
    const { qs } = await query()
    const html = await (await call(DEMO, `/oauth2/authorize?${qs}`)).text()
    expect(html).toContain('id="login-nick"')
    expect(html).toContain(`name="redirectTo" value="/oauth2/authorize?${qs.replace(/&/g, '&amp;')}"`)
  })

  it('lists what the application may do, and grants a code the application exchanges with its verifier', async () => {
    const cookie = await consoleSignIn(DEMO, 'manager')
    const { qs, params, verifier } = await query()
    const html = await (await call(DEMO, `/oauth2/authorize?${qs}`, { headers: { cookie } })).text()
    expect(html).toContain('Relatórios Demo quer acessar a sua conta')
    expect(html).toContain('Ver o seu nome, usuário e foto')
    expect(html).toContain('Ver o seu endereço de e-mail')
    expect(html).not.toContain('Ver o seu perfil e as suas permissões')
    const allow = await post(DEMO, `/oauth2/authorize?${qs}`, { ...params, intent: 'allow' }, cookie)
    expect(allow.status).toBe(302)
    const back = new URL(allow.headers.get('location')!)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe('s1')
    const token = await api(DEMO, 'mas/oauth2/token', {
      method: 'POST',
      json: {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code'),
        redirect_uri: REDIRECT,
        client_id: 'demo-reports',
        code_verifier: verifier,
      },
    })
    expect(token.status).toBe(200)
  })

  it('returns access_denied to the application when the user refuses', async () => {
    const cookie = await consoleSignIn(DEMO, 'manager')
    const { params, qs } = await query()
    const deny = await post(DEMO, `/oauth2/authorize?${qs}`, { ...params, intent: 'deny' }, cookie)
    expect(deny.headers.get('location')).toBe(`${REDIRECT}?error=access_denied&state=s1`)
  })

  it('shows invalid_request with field, cause and value, and never redirects to an unregistered address', async () => {
    const cookie = await consoleSignIn(DEMO, 'manager')
    const { params } = await query()
    const bad = new URLSearchParams({ ...params, redirect_uri: 'https://evil.example/cb' }).toString()
    const html = await (await call(DEMO, `/oauth2/authorize?${bad}`, { headers: { cookie } })).text()
    expect(html).toContain('Pedido de autorização inválido')
    expect(html).toContain('redirect_uri')
    expect(html).toContain('https://evil.example/cb')
    const deny = await post(DEMO, `/oauth2/authorize?${bad}`, { ...params, redirect_uri: 'https://evil.example/cb', intent: 'deny' }, cookie)
    expect(deny.status).toBe(400)
    expect(deny.headers.get('location')).toBeNull()
  })
})

/** The `name=value` of a cookie a response sets. */
function cookieFrom(res: Response, name: string): string {
  const found = new RegExp(`(?:__(?:Host|Secure)-)?${name}=[^;]+`).exec(res.headers.get('set-cookie') ?? '')
  expect(found, `${name} in ${res.headers.get('set-cookie')}`).not.toBeNull()
  return found![0]
}

/** The attributes of the cookie `name` a response sets (Path=…, HttpOnly, …). */
function attributes(res: Response, name: string): string[] {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  expect(line, name).toBeDefined()
  return line!.split('; ').slice(1)
}

/** A browser's GET of an absolute URL on `host`, with the cookies it holds for that host. */
function go(host: string, url: string, cookie = ''): Promise<Response> {
  const u = new URL(url)
  expect(u.host).toBe(host)
  return call(host, u.pathname + u.search, { headers: cookie ? { cookie } : {} })
}

describe('realm switch in the console', () => {
  it('shows the switch button only to users who list realms', async () => {
    const root = await consoleSignIn(DEMO, 'root')
    expect(await (await call(DEMO, '/', { headers: { cookie: root } })).text()).toContain('aria-haspopup="dialog"')
    const teacher = await consoleSignIn(DEMO, 'teacher')
    expect(await (await call(DEMO, '/', { headers: { cookie: teacher } })).text()).not.toContain('aria-haspopup="dialog"')
    expect((await call(DEMO, '/realm/change', { headers: { cookie: teacher } })).status).toBe(403)
  })

  it('lists the realms a user may switch to: a realm root its tree, the platform operator every realm', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const res = await call(DEMO, '/realm/change', { headers: { cookie } })
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).toContain('Demo Academy Sul')
    expect(body).not.toContain('Escola Estadual Modelo')
    const platform = await consoleSignIn(DEMO, 'platform')
    const every = await (await call(DEMO, '/realm/change', { headers: { cookie: platform } })).text()
    expect(every).toContain('Escola Estadual Modelo')
    expect(every).toContain('Demo Academy')
  })

  it('from a realm host: hands the session over to the target host in three legs bound to the browser, once', async () => {
    const cookie = await consoleSignIn(DEMO, 'platform')
    const res = await post(DEMO, '/realm/change', { realm: 'escola' }, cookie)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { ok: boolean; url: string; name: string }
    expect(body).toMatchObject({ ok: true, name: 'Escola Estadual Modelo' })
    expect(body.url).toMatch(/^http:\/\/escola\.localhost\/authentication\/handover\?code=[\w-]{43}$/)
    // The old host's session has ended: its console sends the browser to sign in.
    expect((await call(DEMO, '/', { headers: { cookie } })).headers.get('location')).toBe('/login')
    // (a) The starting host keeps the state in an httpOnly cookie for the handover routes only.
    const state = cookieFrom(res, 'dash_handover_state')
    expect(attributes(res, 'dash_handover_state')).toEqual(expect.arrayContaining(['Path=/authentication/handover', 'HttpOnly', 'SameSite=Lax']))
    // (b) The target host binds a nonce of its own and sends the browser back to the starting host to vouch for it.
    const arrive = await go(ESCOLA, body.url)
    expect(arrive.status).toBe(302)
    const confirmUrl = arrive.headers.get('location')!
    expect(confirmUrl).toMatch(/^http:\/\/demo\.localhost\/authentication\/handover\/confirm\?code=[\w-]{43}&nonce_hash=[0-9a-f]{64}$/)
    const nonce = cookieFrom(arrive, 'dash_handover_nonce')
    expect(attributes(arrive, 'dash_handover_nonce')).toEqual(expect.arrayContaining(['Path=/authentication/handover', 'HttpOnly', 'SameSite=Lax']))
    expect(arrive.headers.get('set-cookie')).not.toContain('dash_session')
    // (c) The starting host finds its state, confirms, and forgets the state.
    const confirmed = await go(DEMO, confirmUrl, state)
    expect(confirmed.status).toBe(302)
    const claimUrl = confirmed.headers.get('location')!
    expect(claimUrl).toBe(`${body.url}&step=claim`)
    expect(confirmed.headers.get('set-cookie')).toMatch(/dash_handover_state=; Max-Age=0/)
    // (d) The target host claims with its nonce: the session cookie, and the nonce forgotten.
    const claimed = await go(ESCOLA, claimUrl, nonce)
    expect(claimed.status).toBe(302)
    expect(claimed.headers.get('location')).toBe('/')
    expect(claimed.headers.get('set-cookie')).toMatch(/dash_handover_nonce=; Max-Age=0/)
    const escolaCookie = cookieFrom(claimed, 'dash_session')
    const html = await (await call(ESCOLA, '/', { headers: { cookie: escolaCookie } })).text()
    expect(html).toContain('Operadora da Plataforma')
    expect(html).toContain('Escola Estadual Modelo')
    // Replayed, at any leg, the code does nothing more.
    for (const [host, url, with_] of [
      [ESCOLA, claimUrl, nonce],
      [ESCOLA, body.url, ''],
      [DEMO, confirmUrl, state],
    ] as const) {
      const again = await go(host, url, with_)
      expect(again.status).toBeGreaterThanOrEqual(400)
      expect(again.status).toBeLessThan(500)
      expect(again.headers.get('set-cookie') ?? '').not.toMatch(/dash_session=[^;]/)
      expect(await again.text()).toContain('Este link de troca de domínio não é mais válido.')
    }
  })

  it('refuses a handover started by someone else: the victim’s starting host has no state for it', async () => {
    // The attacker starts a switch in their own browser and sends the link to the victim.
    const attacker = await consoleSignIn(DEMO, 'platform')
    const started = await post(DEMO, '/realm/change', { realm: 'escola' }, attacker)
    const { url } = (await started.json()) as { url: string }
    // The victim's browser (no cookies of this flow) follows it: the target host sends it to the starting host…
    const arrive = await go(ESCOLA, url)
    expect(arrive.status).toBe(302)
    const victimNonce = cookieFrom(arrive, 'dash_handover_nonce')
    // …which has no state for this browser: refused there (c).
    const confirm = await go(DEMO, arrive.headers.get('location')!)
    expect(confirm.status).toBe(400)
    expect(await confirm.text()).toContain('Este link de troca de domínio não é mais válido.')
    // Going straight to the claim leg with the victim's own nonce does not sign the victim in either.
    const claim = await go(ESCOLA, `${url}&step=claim`, victimNonce)
    expect(claim.status).toBeGreaterThanOrEqual(400)
    expect(claim.headers.get('set-cookie') ?? '').not.toMatch(/dash_session=[^;]/)
  })

  it('refuses a claim link from someone else’s browser: the victim’s target host has no nonce for it', async () => {
    // The attacker runs the first three legs in their own browser and sends the victim the claim link (d).
    const attacker = await consoleSignIn(DEMO, 'platform')
    const started = await post(DEMO, '/realm/change', { realm: 'escola' }, attacker)
    const { url } = (await started.json()) as { url: string }
    const arrive = await go(ESCOLA, url)
    const confirmed = await go(DEMO, arrive.headers.get('location')!, cookieFrom(started, 'dash_handover_state'))
    expect(confirmed.status).toBe(302)
    const claimUrl = confirmed.headers.get('location')!
    const victim = await go(ESCOLA, claimUrl)
    expect(victim.status).toBe(400)
    expect(victim.headers.get('set-cookie') ?? '').not.toMatch(/dash_session=[^;]/)
    // A nonce cookie of another handover (the victim's own earlier one) does not fit either.
    const other = await go(ESCOLA, claimUrl, `dash_handover_nonce=${cookieValue('x'.repeat(43))}`)
    expect(other.status).toBeGreaterThanOrEqual(400)
    expect(other.headers.get('set-cookie') ?? '').not.toMatch(/dash_session=[^;]/)
  })

  it('on the multi-realm host: switches the chosen realm and the session in place', async () => {
    const realmCookie = `dash_realm=${cookieValue('demo')}`
    const cookie = await consoleSignIn('localhost', 'platform', 'demo1234', realmCookie)
    const res = await post('localhost', '/realm/change', { realm: 'escola' }, cookie)
    const body = (await res.json()) as { ok: boolean; url: string }
    expect(body).toMatchObject({ ok: true, url: '/' })
    const cookies = res.headers.get('set-cookie') ?? ''
    expect(cookies).toContain(`dash_realm=${cookieValue('escola')}`)
    const next = `dash_realm=${cookieValue('escola')}; ${/dash_session=[^;]+/.exec(cookies)![0]}`
    expect(await (await call('localhost', '/', { headers: { cookie: next } })).text()).toContain('Escola Estadual Modelo')
  })

  it('refuses a realm outside the user’s tree, changing nothing', async () => {
    await env.DB.prepare("INSERT INTO realm (code, name) VALUES ('outra', 'Outra Rede')").run()
    await env.DB.prepare("INSERT INTO realm_host (host, realm) VALUES ('outra.localhost', 'outra')").run()
    const cookie = await consoleSignIn(DEMO, 'manager')
    const res = await post(DEMO, '/realm/change', { realm: 'outra' }, cookie)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ ok: false, error: 'realm.switch.forbidden' })
    expect((await call(DEMO, '/', { headers: { cookie } })).status).toBe(200)
  })
})
