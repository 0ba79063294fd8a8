import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../worker/lib/crypto'
import { DEMO, call, consoleSignIn, cookieValue } from './helpers'
import { rendered } from './signin-helpers'

const post = (host: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  return call(host, path, { method: 'POST', body: form, headers: { origin: `http://${host}`, ...headers } })
}

describe('realm selection on a multi-realm host', () => {
  it('shows the realm chooser on localhost until a realm is chosen', async () => {
    const first = await call('localhost', '/')
    expect(first.headers.get('location')).toBe('/login')
    const html = await (await call('localhost', '/login')).text()
    expect(html).toContain('id="realm-code"')
    expect(html).not.toContain('id="login-nick"')
  })

  it('chooses a realm, then shows its sign-in with its branding', async () => {
    const res = await post('localhost', '/oauth2/authorize', { intent: 'select', realm: 'demo' })
    expect(res.status).toBe(302)
    const cookie = /dash_realm=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0]
    const html = await (await call('localhost', '/login', { headers: { cookie } })).text()
    expect(html).toContain('id="login-nick"')
    expect(html).toContain('/brand/demo-logo.svg')
    expect(html).toContain('<link rel="icon" href="/brand/demo-favicon.svg"/>')
    expect(html).toContain('/brand/demo-terms.html')
    expect(html).toContain('/brand/demo-privacy.html')
    expect(html).toContain('Trocar de domínio')
  })

  it('marks the field when the code breaks the realm-code rule', async () => {
    const res = await post('localhost', '/oauth2/authorize', { intent: 'select', realm: '-bad-' })
    expect(res.status).toBe(400)
  })

  it('says the realm code was not found (not a server failure) for an unknown realm', async () => {
    const res = await post('localhost', '/oauth2/authorize', { intent: 'select', realm: 'nowhere' })
    expect(res.status).toBe(404)
    const body = await res.text()
    expect(body).toContain('realm.error.not_found')
    expect(body).toContain('nowhere')
    expect(body).not.toContain('realm.error.load')
  })

  it('forgets the chosen realm with the change-realm button', async () => {
    const res = await post('localhost', '/oauth2/authorize', { intent: 'reset' }, { cookie: `dash_realm=${cookieValue('demo')}` })
    expect(res.status).toBe(302)
    expect(res.headers.get('set-cookie')).toMatch(/dash_realm=;.*Max-Age=0/)
  })

  it('has no chooser on a host bound to one realm', async () => {
    const res = await call(DEMO, '/oauth2/authorize')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
  })
})

