import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { sanitizeRichText } from '#shared/rich-text'
import { isMediaUrl } from '#shared/schemas/tms/question-rules'
import { type AppEnv, readJsonBody } from '../../worker/api/context'
import { handleApiError } from '../../worker/api/mas/error_log'
import { creditPackage } from './factories'
import { pngBytes } from '../support/images'
import { DEMO, api, expectEnvelope, userWith } from './helpers'

/**
 * Issue 11, "Input": each malformed request below answered 500 (or was stored) before; each must answer 400 with the
 * envelope and change nothing.
 */
const DASH = 'dashboard_dashboard_access'
const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n

const assetUser = () => userWith('demo', [DASH, 'asset_asset_list', 'asset_asset_get', 'asset_asset_create', 'asset_asset_edit'])
const realmEditor = () => userWith('demo', [DASH, 'mas_realm_list', 'mas_realm_get', 'mas_realm_edit'])

describe('URL fields accept only absolute web addresses that parse', () => {
  it('refuses an asset link that does not parse (POST and PUT) with 400, storing nothing', async () => {
    const { token } = await assetUser()
    const before = await count("SELECT COUNT(*) AS n FROM asset WHERE realm = 'demo'")
    for (const url of [
      'a:b',
      'javascript:alert(1)',
      'http://[',
      'https://a:b',
      'https://user:pw@example.com/x',
      'https://exa mple.com',
      'https://example.com/\u202Efdp.exe',
    ]) {
      const body = await expectEnvelope(await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'zz', provider: 'link', url } }), 400)
      expect(body.errors[0], url).toMatchObject({ field: 'url', message: 'validation.url' })
    }
    expect(await count("SELECT COUNT(*) AS n FROM asset WHERE realm = 'demo'")).toBe(before)

    const created = await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Good link', provider: 'link', url: 'https://example.com/video.mp4' } })
    expect(created.status, await created.clone().text()).toBe(201)
    const { id } = (await created.json()) as { id: string }
    const row = async () => env.DB.prepare('SELECT * FROM asset WHERE id = ?').bind(id).first()
    const stored = await row()
    for (const url of ['a:b', 'javascript:alert(1)', 'http://[']) {
      await expectEnvelope(await api(DEMO, `asset/${id}`, { method: 'PUT', token, json: { url } }), 400)
    }
    expect(await row()).toEqual(stored)
  })

  it('does not 500 on an asset whose stored link no longer parses', async () => {
    const { token } = await assetUser()
    const created = (await (
      await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Old link', provider: 'link', url: 'https://example.com/a.mp4' } })
    ).json()) as { id: string }
    // A value saved before addresses were parsed on input.
    await env.DB.prepare("UPDATE asset SET url = 'https://a:b' WHERE id = ?").bind(created.id).run()
    await expectEnvelope(await api(DEMO, `asset/${created.id}`, { method: 'PUT', token, json: { provider: 'link' } }), 422, 'url')
  })

  it('refuses realm URLs such as dashboard_url that do not parse, javascript: ones included; ftp only for terms and privacy, console paths only for branding', async () => {
    const { token } = await realmEditor()
    const row = () => env.DB.prepare("SELECT * FROM realm WHERE code = 'demo-sul'").first()
    const stored = await row()
    for (const [field, value] of [
      ['dashboard_url', 'a:b'],
      ['dashboard_url', 'javascript:alert(1)'],
      ['logo_url', 'data:image/png;base64,AAAA'],
      ['api_endpoint', 'http://['],
      ['dashboard_url', 'ftp://files.example.org/'],
      ['dashboard_url', '/console'],
      ['api_endpoint', '//evil.example/api/'],
      ['terms', 'javascript:alert(1)'],
    ]) {
      const body = await expectEnvelope(await api(DEMO, 'mas/realm/demo-sul', { method: 'PUT', token, json: { [field]: value } }), 400)
      expect(body.errors[0], `${field}=${value}`).toMatchObject({ field, message: 'validation.url' })
    }
    expect(await row()).toEqual(stored)
    // A bare host still gets https:// (seed 000 §5), a port is not a scheme, ftp is a plain link for terms, and
    // branding may be served by the console itself.
    const ok = await api(DEMO, 'mas/realm/demo-sul', {
      method: 'PUT',
      token,
      json: {
        logo_url: 'cdn.example.org/logo.png',
        ios_store_url: 'apps.example.org:8443/app',
        terms: 'ftp://docs.example.org/terms.pdf',
        favicon_url: '/brand/favicon.svg',
      },
    })
    expect(ok.status, await ok.clone().text()).toBe(200)
    expect(await ok.json()).toMatchObject({
      logo_url: 'https://cdn.example.org/logo.png',
      ios_store_url: 'https://apps.example.org:8443/app',
      terms: 'ftp://docs.example.org/terms.pdf',
      favicon_url: '/brand/favicon.svg',
    })
  })

  it('switches realm even when the target stores a dashboard_url that does not parse, and keeps the session on failure', async () => {
    await env.DB.prepare("UPDATE realm SET dashboard_url = 'https://a:b', logo_url = 'javascript:alert(1)' WHERE code = 'demo-sul'").run()
    try {
      const { token } = await userWith('demo', [DASH, 'mas_realm_list'])
      const res = await api(DEMO, 'mas/realm/demo/change', { method: 'PUT', token, json: { leaf_realm: 'demo-sul' } })
      expect(res.status, await res.clone().text()).toBe(200)
      const body = (await res.json()) as { home_url: string; config: { dashboard_url: string; logo_url: string } }
      // The bad address is ignored: the realm's own host is used, and the public configuration reads it as unset.
      expect(body.home_url).toBe('http://demo-sul.localhost/')
      expect(body.config.dashboard_url).toBe('http://demo.localhost/')
      expect(body.config.logo_url).toBe('')
      const config = await api(DEMO, 'mas/realm/demo-sul/config')
      expect(config.status).toBe(200)
    } finally {
      await env.DB.prepare("UPDATE realm SET dashboard_url = '', logo_url = '' WHERE code = 'demo-sul'").run()
    }
  })

  it('keeps javascript: and unparsable links out of rich text and question media', () => {
    expect(sanitizeRichText('<p><a href="javascript:alert(1)">x</a><a href="http://[">y</a><a href=" https://ok.example/ ">z</a></p>')).toBe(
      '<p>xy<a href="https://ok.example/" rel="noopener noreferrer nofollow" target="_blank">z</a></p>',
    )
    expect(sanitizeRichText('<img src="https://[">')).toBe('')
    expect(isMediaUrl('http://[')).toBe(false)
    expect(isMediaUrl('javascript:alert(1)')).toBe(false)
    expect(isMediaUrl('https://example.org/a.png')).toBe(true)
    expect(isMediaUrl('/files/demo/2025/01/x.png')).toBe(true)
    expect(isMediaUrl('//evil.example/x.png')).toBe(false)
  })

  it('refuses an OAuth2 redirect_uri that is not an http(s) address', async () => {
    const { token } = await userWith('demo', [DASH])
    const query = new URLSearchParams({
      client_id: 'demo-reports',
      redirect_uri: 'javascript:alert(1)',
      response_type: 'code',
      scope: 'profile',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    })
    const body = await expectEnvelope(await api(DEMO, `mas/oauth2/authorize?${query}`, { token }), 400)
    expect(body.errors[0]).toMatchObject({ field: 'redirect_uri', message: 'validation.url' })
  })
})

