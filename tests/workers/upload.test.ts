import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { UploadedFile } from '#shared/schemas/file'
import { cleanupExpiredFiles } from '../../worker/db/files'
import { pngBytes } from '../support/images'
import { DEMO, ESCOLA, api, call, cookieValue, expectEnvelope, userWith } from './helpers'

const png = pngBytes
/** A JPEG with an APP0 segment, then a baseline SOF0 frame header. */
const jpeg = (width: number, height: number) =>
  new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    0xff,
    0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
    0xff,
    0xd9,
  ])
const gif = (width: number, height: number) =>
  new Uint8Array([...new TextEncoder().encode('GIF89a'), width & 255, width >> 8, height & 255, height >> 8, 0, 0, 0, 0x3b])

async function upload(name: string, bytes: Uint8Array<ArrayBuffer> | string, fields: Record<string, string> = {}, token?: string) {
  const form = new FormData()
  form.set('data', new File([bytes], name))
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  const t = token ?? (await userWith('demo', ['dashboard_dashboard_access', 'mas_file_upload'])).token
  return api(DEMO, 'mas/file', { method: 'POST', token: t, body: form })
}

describe('POST /mas/file', () => {
  it('stores a PNG in R2 and answers cdn_full_url; the file is served with its real type and safe headers', async () => {
    const res = await upload('../../Foto da turma.png', png(640, 480), { persist: 'true' })
    expect(res.status).toBe(201)
    const file = (await res.json()) as UploadedFile
    expect(file).toMatchObject({
      kind: 'image',
      content_type: 'image/png',
      width: 640,
      height: 480,
      persist: true,
      expires_at: null,
      name: '../../Foto da turma.png',
    })
    expect(file.cdn_full_url).toMatch(/^http:\/\/demo\.localhost\/files\/demo\/\d{4}\/\d{2}\/[\w-]{22}\.png$/)
    expect(file.cdn_full_url).not.toContain('Foto')

    const served = await call(DEMO, new URL(file.cdn_full_url).pathname)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="/)
    expect(served.headers.get('content-security-policy')).toContain('sandbox')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png(640, 480))
  })

  it('reads JPEG and GIF dimensions and checks the requested bounds', async () => {
    expect(await (await upload('a.jpg', jpeg(800, 600))).json()).toMatchObject({ width: 800, height: 600 })
    expect(await (await upload('a.gif', gif(32, 16))).json()).toMatchObject({ width: 32, height: 16 })
    const small = await expectEnvelope(await upload('a.jpg', jpeg(100, 100), { min_width: '200' }), 400, 'dimensions')
    expect(small.errors[0]).toMatchObject({ message: 'file.upload.dimensions.error', value: { width: 100, height: 100 } })
    await expectEnvelope(await upload('a.png', png(5000, 4000), { max_height: '2000' }), 400, 'dimensions')
  })

  it('refuses absurdly large images in pixels whatever the bounds', async () => {
    await expectEnvelope(await upload('bomb.png', png(100_000, 100_000)), 400, 'dimensions')
  })

  it('accepts only the extensions of the specification', async () => {
    for (const name of ['page.html', 'logo.svg', 'run.exe', 'noext']) {
      const body = await expectEnvelope(await upload(name, 'hello'), 400, 'type')
      expect(body.errors[0].message).toBe('file.upload.type.error')
    }
  })

  it('refuses a file whose content is not what its extension says (magic bytes)', async () => {
    await expectEnvelope(await upload('photo.png', '<html><script>alert(1)</script></html>'), 400, 'content_mismatch')
    await expectEnvelope(await upload('doc.pdf', png(1, 1)), 400, 'content_mismatch')
    await expectEnvelope(await upload('notes.txt', new Uint8Array([0x66, 0, 0xff, 0xfe])), 400, 'content_mismatch')
    expect((await upload('notes.txt', 'Olá, turma!')).status).toBe(201)
    expect((await upload('slides.pdf', '%PDF-1.7\n%âãÏÓ\n')).status).toBe(201)
  })

  it('enforces the size limit of each kind with validation.file.max_size and the limit', async () => {
    const big = new Uint8Array(5_000_001)
    big.set(png(10, 10))
    const body = await expectEnvelope(await upload('big.png', big), 400, 'max_size')
    expect(body.errors[0]).toMatchObject({ message: 'validation.file.max_size', value: 5_000_000 })
    const audio = new Uint8Array(5_000_001)
    audio.set(new TextEncoder().encode('ID3'))
    expect((await upload('song.mp3', audio)).status).toBe(201)
  })

  it('serves documents as attachments', async () => {
    const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0])
    const file = (await (await upload('lista.xlsx', zipBytes)).json()) as UploadedFile
    const served = await call(DEMO, new URL(file.cdn_full_url).pathname)
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/)
    expect(served.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  })

  it('cleans up non-persisted uploads after their time, keeping persisted ones', async () => {
    const temp = (await (await upload('temp.png', png(2, 2))).json()) as UploadedFile
    const kept = (await (await upload('kept.png', png(2, 2))).json()) as UploadedFile
    expect(temp.expires_at).not.toBeNull()
    const { token } = await userWith('demo', ['dashboard_dashboard_access', 'mas_file_upload'])
    expect((await api(DEMO, `mas/file/${kept.id}/persist`, { method: 'POST', token })).status).toBe(200)
    const removed = await cleanupExpiredFiles(env, new Date(Date.now() + 25 * 3_600_000))
    expect(removed).toBeGreaterThanOrEqual(1)
    expect((await call(DEMO, new URL(temp.cdn_full_url).pathname)).status).toBe(404)
    expect((await call(DEMO, new URL(kept.cdn_full_url).pathname)).status).toBe(200)
  })

  it('needs mas_file_upload, and writes an audit record only for a stored file', async () => {
    const { token } = await userWith('demo', ['dashboard_dashboard_access'])
    await expectEnvelope(await upload('a.png', png(1, 1), {}, token), 403, 'forbidden')
    const count = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'file'").first<{ n: number }>())!.n
    const before = await count()
    await upload('x.html', 'nope')
    expect(await count()).toBe(before)
    await upload('ok.png', png(3, 3))
    expect(await count()).toBe(before + 1)
  })
})

