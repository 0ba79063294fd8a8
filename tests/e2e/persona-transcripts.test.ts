import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, open, openPage, signedInPage, url } from './browser'
import { DIALOG_ANSWER, DIALOG_QUESTION, PDF_QUOTE, chatPersona, demoApi } from './persona-chat-helpers'
import { personaStaff } from './persona-helpers'

/**
 * The public chat's transcripts in the console (issue 16 "Transcripts are stored per session"): a visitor chats on the
 * public page (a dialog answer, a knowledge answer, a call for a person), and staff who edit personas find the session
 * from the persona editor — newest first, paged, filtered to the sessions asking for a person — and read it with each
 * answer's source: the dialog, or the quoted passages and the engine.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

describe('persona transcripts', () => {
  it('shows a visitor’s chat in the console with each answer’s source, newest first, paged and filtered', async () => {
    const name = `Transcrita ${tag}`
    const persona = await chatPersona(name)

    // The visitor: a dialog answer, a knowledge answer, then a call for a person.
    const visitor = await openPage(PHONE)
    await open(visitor.page, url('demo.localhost', `/personai/chat/${persona.id}`))
    const log = visitor.page.getByRole('log', { name: `Conversa com ${name}` })
    await log.getByText(`Olá! Eu sou ${name}.`).waitFor()
    const question = visitor.page.getByLabel('Sua pergunta')
    await question.fill(DIALOG_QUESTION)
    await question.press('Enter')
    await log.getByText(DIALOG_ANSWER).waitFor()
    await question.fill('Onde acontece a respiração celular?')
    await question.press('Enter')
    await log.locator('.pchat-msg.kind-knowledge').waitFor()
    await visitor.page.getByRole('button', { name: 'Falar com uma pessoa' }).click()
    await log.getByText('Vou chamar a secretaria.').waitFor()
    const chatted = (await demoApi<{ items: { id: string }[] }>('GET', `personai/persona/${persona.id}/transcript`)).items
    expect(chatted).toHaveLength(1)
    const helped = chatted[0].id

    // 25 more sessions (a guest's greeting each), one after the other: 26 in all, one page and one more.
    const later: string[] = []
    for (let i = 0; i < 25; i++) later.push((await demoApi<{ session_id: string }>('POST', `personai/chat/${persona.id}/session`, {}, null)).session_id)

    // Staff open the editor's transcripts step: one session asks for a person.
    const staff = await personaStaff(tag)
    const { page } = await signedInPage(staff.nick, `/personai/persona/edit/${persona.id}`, { password: staff.password })
    await hydrated(page)
    const step = page.locator('#persona-transcripts')
    await expect.poll(() => step.textContent()).toContain(pt['persona.transcript.waiting_one'].replace('{{count}}', '1'))
    await page.getByRole('link', { name: pt['persona.editor.step.transcripts'], exact: true }).click()
    await step.getByRole('link', { name: pt['persona.transcript.open_list'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/transcript'))
    await hydrated(page)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${pt['pages.persona.transcript.list']}: ${name}`)

    // Newest first, 25 a page: the last guest session opens the list; the visitor's is alone on the next page.
    const rows = page.locator('tbody tr')
    expect(await rows.count()).toBe(25)
    const first = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-session')))) as string[]
    expect(first[0]).toBe(later[later.length - 1])
    expect(new Set(first)).toEqual(new Set(later))
    expect(await rows.first().textContent()).toContain(pt['persona.transcript.guest'])
    await page.getByRole('link', { name: pt['persona.transcript.older'].replace('{{count}}', '25') }).click()
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().getAttribute('data-session')).toBe(helped)
    expect(await page.getByRole('link', { name: pt['persona.transcript.older'].replace('{{count}}', '25') }).count()).toBe(0)
    await page.getByRole('link', { name: pt['persona.transcript.newest'] }).click()
    await expect.poll(() => rows.count()).toBe(25)

    // The filter: only the session whose visitor asked for a person.
    await page.getByRole('link', { name: pt['persona.transcript.helper_only'] }).click()
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().getAttribute('data-session')).toBe(helped)
    expect(await page.getByRole('link', { name: pt['persona.transcript.helper_only'] }).getAttribute('aria-current')).toBe('page')

    // The session: every message in order, each answer with its source.
    await rows.first().getByRole('link', { name: pt['persona.transcript.open'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith(`/transcript/${helped}`))
    await hydrated(page)
    const messages = page.getByRole('list', { name: pt['persona.transcript.messages'] }).locator(':scope > li')
    expect(await messages.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')))).toEqual([
      'greeting',
      'question',
      'dialog',
      'question',
      'knowledge',
      'helper',
      'helper_answer',
    ])
    const dialog = messages.nth(2)
    expect((await dialog.textContent())!.split(DIALOG_ANSWER)).toHaveLength(2)
    expect(await dialog.locator('[data-source="dialog"]').textContent()).toContain(pt['persona.transcript.from_dialog'])
    // The reader may edit dialogs: the source links to the dialog's screen.
    expect(await dialog.locator('[data-source="dialog"] a').getAttribute('href')).toMatch(new RegExp(`/personai/persona/${persona.id}/dialog/edit/`))
    const knowledge = messages.nth(4)
    expect(await knowledge.textContent()).toContain(PDF_QUOTE)
    expect(await knowledge.locator('[data-source="knowledge"]').count()).toBe(1)
    expect(await knowledge.getByRole('list', { name: pt['persona.editor.chat.sources'] }).locator('li').first().textContent()).toMatch(
      /^biologia\.pdf \(p\. \d\): “/,
    )
    expect(await knowledge.textContent()).toContain(pt['persona.editor.chat.engine'].replace('{{engine}}', ''))
    expect(await messages.nth(5).textContent()).toContain(pt['persona.transcript.kind.helper'])

    // Back keeps the filter; a session that is not the persona's is an error screen, not a blank one.
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/transcript') && u.search === '?helper=1')
    const missing = await page.goto(url('demo.localhost', `/personai/persona/${persona.id}/transcript/nao-existe-${tag}-0000000`))
    expect(missing?.status()).toBe(404)

    // A persona nobody chatted with: the empty state.
    const quiet = await demoApi<{ id: string }>('POST', 'personai/persona', { name: `Calada ${tag}` })
    await open(page, url('demo.localhost', `/personai/persona/${quiet.id}/transcript`))
    await page.getByText(pt['persona.transcript.empty']).waitFor()
    expect(await rows.count()).toBe(0)
  }, 120_000)
})