describe('POST /ledger/transaction/create-intent', () => {
  it('refuses a return_url that does not parse with 400, creating no intent', async () => {
    const { token, nick } = await userWith('demo', [DASH])
    const pkg = await creditPackage('demo')
    for (const return_url of ['http://[', 'javascript:alert(1)', '//evil.example/x']) {
      const body = await expectEnvelope(
        await api(DEMO, 'ledger/transaction/create-intent', {
          method: 'POST',
          token,
          json: { provider: 'sandbox-card', product_id: pkg.id, provider_data: { return_url } },
        }),
        400,
      )
      expect(body.errors[0], return_url).toMatchObject({ field: 'provider_data.return_url', message: 'validation.url' })
    }
    expect(await count('SELECT COUNT(*) AS n FROM ledger_payment_intent WHERE nick = ?', nick)).toBe(0)
    // A path of the console is still a valid return address.
    const ok = await api(DEMO, 'ledger/transaction/create-intent', {
      method: 'POST',
      token,
      json: { provider: 'sandbox-card', product_id: pkg.id, provider_data: { return_url: '/ledger/balance' } },
    })
    expect(ok.status, await ok.clone().text()).toBe(201)
  })
})

describe('JSON bodies are bounded before they are parsed', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
  const send = (path: string, method: string, token: string, body: BodyInit, type = 'application/json') =>
    api(DEMO, path, { method, token, body, headers: { 'content-type': type } })

  it('answers a 50,000-deep array with 400 too_deep and the envelope, never a plain-text 500', async () => {
    const { token } = await userWith('demo', [DASH, 'mas_role_edit', 'mas_realm_create', 'asset_asset_create'])
    const roles = await env.DB.prepare('SELECT * FROM role_permission ORDER BY realm, role, permission').all()
    for (const [path, method, body] of [
      ['mas/permission/teacher', 'PUT', deep(50_000)],
      ['mas/realm', 'POST', `{"code":"zz","name":${deep(50_000)}}`],
      ['asset', 'POST', `{"name":"zz","url":${deep(50_000)}}`],
      ['device', 'POST', deep(50_000)],
    ] as const) {
      const res = await send(path, method, token, body)
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/)
      const envelope = await expectEnvelope(res, 400, 'too_deep')
      expect(envelope.errors[0]).toMatchObject({ field: 'body', value: 32 })
    }
    expect((await env.DB.prepare('SELECT * FROM role_permission ORDER BY realm, role, permission').all()).results).toEqual(roles.results)
    expect(await count("SELECT COUNT(*) AS n FROM realm WHERE code = 'zz'")).toBe(0)
    // Brackets inside strings are text, not nesting.
    const res = await send('asset', 'POST', token, JSON.stringify({ name: '['.repeat(200), provider: 'link', url: 'https://example.com/x.mp4' }))
    expect(res.status, await res.clone().text()).toBe(400)
    expect(((await res.json()) as { errors: { field: string }[] }).errors[0].field).toBe('name')
  })

  it('answers a body over 5 MiB with 400 too_large, and bytes that are not UTF-8 with 400 invalid', async () => {
    const { token } = await userWith('demo', [DASH, 'asset_asset_create'])
    await expectEnvelope(await send('asset', 'POST', token, JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) })), 400, 'too_large')
    // The same without a Content-Length: the stream is cut as soon as it passes the limit. Sent to the shared reader
    // in this isolate (through SELF the test's own upload pump would report the cut as an uncaught error).
    const app = new Hono<AppEnv>().post('/', async (c) => c.json(await readJsonBody(c)))
    app.onError(handleApiError)
    let pulled = 0
    const chunk = new TextEncoder().encode('"' + 'x'.repeat(1024 * 1024))
    const stream = new ReadableStream({ pull: (controller) => (pulled++ < 50 ? controller.enqueue(chunk) : controller.close()) })
    await expectEnvelope(
      await app.request('/', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit, env),
      400,
      'too_large',
    )
    expect(pulled).toBeLessThan(10)
    await expectEnvelope(await send('asset', 'POST', token, new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, 'invalid')
  })

  it("reads a payment provider's webhook through the same bounds", async () => {
    const res = await api(DEMO, 'ledger/webhook/sandbox-card', {
      method: 'POST',
      body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    })
    await expectEnvelope(res, 400, 'too_large')
    const bytes = await api(DEMO, 'ledger/webhook/sandbox-card', {
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
      headers: { 'content-type': 'application/json' },
    })
    await expectEnvelope(bytes, 400, 'invalid')
  })

  it('keeps the echoed value in the envelope small whatever was sent', async () => {
    const { token } = await userWith('demo', [DASH, 'asset_asset_create'])
    const big = { name: ['x'.repeat(100_000), ...Array.from({ length: 5000 }, (_, i) => ({ i, nested: [[[[['deep']]]]] }))] }
    const res = await send('asset', 'POST', token, JSON.stringify(big))
    const text = await res.clone().text()
    expect(text.length).toBeLessThan(10_000)
    const body = await expectEnvelope(res, 400)
    const value = body.errors[0].value as unknown[]
    expect(value.length).toBe(21)
    expect((value[0] as string).length).toBe(201)
    expect(value[20]).toBe('…')
  })
})

