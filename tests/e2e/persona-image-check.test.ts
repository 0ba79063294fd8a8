import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import type { ImageCheck } from '#shared/schemas/ai'
import { startAiProviders } from '../support/ai-providers'
import { hydrated, launch, newPage, open, realmApi, signInOnScreen, url } from './browser'
import { demoApi } from './persona-chat-helpers'
import { personaStaff } from './persona-helpers'

/**
 * The server's check of the persona image as the photo step shows it (issue 16: "the screen says when it did not
 * run"). The demo realm has no vision provider: an uploaded face is found in the browser, and the screen says the
 * server's check did not run because no provider is configured; the persona saved with it keeps that (not run, not
 * configured), and the editor, reloaded, shows it for the saved image. A realm of this file's own has the OpenAI-
 * compatible vision provider of a local chat-completions server (tests/support/ai-providers.ts): a recognised
 * celebrity is refused on screen with its cause, and a face the server checked says so. (Every outcome of the check
 * is the workers tests': tests/workers/persona-image-check.test.ts.) The face
 * photo is `demo/sample1.jpg` of the `@vladmandic/face-api` npm package (shipped with it under its MIT licence).
 */
const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const FACE = join(dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo/sample1.jpg')

let browser: Browser

describe('persona image: the server check on screen', () => {
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('says the server check did not run (no provider configured), at upload and after saving and reloading', async () => {
    const persona = await demoApi<{ id: string }>('POST', 'personai/persona', { name: `Verificação ${tag}` })
    const staff = await personaStaff(`vis${tag}`, ['mas_file_upload'])
    const { page } = await newPage(browser, { viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', `/personai/persona/edit/${persona.id}`))
    await signInOnScreen(page, staff.nick, staff.password)
    await page.waitForSelector('nav[aria-label="Navegação principal"]')
    await hydrated(page)
    const field = page.locator('.persona-image')
    // Nothing stored yet: no check is shown.
    expect(await field.getByTestId('server-check').count()).toBe(0)

    await field.getByLabel(pt['persona.photo.upload']).setInputFiles(FACE)
    const checked = field.getByTestId('face-checked')
    await checked.waitFor({ timeout: 60_000 })
    expect(await checked.textContent()).toBe(`${pt['persona.photo.face_found']} ${pt['persona.photo.server_not_run']}`)
    expect(await field.getByRole('alert').count()).toBe(0)
    const fileId = await field.locator('input[name="image_file_id"]').inputValue()
    expect(fileId).not.toBe('')

    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    const saved = () => demoApi<{ image_file_id: string; image_check: ImageCheck }>('GET', `personai/persona/${persona.id}`)
    await expect.poll(async () => (await saved()).image_file_id, { timeout: 30_000 }).toBe(fileId)
    expect((await saved()).image_check).toMatchObject({ status: 'not_run', provider: 'none', reason: 'not_configured' })

    // Reloaded: the saved image's check is the persona's, said the same way.
    await open(page, url('demo.localhost', `/personai/persona/edit/${persona.id}`))
    const stored = page.locator('.persona-image').getByTestId('server-check')
    await stored.waitFor()
    expect(await stored.textContent()).toBe(pt['persona.photo.server_not_run'])
  }, 120_000)

  it('shows the refusal of a recognised celebrity and a face checked on the server, with a vision provider configured', async () => {
    const ai = await startAiProviders('e2e-vision-key')
    try {
      const code = `vi${tag.slice(-6)}`
      const model = `vision-${tag}`
      const host = `${code}.localhost`
      const password = `Senha-${tag}-42`
      const platform = await realmApi('demo', 'platform')
      await platform('POST', 'mas/realm', {
        code,
        name: `Visão ${tag}`,
        persona_enabled: true,
        agent_endpoint_url: `${ai.url}/v1`,
        agent_model: model,
        agent_api_key: 'e2e-vision-key',
        hosts: [host],
        admin: { nick: 'chefe', name: 'Chefe da Visão', password, role: 'root' },
      })
      const root = await realmApi(code, 'chefe', password)
      const persona = await root<{ id: string }>('POST', 'personai/persona', { name: `Famosa ${tag}` })
      const token = await (async () => {
        const res = await fetch(url('localhost', '/api/device'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-realm': code },
          body: JSON.stringify({ realm: code, nick: 'chefe', password }),
        })
        return ((await res.json()) as { auth_token: string }).auth_token
      })()
      const put = await fetch(url('localhost', '/api/ai/settings'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-api-realm': code, 'x-api-key': token },
        body: JSON.stringify({ vision_provider: 'openai' }),
      })
      expect(put.status, await put.clone().text()).toBe(200)
      const script = (replies: unknown[]) => fetch(`${ai.url}/__script`, { method: 'POST', body: JSON.stringify({ model, replies }) })

      const { page } = await newPage(browser, { viewport: { width: 1280, height: 900 } })
      await open(page, url(host, `/personai/persona/edit/${persona.id}`))
      await signInOnScreen(page, 'chefe', password)
      await page.waitForSelector('nav[aria-label="Navegação principal"]')
      await hydrated(page)
      const field = page.locator('.persona-image')
      const alert = field.getByRole('alert')

      // The provider recognises a celebrity: refused with its cause, the image not taken.
      await script([{ content: JSON.stringify({ faces: 1, celebrity: { name: 'Pessoa Famosa', confidence: 0.9 } }) }])
      await field.getByLabel(pt['persona.photo.upload']).setInputFiles(FACE)
      await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toBe(pt['validation.persona.image_celebrity'].replace('{{name}}', 'Pessoa Famosa'))
      expect(await field.locator('input[name="image_file_id"]').inputValue()).toBe('')
      expect(await field.getByTestId('face-checked').count()).toBe(0)

      // A face and no celebrity: checked on the server, and the screen says by which provider.
      await script([{ content: JSON.stringify({ faces: 1, celebrity: null }) }])
      await field.getByLabel(pt['persona.photo.upload']).setInputFiles(FACE)
      const checked = field.getByTestId('face-checked')
      await checked.waitFor({ timeout: 60_000 })
      expect(await checked.textContent()).toBe(
        `${pt['persona.photo.face_found']} ${pt['persona.photo.server_checked'].replace('{{provider}}', pt['ai.settings.vision.openai'])}`,
      )
      expect(await alert.count()).toBe(0)
      const sent = (await (await fetch(`${ai.url}/__requests`)).json()) as { body: { model?: string; messages?: { content: unknown }[] } }[]
      const ofModel = sent.filter((r) => r.body?.model === model)
      expect(ofModel).toHaveLength(2)
      expect(JSON.stringify(ofModel[1].body.messages)).toContain('data:image/jpeg;base64,')
    } finally {
      await ai.stop()
    }
  }, 120_000)
})
