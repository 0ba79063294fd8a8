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

async function room(realm: string, name = 'Reunião do 9º A') {
  const id = `rm${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const at = new Date().toISOString()
  await env.DB.prepare("INSERT INTO room (id, realm, name, type, created_at, updated_at) VALUES (?, ?, ?, 'meeting', ?, ?)").bind(id, realm, name, at, at).run()
  return id
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
      kind: 'channel',
      realm: { code: r.code, name: `Escola ${r.code}`, logo_url: '' },
      channel: { id, name: 'Aula aberta', avatar_url: '' },
      links: { app: `escolaapp://channel/${id}?realm=${r.code}`, ios: APP.ios_store_url, android: APP.android_store_url, browser: `/live/${id}` },
      live: [],
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

  it('answers a console room’s link (issue 20): its name, the app’s room address, the room’s participant view; 404 elsewhere', async () => {
    const r = await realmWith({ ...APP, web_client_url: 'https://web.example.org/c/{channel}' })
    const other = await realmWith(APP)
    const id = await room(r.code)
    const res = await api(r.host, `deeplink/room/${id}`)
    expect(res.status, await res.clone().text()).toBe(200)
    // The realm's web client names channels: a room's browser way in is always the console's participant view.
    expect(await res.json()).toEqual({
      kind: 'room',
      realm: { code: r.code, name: `Escola ${r.code}`, logo_url: '' },
      channel: { id, name: 'Reunião do 9º A', avatar_url: '' },
      links: { app: `escolaapp://room/${id}?realm=${r.code}`, ios: APP.ios_store_url, android: APP.android_store_url, browser: `/live/room/${id}` },
      live: [],
    })
    await expectEnvelope(await api(r.host, 'deeplink/room/nope'), 404, 'not_found')
    await expectEnvelope(await api(other.host, `deeplink/room/${id}`), 404, 'not_found')
    expect(sharedChannelLink('https://console.example.org', 'r1', 'demo', 'room')).toBe('https://console.example.org/deeplink?room=r1&realm=demo')

    const page = await call(r.host, `/deeplink?room=${id}`, { headers: { 'user-agent': DESKTOP } })
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('Reunião do 9º A')
    expect(html).toContain(`href="/live/room/${id}"`)
    const unknown = await call(r.host, '/deeplink?room=nope', { headers: { 'user-agent': DESKTOP } })
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('Sala não encontrada')
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

  it('offers the quizzes and the poll running on the channel, each to its player page, on the API, the page and the participant view', async () => {
    const r = await realmWith({})
    const staff = await userWith(r.code, ['quiz_quiz_create', 'quiz_quiz_edit', 'quiz_quiz_control', 'poll_poll_create', 'poll_poll_edit', 'poll_poll_control'])
    const id = await channel(r.code, 'Feira de Ciências')
    const other = await channel(r.code, 'Outro canal')
    const post = async <T>(path: string, json?: unknown) => {
      const res = await api(r.host, path, { method: 'POST', token: staff.token, ...(json ? { json } : {}) })
      expect(res.status, await res.clone().text()).toBeLessThan(300)
      return (await res.json()) as T
    }
    const quiz = async (name: string, channelId: string, start: boolean) => {
      const q = await post<{ id: string }>('quiz', {
        name,
        channel_id: channelId,
        reward_type: 'realm',
        reward_value: 0,
        reward_per_player: 0,
        question_duration: 20,
        lifes_timeout: 15,
      })
      await post(`quiz/${q.id}/question`, { text: 'Capital?', option_a: 'Rio', option_b: 'Brasília', option_c: 'Salvador', correct: 'B' })
      if (start) await post(`quiz/${q.id}/start`)
      return q.id
    }
    const running = await quiz('Quiz da feira', id, true)
    await quiz('Quiz em rascunho', id, false)
    await quiz('Quiz de outro canal', other, true)
    const poll = await post<{ id: string }>('poll', { type: 'open', name: 'Enquete da feira', channel_id: id, question_duration: 30 })
    await post(`poll/${poll.id}/question`, { text: 'Gostou?', options: ['Sim', 'Não'] })
    await post(`poll/${poll.id}/start`)

    const res = await api(r.host, `deeplink/channel/${id}`)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { live: unknown[] }).live).toEqual([
      { kind: 'quiz', id: running, name: 'Quiz da feira', url: `/play/quiz/${running}` },
      { kind: 'poll', id: poll.id, name: 'Enquete da feira', url: `/play/poll/${poll.id}` },
    ])
    const html = await (await call(r.host, `/deeplink?channel=${id}`, { headers: { 'user-agent': DESKTOP } })).text()
    expect(html).toContain(`href="/play/quiz/${running}"`)
    expect(html).toContain('Jogar o quiz: Quiz da feira')
    expect(html).toContain(`href="/play/poll/${poll.id}"`)
    expect(html).toContain('Votar na enquete: Enquete da feira')
    expect(html).not.toContain('Quiz em rascunho')
    expect(html).not.toContain('Quiz de outro canal')
    // The channel's participant view links to them too (a visitor who came in the browser).
    const view = await call(r.host, `/live/${id}`)
    expect(view.status).toBe(200)
    const viewHtml = await view.text()
    expect(viewHtml).toContain(`href="/play/quiz/${running}"`)
    expect(viewHtml).toContain('Jogar o quiz: Quiz da feira')
    expect(viewHtml).toContain(`href="/play/poll/${poll.id}"`)
    expect(viewHtml).not.toContain('Quiz em rascunho')
    expect(viewHtml).not.toContain('Quiz de outro canal')

    // Finished, it is no longer offered.
    await post(`poll/${poll.id}/finish`)
    const after = (await (await api(r.host, `deeplink/channel/${id}`)).json()) as { live: { kind: string }[] }
    expect(after.live.map((g) => g.kind)).toEqual(['quiz'])
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
