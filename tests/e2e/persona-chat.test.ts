import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { open, openPage, url } from './browser'
import { DIALOG_ANSWER, DIALOG_QUESTION, PDF_QUOTE, chatPersona, demoApi } from './persona-chat-helpers'

/**
 * The public persona chat in Chromium on a phone (issue 16 "The public chat"): a visitor asks and receives the
 * dialog answer, then a knowledge answer quoting the uploaded PDF; a reload resumes the same session; a private
 * persona asks for sign-in; a persona whose terms were not accepted says why it cannot chat.
 */

const tag = Date.now().toString(36)
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
let persona: { id: string }

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical violations on the page as it is (the console's axe walk leaves public pages out). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
  })
}

describe('public persona chat', () => {
  beforeAll(async () => {
    persona = await chatPersona(`Ana ${tag}`)
  }, 60_000)

  it('a visitor asks and receives the dialog answer, then a knowledge answer quoting the uploaded PDF; a reload resumes the session', async () => {
    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', `/personai/chat/${persona.id}`))
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Ana ${tag}`)
    const log = page.getByRole('log', { name: `Conversa com Ana ${tag}` })
    await log.getByText(`Olá! Eu sou Ana ${tag}.`).waitFor()

    const question = page.getByLabel('Sua pergunta')
    await question.fill(DIALOG_QUESTION)
    await question.press('Enter')
    await log.getByText(DIALOG_ANSWER).waitFor()
    await expect.poll(() => question.inputValue()).toBe('')

    await question.fill('Onde acontece a respiração celular?')
    await page.getByRole('button', { name: 'Enviar' }).click()
    const knowledge = log.locator('.pchat-msg.kind-knowledge')
    await knowledge.waitFor()
    expect(await knowledge.locator('.pchat-text').textContent()).toContain(PDF_QUOTE)
    await knowledge.getByText('Fontes (2)').click()
    expect(await axeViolations(page)).toEqual([])
    expect(await knowledge.locator('.pchat-sources li').first().textContent()).toMatch(
      /^biologia\.pdf \(p\. \d\): “.*A respiração celular acontece nas mitocôndrias\./,
    )

    // The session is kept in session storage: a reload shows the same conversation, not a new greeting alone.
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    await log.getByText(DIALOG_ANSWER).waitFor()
    await expect.poll(() => log.locator('.pchat-msg').count()).toBe(5)

    // Mute is a toggle button; the call for a human answers the call-helper message.
    const mute = page.getByRole('button', { name: 'Silenciar' })
    await mute.click()
    expect(await page.getByRole('button', { name: 'Ativar som' }).getAttribute('aria-pressed')).toBe('true')
    await page.getByRole('button', { name: 'Falar com uma pessoa' }).click()
    await log.getByText('Vou chamar a secretaria.').waitFor()

    // Speaking a question: headless Chromium has no microphone, so the seed's microphone message is shown (which one
    // depends on the browser's answer: no device, or no permission), never a raw error.
    await page.getByRole('button', { name: 'Perguntar falando' }).click()
    const micMessages = [
      'Nenhum microfone encontrado.',
      'Permissão de acesso ao microfone negada.',
      'Erro inesperado no microfone.',
      'Não foi possível ler o microfone (ele pode estar em uso por outro aplicativo).',
      'Este navegador não reconhece fala; digite a pergunta.',
    ]
    await expect.poll(async () => micMessages.includes((await page.getByRole('alert').first().textContent()) ?? '')).toBe(true)

    const sessions = await demoApi<{ items: { helper_requested_at: string | null; message_count: number }[] }>(
      'GET',
      `personai/persona/${persona.id}/transcript`,
    )
    expect(sessions.items).toHaveLength(1)
    expect(sessions.items[0].message_count).toBe(7)
    expect(sessions.items[0].helper_requested_at).not.toBeNull()
  })

  it('a private persona asks for sign-in, and opens once the visitor signs in', async () => {
    const p = await chatPersona(`Privada ${tag}`, false)
    const nick = `visit${tag}`
    await demoApi('POST', 'mas/user', { nick, name: 'Visitante', password: 'senha-visitante-1', roles: [] })
    const { page } = await openPage(PHONE)
    const res = await open(page, url('demo.localhost', `/personai/chat/${p.id}`))
    expect(res?.status()).toBe(200)
    await page.getByText('Esta persona é privada: entre para conversar com ela.').waitFor()
    expect(await page.locator('.pchat-log').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel('Usuário').fill(nick)
    await page.getByLabel('Senha', { exact: true }).fill('senha-visitante-1')
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await page.getByText(`Olá! Eu sou Privada ${tag}.`).waitFor()
    await page.getByText('Conectado como Visitante').waitFor()
  })

  it('says why a persona whose terms were not accepted cannot chat, in the interface language', async () => {
    const p = await demoApi<{ id: string }>('POST', 'personai/persona', { name: `Sem termos ${tag}`, is_public: true })
    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', `/personai/chat/${p.id}`))
    await page.getByText('Esta persona ainda não pode conversar: os termos de uso não foram aceitos por quem a criou.').waitFor()
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en-US')
    await page.getByText('This persona cannot chat yet: its creator has not accepted the terms of use.').waitFor()
  })
})
