import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO, api, call, userWith } from './helpers'

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy).toBeTruthy()
  return new Map(
    policy!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  )
}

/**
 * The nonce of a page's policy, checked against every <script> of its HTML: at least the Remix context, the route
 * modules and scroll restoration on a hydrated page; the sign-in page, not hydrated, has its one module (`minScripts` 1).
 */
async function pageNonce(res: Response, minScripts = 3): Promise<string> {
  const csp = directives(res.headers.get('content-security-policy'))
  const nonce = csp
    .get('script-src')
    ?.find((s) => s.startsWith("'nonce-"))
    ?.slice(7, -1)
  expect(nonce, 'script-src has a nonce').toBeTruthy()
  const html = await res.text()
  const scripts = html.match(/<script\b[^>]*>/g) ?? []
  expect(scripts.length, 'the page has its scripts (Remix context, route modules, scroll restoration; or the sign-in module)').toBeGreaterThanOrEqual(
    minScripts,
  )
  for (const tag of scripts) expect(tag, 'every script carries the nonce').toContain(`nonce="${nonce}"`)
  return nonce!
}

const PRODUCTION = 'console.demo.example.org'

beforeAll(async () => {
  await env.DB.prepare("INSERT INTO realm_host (host, realm) VALUES (?, 'demo') ON CONFLICT (host) DO NOTHING").bind(PRODUCTION).run()
})

describe('console page headers', () => {
  it('send a Content-Security-Policy with a fresh nonce per response that every inline script carries', async () => {
    // Signed out, the console sends the browser to its sign-in page.
    const first = await call(DEMO, '/login')
    const second = await call(DEMO, '/login')
    expect(first.headers.get('content-type')).toContain('text/html')
    const a = await pageNonce(first, 1)
    const b = await pageNonce(second, 1)
    expect(a).not.toBe(b)
    expect(a.length).toBeGreaterThanOrEqual(22)
  })

  it('restrict scripts, plugins, framing, base URLs and form targets', async () => {
    const res = await call(DEMO, '/login')
    const csp = directives(res.headers.get('content-security-policy'))
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'")
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'")
    expect(csp.get('object-src')).toEqual(["'none'"])
    expect(csp.get('base-uri')).toEqual(["'none'"])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(csp.get('form-action')).toEqual(["'self'"])
    expect(csp.get('worker-src')).toEqual(["'self'"])
    // PartyKit (PARTYKIT_HOST) over ws and wss, and the page's own origin.
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(["'self'", `ws://${env.PARTYKIT_HOST}`, `wss://${env.PARTYKIT_HOST}`]))
    // The captcha's PNG is a data: URL.
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:']))
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('cover signed-in screens and error pages too', async () => {
    const staff = await userWith('demo', ['dashboard_dashboard_access', 'mas_realm_list'])
    const list = await call(DEMO, '/realm', { headers: { cookie: staff.cookie } })
    expect(list.status).toBe(200)
    await pageNonce(list)
    const missing = await call(DEMO, '/no/such/page', { headers: { cookie: staff.cookie } })
    expect(missing.status).toBe(404)
    await pageNonce(missing)
    const chooser = await call('localhost', '/login')
    await pageNonce(chooser)
  })

  it('send HSTS on every host but localhost, *.localhost and 127.0.0.1', async () => {
    for (const host of ['localhost', DEMO, '127.0.0.1']) {
      for (const path of ['/', '/api/version']) expect((await call(host, path)).headers.get('strict-transport-security'), `${host}${path}`).toBeNull()
    }
    for (const host of [PRODUCTION, 'console.example.net']) {
      for (const path of ['/', '/api/version']) {
        const res = await call(host, path)
        expect(res.headers.get('strict-transport-security'), `${host}${path}`).toBe('max-age=63072000; includeSubDomains')
        expect(res.headers.get('referrer-policy'), `${host}${path}`).toBe('strict-origin-when-cross-origin')
      }
    }
  })

  it('give the API and file answers the same transport headers', async () => {
    const res = await api(PRODUCTION, 'mas/realm/demo/config')
    expect(res.status).toBe(200)
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const file = await call(PRODUCTION, '/files/%')
    expect(file.status).toBe(404)
    expect(file.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains')
  })
})
