import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, newPage, open, signInOnScreen, url } from './browser'
import { demoApi } from './persona-chat-helpers'
import { personaStaff } from './persona-helpers'

/**
 * The persona image (issue 16 "photo capture or upload; a face must be detected"), in a Chromium of this file's own
 * with a fake camera (`--use-fake-device-for-media-stream`, `--use-fake-ui-for-media-stream`): an uploaded photo with a
 * face is accepted (the face detector runs in the browser) and saved; a plain gradient is refused with the seed's
 * message; the camera is opened, a photo taken, retaken, and confirmed (the fake camera's test pattern has no face:
 * refused the same way). The face photo is `demo/sample1.jpg` of the `@vladmandic/face-api` npm package (shipped
 * with it under its MIT licence; the package names no other source for it).
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const FACE = join(dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo/sample1.jpg')

/** A 320×240 PNG of a plain left-to-right gradient: an image with no face. */
function gradientPng(): Buffer {
  const w = 320
  const h = 240
  const raw = Buffer.alloc((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3
      raw[o] = Math.round((x / w) * 255)
      raw[o + 1] = 120
      raw[o + 2] = 255 - Math.round((x / w) * 255)
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer) => {
    let c = 0xffffffff
    for (const byte of b) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

let browser: Browser
let gradient: string

describe('persona image', () => {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    })
    gradient = join(mkdtempSync(join(tmpdir(), 'persona-photo-')), 'gradiente.png')
    writeFileSync(gradient, gradientPng())
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('accepts an uploaded face, refuses a gradient and a camera photo with no face (take, retake, confirm)', async () => {
    const persona = await demoApi<{ id: string }>('POST', 'personai/persona', { name: `Rosto ${tag}` })
    const staff = await personaStaff(`foto${tag}`, ['mas_file_upload'])
    const { page } = await newPage(browser, { viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', `/personai/persona/edit/${persona.id}`))
    await signInOnScreen(page, staff.nick, staff.password)
    await page.waitForSelector('nav[aria-label="Navegação principal"]')
    await hydrated(page)
    const field = page.locator('.persona-image')
    const alert = field.getByRole('alert')

    // No face: refused with the seed's message, nothing stored in the field.
    await field.getByLabel(pt['persona.photo.upload']).setInputFiles(gradient)
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toBe(pt['persona.photo.no_face'])
    expect(await field.locator('input[name="image_file_id"]').inputValue()).toBe('')

    // A face: accepted, uploaded, and the screen says the server and celebrity checks did not run.
    await field.getByLabel(pt['persona.photo.upload']).setInputFiles(FACE)
    await expect.poll(() => field.locator('[aria-live]').textContent(), { timeout: 30_000 }).toContain(pt['persona.photo.face_found'])
    expect(await field.getByTestId('face-checked').textContent()).toContain(pt['persona.photo.server_not_run'])
    expect(await alert.count()).toBe(0)
    const fileId = await field.locator('input[name="image_file_id"]').inputValue()
    expect(fileId).not.toBe('')
    // Saving redirects back to the editor, whose form is keyed on the persona's update time: mark the field, and wait
    // for the new field (the mark gone) before using the camera, or a slow reload would reset the camera mid-test.
    await field.evaluate((el) => el.setAttribute('data-before-save', ''))
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    const saved = () => demoApi<{ image_file_id: string; image_url: string }>('GET', `personai/persona/${persona.id}`)
    await expect.poll(async () => (await saved()).image_file_id).toBe(fileId)
    expect((await saved()).image_url).not.toBe('')
    await expect.poll(() => page.locator('.persona-image[data-before-save]').count(), { timeout: 30_000 }).toBe(0)
    await expect.poll(() => field.locator('input[name="image_file_id"]').inputValue()).toBe(fileId)
    await hydrated(page)

    // The camera: a live preview, a photo taken, taken again, confirmed; the fake camera's pattern has no face.
    await field.getByRole('button', { name: pt['persona.photo.camera'] }).click()
    const preview = field.getByLabel(pt['persona.photo.preview'])
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0)
    await field.getByRole('button', { name: pt['persona.photo.take'] }).click()
    await field.getByRole('img', { name: pt['persona.photo.captured'] }).waitFor()
    await field.getByRole('button', { name: pt['persona.photo.retake'] }).click()
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0)
    await field.getByRole('button', { name: pt['persona.photo.take'] }).click()
    await field.getByRole('button', { name: pt['persona.photo.confirm'] }).click()
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toBe(pt['persona.photo.no_face'])
    // The saved image stays the field's value.
    expect(await field.locator('input[name="image_file_id"]').inputValue()).toBe(fileId)
  }, 120_000)

  it('keeps the detector out of every route’s chunks: the photo step imports it when an image is checked', () => {
    const client = join(import.meta.dirname, '../../build/client')
    const manifestFile = readdirSync(join(client, 'assets')).find((f) => /^manifest-.*\.js$/.test(f))!
    const text = readFileSync(join(client, 'assets', manifestFile), 'utf8')
    const routes = (JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { routes: Record<string, { module: string; imports?: string[] }> })
      .routes
    const chunks = new Set(Object.values(routes).flatMap((r) => [r.module, ...(r.imports ?? [])]))
    const holding = [...chunks].filter((chunk) => readFileSync(join(client, chunk), 'utf8').includes('tinyFaceDetector'))
    expect(holding).toEqual([])
    // The detector is a chunk of its own, named by the editor's form (a dynamic import), with the weights beside it.
    const assets = readdirSync(join(client, 'assets'))
    const detector = assets.find((f) => /^face-detect\.client-.*\.js$/.test(f))!
    expect(readFileSync(join(client, 'assets', detector), 'utf8')).toContain('tinyFaceDetector')
    expect(assets.some((f) => /^tiny_face_detector_model-.*\.bin$/.test(f))).toBe(true)
    const form = routes['routes/_console+/personai+/persona.edit.$personaId'].imports!.find((f) => f.includes('/__persona-form-'))!
    expect(readFileSync(join(client, form), 'utf8')).toContain(detector)
  })
})