describe('POST /mas/file', () => {
  const png = pngBytes
  const gif = (width: number, height: number) =>
    new Uint8Array([...new TextEncoder().encode('GIF89a'), width & 255, width >> 8, height & 255, height >> 8, 0, 0, 0, 0x3b])

  /** A multipart body written by hand, so the file name reaches the Worker byte for byte (FormData would escape it). */
  function multipart(fileName: string, content: Uint8Array) {
    const boundary = '----fuzz' + crypto.randomUUID()
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    )
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`)
    const body = new Uint8Array(head.length + content.length + tail.length)
    body.set(head)
    body.set(content, head.length)
    body.set(tail, head.length + content.length)
    return { body, type: `multipart/form-data; boundary=${boundary}` }
  }
  const upload = async (name: string, content: Uint8Array | string) => {
    const { token } = await userWith('demo', [DASH, 'mas_file_upload'])
    const { body, type } = multipart(name, typeof content === 'string' ? new TextEncoder().encode(content) : content)
    return api(DEMO, 'mas/file', { method: 'POST', token, body, headers: { 'content-type': type } })
  }
  const files = () => count("SELECT COUNT(*) AS n FROM file WHERE realm = 'demo'")

  it('refuses images with a zero width or height', async () => {
    const before = await files()
    for (const [name, bytes] of [
      ['a.png', png(0, 10)],
      ['b.png', png(10, 0)],
      ['c.gif', gif(0, 0)],
    ] as const) {
      const body = await expectEnvelope(await upload(name, bytes), 400, 'dimensions')
      expect(body.errors[0].message, name).toBe('file.upload.dimensions.error')
    }
    expect(await files()).toBe(before)
    expect((await upload('ok.png', png(1, 1))).status).toBe(201)
  })

  it('refuses file names with NUL, control or bidirectional characters, or only blanks', async () => {
    const before = await files()
    // A NUL in the header is refused by the multipart parser already; still a 400 envelope naming the file.
    await expectEnvelope(await upload('a\u0000b.txt', 'hello'), 400)
    for (const name of ['notes\u0007.txt', 'invoice\u202Etxt.exe.txt', 'x\u2066y.txt', 'a\u200Fb.txt', '   ']) {
      const body = await expectEnvelope(await upload(name, 'hello'), 400)
      expect(body.errors[0], JSON.stringify(name)).toMatchObject({ field: 'data', cause: 'file_name', message: 'validation.file.name' })
    }
    expect(await files()).toBe(before)
    expect((await upload('Relatório 2025 — ção.txt', 'hello')).status).toBe(201)
  })
})
