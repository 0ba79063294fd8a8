import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, open, realmApi, signedInPage, url } from './browser'
import { personaStaff } from './persona-helpers'

/**
 * Unsaved-changes protection of the dialog screens (seed 000 §2.4: /personai/persona/{id}/dialog/create and
 * edit/{dialogId}): leaving with changes asks in a dialog, closing the tab asks the browser; a saved form leaves freely.
 */

const pt = catalogues['pt-BR']
const tag = `u${Date.now().toString(36)}`

describe('dialog screens', () => {
  it('ask before leaving with unsaved changes, in the console and through the browser', async () => {
    const staff = await personaStaff(tag)
    const api = await realmApi('demo', staff.nick, staff.password)
    const persona = await api<{ id: string }>('POST', 'personai/persona', { name: `Persona ${tag}`, synchronized_speech: true })
    const create = `/personai/persona/${persona.id}/dialog/create`
    const { page } = await signedInPage(staff.nick, create, { password: staff.password })
    await hydrated(page)

    // Nothing typed: leaving asks nothing.
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/dialog'))
    await open(page, url('demo.localhost', create))

    await page.getByRole('textbox', { name: pt['persona.dialog.fields.name'], exact: true }).fill('Rascunho')
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    const confirm = page.getByRole('dialog', { name: pt['unsaved.title'] })
    await expect.poll(() => confirm.isVisible()).toBe(true)
    await confirm.getByRole('button', { name: pt['unsaved.stay'] }).click()
    expect(new URL(page.url()).pathname).toBe(create)
    expect(await page.getByRole('textbox', { name: pt['persona.dialog.fields.name'], exact: true }).inputValue()).toBe('Rascunho')

    // Closing the tab goes through the browser's own question (beforeunload).
    const asked = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.dismiss())))
    await page.close({ runBeforeUnload: true })
    expect(await asked).toBe('beforeunload')
    expect(page.isClosed()).toBe(false)

    // Leaving anyway.
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    await confirm.getByRole('button', { name: pt['unsaved.leave'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/dialog'))

    // A saved dialog leaves the screen without a question; its edit screen protects again.
    await open(page, url('demo.localhost', create))
    await page.getByLabel(pt['persona.dialog.question_n'].replace('{{n}}', '1')).fill('Qual é o seu nome')
    await page.getByLabel(new RegExp(`^${pt['persona.dialog.fields.text']}`)).fill('Meu nome é Persona.')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/dialog'))
    await hydrated(page)
    await page.getByRole('link', { name: pt['persona.dialog.edit'] }).first().click()
    await page.waitForURL((u) => u.pathname.includes('/dialog/edit/'))
    await hydrated(page)
    await page.getByLabel(new RegExp(`^${pt['persona.dialog.fields.text']}`)).fill('Outro texto.')
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    await expect.poll(() => confirm.isVisible()).toBe(true)
    await confirm.getByRole('button', { name: pt['unsaved.stay'] }).click()
    expect(new URL(page.url()).pathname).toContain('/dialog/edit/')
  })
})
