import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { deeplinkLinks, sharedChannelLink, visitorPlatform } from '#shared/deeplink'
import { api, call, expectEnvelope, userWith } from './helpers'

/** The conference deep link (issue 13): the public API, the page's three choices, and the app scheme's rule. */

async function realmWith(values: Record<string, string | number>) {
  const code = `d${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const host = `${code}.localhost`
  const cols = ['code', 'name', ...Object.keys(values)]
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO realm (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(code, `Escola ${code}`, ...Object.values(values)),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(host, code),
  ])
  return { code, host }
}

async function channel(realm: string, name = 'Aula aberta') {
  const id = `ch${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const at = new Date().toISOString()
  await env.DB.prepare('INSERT INTO channel (id, realm, name, created_at, created_by, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(id, realm, name, at, 'test', at, 'test')
    .run()
  return id
}

const APP = {
  app_scheme: 'escolaapp',
  ios_store_url: 'https://apps.apple.com/app/escola/id1',
  android_store_url: 'https://play.google.com/store/apps/details?id=escola',
}
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36'
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36'

describe('conference deep link', () => {
  it('answers the channel and the three ways in, publicly; the participant view when the realm has no web client', async () => {
    const r = await realmWith(APP)
    const id = await channel(r.code)
    const res = await api(r.host, `deeplink/channel/${id}`)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toEqual({
      realm: { code: r.code, name: `Escola ${r.code}`, logo_url: '' },
      channel: { id, name: 'Aula aberta', avatar_url: '' },
      links: { app: `escolaapp://channel/${id}?realm=${r.code}`, ios: APP.ios_store_url, android: APP.android_store_url, browser: `/live/${id}` },
    })
  })

  it('sends the browser to the realm’s web client, with the channel, when it has one', () => {
    const realm = { code: 'x', app_scheme: '', ios_store_url: '', android_store_url: '', web_client_url: 'https://web.example.org/app' }
    expect(deeplinkLinks(realm, 'c1')).toEqual({ app: null, ios: null, android: null, browser: 'https://web.example.org/app?channel=c1' })
    expect(deeplinkLinks({ ...realm, web_client_url: 'https://web.example.org/c/{channel}' }, 'c1').browser).toBe('https://web.example.org/c/c1')
    // A stored scheme a browser would run itself is never offered.
    expect(deeplinkLinks({ ...realm, app_scheme: 'javascript' }, 'c1').app).toBeNull()
    expect(sharedChannelLink('https://console.example.org', 'c1', null)).toBe('https://console.example.org/deeplink?channel=c1')
    expect(sharedChannelLink('http://localhost:8787', 'c1', 'demo')).toBe('http://localhost:8787/deeplink?channel=c1&realm=demo')
    expect([IPHONE, ANDROID, DESKTOP, null].map(visitorPlatform)).toEqual(['ios', 'android', 'other', 'other'])
  })

  it('answers 404 for an unknown channel and for another realm’s channel', async () => {
    const a = await realmWith(APP)
    const b = await realmWith(APP)
    const id = await channel(a.code)
    await expectEnvelope(await api(a.host, 'deeplink/channel/nope'), 404, 'not_found')
    await expectEnvelope(await api(b.host, `deeplink/channel/${id}`), 404, 'not_found')
  })

  it('renders the page with the realm’s branding and the store of the visitor’s platform, and a not-found state', async () => {
    const r = await realmWith({ ...APP, logo_url: '/brand/demo-logo.svg' })
    const id = await channel(r.code, 'Feira de Ciências')
    const page = async (ua: string, path = `/deeplink?channel=${id}`) => {
      const res = await call(r.host, path, { headers: { 'user-agent': ua } })
      return { status: res.status, html: await res.text() }
    }
    const desktop = await page(DESKTOP)
    expect(desktop.status).toBe(200)
    expect(desktop.html).toContain('Feira de Ciências')
    expect(desktop.html).toContain('src="/brand/demo-logo.svg"')
    expect(desktop.html).toContain(`href="escolaapp://channel/${id}?realm=${r.code}"`)
    expect(desktop.html).toContain(`href="/live/${id}"`)
    expect(desktop.html).toContain('data-choice="store-ios"')
    expect(desktop.html).toContain('data-choice="store-android"')
    const iphone = await page(IPHONE)
    expect(iphone.html).toContain('data-choice="store-ios"')
    expect(iphone.html).not.toContain('data-choice="store-android"')
    const android = await page(ANDROID)
    expect(android.html).toContain('data-choice="store-android"')
    expect(android.html).not.toContain('data-choice="store-ios"')
    const app = await page(DESKTOP, `/deeplink/app?channel=${id}`)
    expect(app.status).toBe(200)
    expect(app.html).toContain('data-choice="app"')

    const unknown = await page(DESKTOP, '/deeplink?channel=nope')
    expect(unknown.status).toBe(404)
    expect(unknown.html).toContain('Canal não encontrado')
    expect(unknown.html).not.toContain('data-choice=')
    const missing = await page(DESKTOP, '/deeplink')
    expect(missing.status).toBe(200)
    expect(missing.html).toContain('Canal não encontrado')
  })

  it('keeps the app scheme to a scheme an app can register', async () => {
    const r = await realmWith({})
    const staff = await userWith(r.code, ['mas_realm_get', 'mas_realm_edit'])
    for (const bad of ['https', 'javascript', '1app', 'my app', 'a'])
      await expectEnvelope(await api(r.host, `mas/realm/${r.code}`, { method: 'PUT', token: staff.token, json: { app_scheme: bad } }), 400)
    const ok = await api(r.host, `mas/realm/${r.code}`, { method: 'PUT', token: staff.token, json: { app_scheme: 'Escola.App' } })
    expect(ok.status, await ok.clone().text()).toBe(200)
    expect(await env.DB.prepare('SELECT app_scheme FROM realm WHERE code = ?').bind(r.code).first('app_scheme')).toBe('escola.app')
  })
})
