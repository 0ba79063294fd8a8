import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { open, openPage, openPageWithoutScript, signInOnScreen, url } from './browser'

/** The form kit on real screens, and the form rough edges it fixed (issue 12). */

const pt = catalogues['pt-BR']
const en = catalogues['en-US']
const tag = Date.now().toString(36)

describe('forms in the browser', () => {
  it('saves a new question-bank item with its typed statement', async () => {
    const { context, page, errors } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', '/tms/question_bank/create'))
    await signInOnScreen(page, 'root')
    await page.waitForSelector('html[data-hydrated="true"]')
    const statement = page.getByRole('textbox', { name: pt['tms.editor.statement'], exact: true })
    await statement.click()
    await statement.pressSequentially(`Quanto é dois mais dois? ${tag}`)
    // The rule message goes away as soon as the statement is long enough.
    await expect.poll(() => page.locator('.rich-field .error').count()).toBe(0)
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/tms/question_bank')
    await open(page, url('demo.localhost', `/tms/question_bank?like=${tag}`))
    await expect.poll(() => page.locator('table').textContent()).toContain(tag)
    expect(errors).toEqual([])
    await context.close()
  })

  it('validates a kit form with translated messages, summary and focus; keeps numbers as typed; saves', async () => {
    const { context, page, errors } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', '/tms/assessed_skills/create'))
    await signInOnScreen(page, 'root')
    await page.getByLabel(pt['resources.tms_assessed_skill.fields.weight']).waitFor()
    await page.waitForSelector('html[data-hydrated="true"]')
    const name = page.getByLabel(pt['resources.tms_assessed_skill.fields.name'])
    const weight = page.getByLabel(pt['resources.tms_assessed_skill.fields.weight'])
    await weight.fill('')
    await weight.pressSequentially('-5')
    expect(await weight.inputValue()).toBe('-5')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    // No browser bubble (noValidate): the kit's summary, in Portuguese, and focus on the first invalid field.
    const summary = page.locator('.error-summary')
    await expect.poll(() => summary.textContent()).toContain(pt['form.summary'])
    expect(await summary.textContent()).toContain(pt['resources.tms_assessed_skill.fields.name'])
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await weight.getAttribute('aria-invalid')).toBe('true')
    await weight.fill('')
    await weight.pressSequentially('1,5')
    expect(await weight.inputValue()).toBe('1,5')
    await expect.poll(() => weight.getAttribute('aria-invalid')).toBeNull()
    await name.fill(`Coerência ${tag}`)
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/tms/assessed_skills')
    await open(page, url('demo.localhost', `/tms/assessed_skills?like=${tag}`))
    await expect.poll(() => page.locator('table').textContent()).toContain('1.5')
    expect(errors).toEqual([])
    await context.close()
  })

  it('works without script: the action answers with errors and the typed values kept', async () => {
    const { context, page } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', '/tms/genre/create'))
    await signInOnScreen(page, 'root')
    await page.getByLabel(pt['resources.tms_genre.fields.min_words']).waitFor()
    const { context: bare, page: p } = await openPageWithoutScript(context)
    await p.goto(url('demo.localhost', '/tms/genre/create'))
    await p.getByLabel(pt['resources.tms_genre.fields.name']).fill(`Fábula ${tag}`)
    await p.getByLabel(pt['resources.tms_genre.fields.min_words']).fill('300')
    await p.getByLabel(pt['resources.tms_genre.fields.max_words']).fill('100')
    await p.getByRole('button', { name: pt['tms.form.save'] }).click()
    await p.waitForLoadState()
    expect(await p.getByLabel(pt['resources.tms_genre.fields.name']).inputValue()).toBe(`Fábula ${tag}`)
    expect(await p.getByLabel(pt['resources.tms_genre.fields.max_words']).getAttribute('aria-invalid')).toBe('true')
    expect(await p.locator('.error-summary').textContent()).toContain(pt['validation.tms.words_order'])
    await p.getByLabel(pt['resources.tms_genre.fields.max_words']).fill('600')
    await p.getByRole('button', { name: pt['tms.form.save'] }).click()
    await p.waitForURL((u) => u.pathname === '/tms/genre')
    // The save's flash is in the page the redirect lands on, without script (the server renders the toast).
    expect(await p.getByRole('status').filter({ hasText: pt['tms.saved'] }).count()).toBe(1)
    // Shown once: the next page no longer has it.
    await p.reload()
    expect(await p.getByRole('status').filter({ hasText: pt['tms.saved'] }).count()).toBe(0)
    await bare.close()
    await context.close()
  })

  it('types date-times in the page language’s format (pt-BR and en-US) in the realm’s zone', async () => {
    for (const [lng, cat, typed] of [
      ['pt-BR', pt, '23/11/2030 14:30'],
      ['en-US', en, '11/23/2030 14:30'],
    ] as const) {
      const { context, page, errors } = await openPage({ locale: lng, viewport: { width: 1280, height: 900 } })
      await context.addCookies([{ name: 'lng', value: encodeURIComponent(btoa(JSON.stringify(lng))), domain: 'demo.localhost', path: '/' }])
      await open(page, url('demo.localhost', '/room/create'))
      await signInOnScreen(page, 'root').catch(async () => {
        await page.getByLabel(/User/).fill('root')
        await page.getByLabel('Password', { exact: true }).fill('demo1234')
        await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      })
      await page.waitForSelector('html[data-hydrated="true"]')
      const enable = page.getByLabel(cat['resources.room.fields.enable_at'])
      expect(await enable.getAttribute('placeholder')).toBe(lng === 'en-US' ? 'mm/dd/yyyy hh:mm' : 'dd/mm/aaaa hh:mm')
      await page.getByLabel(cat['resources.room.fields.name']).fill(`sala-${lng.toLowerCase()}-${tag}`)
      await enable.fill('31/02/2030')
      await enable.blur()
      await expect.poll(() => enable.getAttribute('aria-invalid')).toBe('true')
      await enable.fill(typed)
      await page.getByRole('button', { name: cat['tms.form.save'] }).click()
      await page.waitForURL((u) => u.pathname === '/room')
      expect(errors).toEqual([])
      await context.close()
    }
  })
})