describe('sign-in page and the requested path', () => {
  it('sends a protected page to the sign-in page, keeping the path to return to', async () => {
    const sent = await call(DEMO, '/realm?like=dem')
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe('/login?redirectTo=%2Frealm%3Flike%3Ddem')
    const res = await call(DEMO, sent.headers.get('location')!)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('autoComplete="username"')
    expect(html).toContain('autoComplete="current-password"')
    expect(html).toContain('name="redirectTo" value="/realm?like=dem"')
    expect(html).toMatch(/<title>[^<]*Demo Academy<\/title>/)
  })

  it('signs in, sets an httpOnly SameSite cookie and returns to the requested path', async () => {
    const res = await post(DEMO, '/login', { nick: 'root', password: 'demo1234', redirectTo: '/realm' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/realm')
    const setCookie = res.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/^dash_session=/)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
  })

  it('uses a Secure __Host- cookie outside localhost', async () => {
    await env.DB.prepare("INSERT OR IGNORE INTO realm_host (host, realm) VALUES ('console.demo.example', 'demo')").run()
    const form = new FormData()
    form.set('nick', 'root')
    form.set('password', 'demo1234')
    const res = await call('console.demo.example', '/login', { method: 'POST', body: form, headers: { origin: 'http://console.demo.example' } })
    expect(res.status).toBe(302)
    const setCookie = res.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/^__Host-dash_session=/)
    expect(setCookie).toMatch(/Secure/)
    expect(setCookie).toMatch(/Path=\//)
  })

  it('never redirects off-site after sign-in', async () => {
    const res = await post(DEMO, '/login', { nick: 'root', password: 'demo1234', redirectTo: '//evil.example/x' })
    expect(res.headers.get('location')).toBe('/')
  })

  it('shows the credentials error for a wrong password', async () => {
    const res = await post(DEMO, '/login', { nick: 'root', password: 'wrong-one' })
    expect(res.status).toBe(401)
    expect(await res.text()).toContain(rendered('login.msg.error.credentials'))
  })

  it('blocks too-short fields before calling the API', async () => {
    const res = await post(DEMO, '/login', { nick: 'r', password: 'x' })
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(body).toContain(rendered('validation.username_length'))
    expect(body).toContain(rendered('validation.password_length'))
  })

  it('refuses a student (no dashboard access) with login.msg.error.403 and leaves no live session', async () => {
    const res = await post(DEMO, '/login', { nick: 'student', password: 'demo1234' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain(rendered('login.msg.error.403'))
    expect(res.headers.get('set-cookie')).toBeNull()
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM session WHERE nick = 'student@demo' AND revoked_at IS NULL").first<{ n: number }>()
    expect(live?.n).toBe(0)
  })

  it('refuses cross-site form posts (CSRF)', async () => {
    const res = await post(DEMO, '/login', { nick: 'root', password: 'demo1234' }, { origin: 'http://evil.example' })
    expect(res.status).toBe(403)
    const noOrigin = new FormData()
    noOrigin.set('nick', 'root')
    const res2 = await call(DEMO, '/logout', { method: 'POST', body: noOrigin, headers: { 'sec-fetch-site': 'cross-site' } })
    expect(res2.status).toBe(403)
  })
})

describe('the console after sign-in', () => {
  it('renders the shell with the overview at /', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const res = await call(DEMO, '/', { headers: { cookie } })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('class="sidebar"')
    expect(html).toContain('href="/realm"')
    expect(html).toMatch(/Bom dia|Boa tarde|Boa noite/)
  })

  it("renders a closed sidebar section's list without its links, and the open section's links (the current page's)", async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const home = await (await call(DEMO, '/', { headers: { cookie } })).text()
    expect(home).toContain('aria-expanded="false" aria-controls="nav-realm"')
    expect(home).toContain('<ul id="nav-realm" class="nav-sub" hidden=""></ul>')
    const roles = await (await call(DEMO, '/realm/role', { headers: { cookie } })).text()
    expect(roles).toContain('aria-expanded="true" aria-controls="nav-realm"')
    const open = /<ul id="nav-realm" class="nav-sub">(.*?)<\/ul>/.exec(roles)?.[1] ?? ''
    expect(open).toContain('href="/realm/role"')
    expect(open).toContain('href="/realm"')
    expect(open).toMatch(/aria-current="page"[^>]*href="\/realm\/role"|href="\/realm\/role"[^>]*aria-current="page"/)
  })

  it('hides the realm list from a role without it, and sends a deep link to /notfound', async () => {
    const cookie = await consoleSignIn(DEMO, 'teacher')
    const html = await (await call(DEMO, '/', { headers: { cookie } })).text()
    expect(html).not.toContain('href="/realm"')
    const res = await call(DEMO, '/realm', { headers: { cookie } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/notfound?path=%2Frealm')
  })

  it('says inside the shell which page was refused, what is missing, and links back to the referring page', async () => {
    const cookie = await consoleSignIn(DEMO, 'teacher')
    const sent = await call(DEMO, '/realm/role', { headers: { cookie, referer: `http://${DEMO}/tms/model?page=2` } })
    const location = sent.headers.get('location') ?? ''
    expect(location).toBe('/notfound?path=%2Frealm%2Frole&from=%2Ftms%2Fmodel%3Fpage%3D2')
    const res = await call(DEMO, location, { headers: { cookie } })
    expect(res.status).toBe(403)
    const html = await res.text()
    expect(html).toMatch(/<h1 id="access-denied-title">Você não tem acesso a esta página<\/h1>/)
    expect(html).not.toMatch(/<h1>Você está perdido/)
    expect(html).toContain('class="sidebar') // the shell stays
    expect(html).toContain('Perfis de acesso: listar') // the missing permission, by its label
    expect(html).toContain('mas_role_list')
    expect(html).toContain('href="/tms/model?page=2"')
    // A Referer from another site names no page to go back to; a foreign from= is ignored.
    const foreign = await call(DEMO, '/realm/role', { headers: { cookie, referer: 'https://evil.example/x' } })
    expect(foreign.headers.get('location')).toBe('/notfound?path=%2Frealm%2Frole')
    expect(await (await call(DEMO, '/notfound?path=%2Frealm%2Frole&from=%2F%2Fevil.example', { headers: { cookie } })).text()).not.toContain(
      'href="//evil.example"',
    )
  })

  it('answers an unknown record with "not found" (404) inside the shell, not a failure to retry', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    for (const path of ['/user/edit/nobody-here', '/room/edit/no-such-room', '/tms/model/edit/no-such-model']) {
      const res = await call(DEMO, path, { headers: { cookie } })
      expect(res.status, path).toBe(404)
      const html = await res.text()
      expect(html, path).toContain('Registro não encontrado')
      expect(html, path).not.toContain('Algo deu errado')
    }
  })

  it('lists realms with paging, search and sorting through the shared table', async () => {
    // Every realm (demo's tree and escola) is listed to the platform operator only.
    const cookie = await consoleSignIn(DEMO, 'platform')
    const body = async (path: string) => /<tbody>(.*)<\/tbody>/s.exec(await (await call(DEMO, path, { headers: { cookie } })).text())![1]
    const descending = await body('/realm?order=-code')
    expect(descending.indexOf('>escola<')).toBeGreaterThan(-1)
    expect(descending.indexOf('>escola<')).toBeLessThan(descending.indexOf('>demo<'))
    const ascending = await body('/realm?order=code')
    expect(ascending.indexOf('>demo<')).toBeLessThan(ascending.indexOf('>escola<'))
    const filtered = await body('/realm?like=escola')
    expect(filtered).toContain('Escola Estadual Modelo')
    expect(filtered).not.toContain('Demo Academy')
  })

  it('reads a date filter typed in the page language (dd/mm/aaaa) and shows it back in that format', async () => {
    const cookie = await consoleSignIn(DEMO, 'platform')
    const page = async (path: string) => (await call(DEMO, path, { headers: { cookie } })).text()
    const pad = (n: number) => String(n).padStart(2, '0')
    const d = new Date(Date.now() + 2 * 86_400_000)
    const later = `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`
    const since2020 = await page('/realm?created_at_from=01/01/2020')
    expect(since2020).toContain('Escola Estadual Modelo')
    expect(since2020).toContain('value="01/01/2020"')
    expect(since2020).toContain('placeholder="dd/mm/aaaa"')
    // Read day first: 01/02 is the 1st of February, so nothing created after a date two days ahead is listed.
    expect(await page(`/realm?created_at_from=${encodeURIComponent(later)}`)).not.toContain('Escola Estadual Modelo')
  })

  it('exports the current query as CSV with the table columns', async () => {
    const cookie = await consoleSignIn(DEMO, 'platform')
    const res = await call(DEMO, '/export/realm?like=escola', { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="realm-\d{4}-\d{2}-\d{2}\.csv"/)
    const text = (await res.text()).replace(/^\uFEFF/, '')
    const [header, ...rows] = text.trim().split('\r\n')
    expect(header).toBe('Código,Nome,Nome canônico,Domínio pai,Criado em')
    expect(rows).toHaveLength(1)
    // Times stay ISO 8601 UTC in CSV (the screen shows them in the realm's zone).
    expect(rows[0]).toMatch(/^escola,Escola Estadual Modelo,Rede Estadual de Ensino,,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  })

  it('exports in the chosen language', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const res = await call(DEMO, '/export/realm?like=escola', { headers: { cookie: `${cookie}; lng=${cookieValue('es-ES')}` } })
    expect((await res.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Código,Nombre,Nombre canónico,Dominio padre,Creado el')
  })

  it('signs out: revokes the token server-side and returns to /', async () => {
    const cookie = await consoleSignIn(DEMO, 'manager')
    const token = decodeURIComponent(/dash_session=([^;]+)/.exec(cookie)![1])
    const res = await call(DEMO, '/logout', { method: 'POST', headers: { cookie, origin: `http://${DEMO}` } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    expect(res.headers.get('set-cookie')).toMatch(/dash_session=;.*Max-Age=0/)
    const tokenValue = JSON.parse(atob(token)) as string
    const row = await env.DB.prepare('SELECT revoked_at FROM session WHERE token_hash = ?')
      .bind(await sha256Hex(tokenValue))
      .first<{ revoked_at: string | null }>()
    expect(row?.revoked_at).not.toBeNull()
    const after = await call(DEMO, '/', { headers: { cookie } })
    expect(after.status).toBe(302)
    expect(after.headers.get('location')).toBe('/login')
  })

  it('shows the 404 page for unknown paths', async () => {
    const res = await call(DEMO, '/no/such/page')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Você está perdido')
  })

  it('renders the interface in the language of the lng cookie', async () => {
    const html = await (await call(DEMO, '/no/such/page', { headers: { cookie: `lng=${cookieValue('en-US')}` } })).text()
    expect(html).toContain('You are lost')
    expect(html).toContain('lang="en-US"')
  })

  it('mints a presence ticket only for a signed-in user', async () => {
    expect((await call(DEMO, '/party/ticket?party=presence')).status).toBe(401)
    const cookie = await consoleSignIn(DEMO, 'root')
    const res = await call(DEMO, '/party/ticket?party=presence', { headers: { cookie } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { ticket: string; host: string; room: string }
    expect(body.room).toBe('demo')
    expect(body.ticket).toMatch(/^[\w-]+\.[\w-]+$/)
  })
})
