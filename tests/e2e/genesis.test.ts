import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, signedInPage } from './browser'

/**
 * Lesson generation (issue 18) in the console with the local engine: the demo administrator uploads a TXT source,
 * sees the price of each content and the total, confirms it, watches the progress per content and sees the lesson.
 */
const pt = catalogues['pt-BR']
const SOURCE = fileURLToPath(new URL('../fixtures/genesis/ciclo-da-agua.txt', import.meta.url))

describe('genesis/lesson_model/generate', () => {
  it('generates a lesson from an uploaded text with the local engine, credits confirmed, progress shown', async () => {
    const { page } = await signedInPage('root', '/genesis/lesson_model/generate')
    expectConsoleErrors(page)
    await hydrated(page)
    expect(await page.getByText(pt['genesis.engine_local']).count()).toBe(1)
    await page.getByLabel(pt['genesis.file']).setInputFiles(SOURCE)
    await expect.poll(() => page.getByText(pt['genesis.file_ready'].replace('{{name}}', 'ciclo-da-agua.txt')).count(), { timeout: 20_000 }).toBe(1)
    // Demo prices: 5 + 10 + 15 + 20 + 25 + 10 + 5.
    expect(await page.getByTestId('genesis-total').textContent()).toBe(pt['genesis.points'].replace('{{count}}', '90'))
    await page.getByRole('button', { name: pt['genesis.generate'] }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.textContent()).toContain(pt['genesis.confirm_message'].replace('{{count}}', '90'))
    await dialog.getByRole('button', { name: pt['genesis.confirm'] }).click()
    const progress = page.getByRole('status')
    await expect.poll(() => progress.textContent(), { timeout: 20_000 }).toContain(pt['genesis.progress_of.summary'])
    await expect.poll(() => page.getByRole('heading', { level: 2, name: pt['genesis.job.done'] }).count(), { timeout: 60_000 }).toBe(1)
    expect(await progress.locator('li[data-status="done"]').count()).toBe(7)
    const result = page.getByRole('article')
    expect(await result.getByRole('heading', { name: pt['genesis.kind.summary'] }).count()).toBe(1)
    expect(await result.textContent()).toContain('Evaporação')
    await page.screenshot({ path: '/tmp/genesis-result.png', fullPage: false })
  })
})