describe('serving uploaded files', () => {
  it('serves a realm’s files only on its own hosts: another realm’s host answers 404', async () => {
    const file = (await (await upload('cartaz.png', png(4, 4), { persist: 'true' })).json()) as UploadedFile
    const path = new URL(file.cdn_full_url).pathname
    expect((await call(DEMO, path)).status).toBe(200)
    const elsewhere = await call(ESCOLA, path)
    expect(elsewhere.status).toBe(404)
    expect(await elsewhere.text()).not.toContain('PNG')
    expect((await call('demo-sul.localhost', path)).status).toBe(404)
  })

  it('on a multi-realm host, serves only the files of the realm the browser has chosen (realm cookie)', async () => {
    const file = (await (await upload('cartaz.png', png(4, 4), { persist: 'true' })).json()) as UploadedFile
    const path = new URL(file.cdn_full_url).pathname
    expect((await call('localhost', path)).status).toBe(404)
    expect((await call('localhost', path, { headers: { cookie: `dash_realm=${cookieValue('escola')}` } })).status).toBe(404)
    expect((await call('localhost', path, { headers: { cookie: `dash_realm=${cookieValue('demo')}` } })).status).toBe(200)
    expect((await call('127.0.0.1', path, { headers: { cookie: `dash_realm=${cookieValue('demo')}` } })).status).toBe(200)
  })

  it('gives PDFs and every other type the same sandbox policy as images', async () => {
    const pdf = (await (await upload('slides.pdf', '%PDF-1.7\n%âãÏÓ\n', { persist: 'true' })).json()) as UploadedFile
    const txt = (await (await upload('notes.txt', 'Olá, turma!', { persist: 'true' })).json()) as UploadedFile
    const img = (await (await upload('a.png', png(2, 2), { persist: 'true' })).json()) as UploadedFile
    const policy = (f: UploadedFile) => call(DEMO, new URL(f.cdn_full_url).pathname).then((r) => r.headers.get('content-security-policy'))
    const imagePolicy = await policy(img)
    expect(imagePolicy).toContain('sandbox')
    expect(imagePolicy).toContain("default-src 'none'")
    expect(await policy(pdf)).toBe(imagePolicy)
    expect(await policy(txt)).toBe(imagePolicy)
  })

  it('answers 404, never 500, to bad percent-encodings and unknown keys', async () => {
    for (const path of ['/files/%', '/files/%E0%A4%A', '/files/demo/%ZZ.png', '/files/%C0%AF', '/files/', '/files/demo/2026/01/nothing.png']) {
      const res = await call(DEMO, path)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
    }
  })
})

describe('the console upload endpoint', () => {
  it('streams the multipart body to POST /mas/file with the session token', async () => {
    const { cookie } = await userWith('demo', ['dashboard_dashboard_access', 'mas_file_upload'])
    const form = new FormData()
    form.set('data', new File([png(12, 34)], 'aula.png'))
    const res = await call(DEMO, '/upload', { method: 'POST', body: form, headers: { cookie, origin: `http://${DEMO}` } })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ width: 12, height: 34, kind: 'image' })
    const bad = new FormData()
    bad.set('data', new File(['<svg/>'], 'x.svg'))
    const refused = await call(DEMO, '/upload', { method: 'POST', body: bad, headers: { cookie, origin: `http://${DEMO}` } })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ errors: [{ cause: 'type' }] })
  })
})
