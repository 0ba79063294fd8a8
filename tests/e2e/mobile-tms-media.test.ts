import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { validQuestion } from '../support/tms-fixtures'
import { openPage, signedInPage, url } from './browser'
import { PHONE, applyScreen, axeViolations, studentWithRoom } from './tms-student-helpers'

/**
 * Answers made of files on the apply screen (issue 17), on a phone: a student uploads a photo for a media question
 * (progress, preview, remove, upload again), writes a game's result, photographs an essay page (a PNG of printed
 * text drawn on a canvas in the test), transcribes it on the device (tesseract.js served from our origin: the realm
 * has no vision provider), edits the text, delivers; the teacher's correction screen lists the files, which are
 * served. Also: "Transcribe" with no photo says "essay needs an image", and nothing of tesseract is in the page's
 * initial scripts.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const tr = (key: string, values: Record<string, string | number>) => Object.entries(values).reduce((s, [k, x]) => s.replaceAll(`{{${k}}}`, String(x)), pt[key])

/** A PNG of printed text (large dark letters on white), drawn on a canvas of the page: what the student photographs. */
async function textPng(page: Page, lines: string[]): Promise<Buffer> {
  const dataUrl = await page.evaluate((text) => {
    const canvas = document.createElement('canvas')
    canvas.width = 1200
    canvas.height = 120 + text.length * 90
    const g = canvas.getContext('2d')!
    g.fillStyle = '#ffffff'
    g.fillRect(0, 0, canvas.width, canvas.height)
    g.fillStyle = '#111111'
    g.font = '56px sans-serif'
    text.forEach((line, i) => g.fillText(line, 60, 110 + i * 90))
    return canvas.toDataURL('image/png')
  }, lines)
  return Buffer.from(dataUrl.split(',')[1], 'base64')
}

describe('media answers and essays from photos', () => {
  it('a student uploads a media answer and an essay photo, transcribes it on the device, delivers; the teacher sees the files', async () => {
    const { root, nick, password, publish } = await studentWithRoom(tag, 'midia')
    const essay = validQuestion('essay')
    const title = `Redação fotografada ${tag}`
    const task = await publish({
      title,
      essay_transcription: true,
      questions: [
        { type: 'media', statement: '<p>Envie a foto do seu experimento.</p>', score: 1, options: { accept: ['image'] } },
        { type: 'game', statement: '<p>Jogue o jogo das frações.</p>', score: 1, options: { url: 'https://games.example.org/fractions' } },
        { ...essay, statement: '<p>Escreva sobre a escola.</p>', options: { ...(essay.options as Record<string, unknown>), min_word_count: 3 } },
      ],
    })

    const { page, context } = await openPage(PHONE)
    // Every request of the page (and its workers): scripts, the OCR worker, its core and data.
    const scripts: string[] = []
    page.on('request', (r) => scripts.push(r.url()))
    await applyScreen(page, task.id, nick, password)
    // Every question type of this task is answerable: no "not on the web yet" note.
    expect(await page.getByText(pt['mobile.tms.apply.type_unavailable']).count()).toBe(0)
    // On-device OCR is not part of the page's initial scripts.
    expect(scripts.filter((s) => /ocr|tesseract/.test(s))).toEqual([])

    // The media question: a photo uploaded, previewed, removed (deleted on the server), uploaded again.
    const media = page.locator('.mtms-question[data-type="media"]')
    const photo = await textPng(page, ['Experimento de fisica'])
    await media.locator('input[type="file"]').setInputFiles({ name: 'experimento.png', mimeType: 'image/png', buffer: photo })
    await media.locator('img.mtms-file-image').waitFor()
    await media.getByRole('button', { name: tr('mobile.tms.media.remove', { name: 'experimento.png' }) }).click()
    await expect.poll(() => media.locator('img.mtms-file-image').count()).toBe(0)
    await media.locator('input[type="file"]').setInputFiles({ name: 'experimento.png', mimeType: 'image/png', buffer: photo })
    await media.locator('img.mtms-file-image').waitFor()
    // A file the question does not take is refused in words before it is sent.
    await media.locator('input[type="file"]').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('notas') })
    await expect.poll(() => media.locator('.error').textContent()).toContain(pt['file.upload.type.error'])

    // The game: opened in a new tab, its result written.
    const game = page.locator('.mtms-question[data-type="game"]')
    expect(await game.getByRole('link', { name: pt['mobile.tms.game.open'] }).getAttribute('href')).toBe('https://games.example.org/fractions')
    await game.getByLabel(tr('mobile.tms.game.result', { n: 2 })).fill('42 pontos')

    // The essay: "Transcribe" without a photo is refused in words; then a page photographed and read on the device.
    const essayBox = page.locator('.mtms-question[data-type="essay"]')
    await essayBox.getByRole('button', { name: pt['mobile.tms.essay.transcribe'] }).click()
    await expect.poll(() => essayBox.locator('.mtms-transcribe .error').textContent()).toContain(pt['answer.error.essay_image_required'])
    expect(await essayBox.textContent()).toContain(pt['mobile.tms.essay.by_device'])
    const page1 = await textPng(page, ['A escola tem uma biblioteca', 'grande e muitos livros.'])
    await essayBox.locator('input[type="file"]').setInputFiles({ name: 'pagina-1.png', mimeType: 'image/png', buffer: page1 })
    await essayBox.getByRole('img', { name: tr('mobile.tms.essay.page', { n: 1 }), exact: true }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: '/tmp/mtms-media-before.png', fullPage: true })

    // Something typed first: the transcription replaces it, and the student may take it back.
    const textarea = essayBox.getByLabel(tr('mobile.tms.apply.your_essay', { n: 3 }))
    await textarea.fill('Rascunho digitado.')
    const started = Date.now()
    await essayBox.getByRole('button', { name: pt['mobile.tms.essay.transcribe'] }).click()
    await expect.poll(() => textarea.inputValue(), { timeout: 180_000, interval: 500 }).toMatch(/biblioteca/i)
    console.log(
      `[figure] on-device transcription of one 1200×300 page (tesseract.js, por, headless Chromium): ${Date.now() - started} ms (first run: worker, core and data loaded)`,
    )
    const text = await textarea.inputValue()
    await essayBox.getByRole('button', { name: pt['mobile.tms.essay.restore_text'] }).click()
    expect(await textarea.inputValue()).toBe('Rascunho digitado.')
    // Transcribed again (the language data is cached on the device now).
    await essayBox.getByRole('button', { name: pt['mobile.tms.essay.transcribe'] }).click()
    await expect.poll(() => textarea.inputValue(), { timeout: 180_000, interval: 500 }).toBe(text)
    expect(text).toMatch(/escola/i)
    expect(text).toMatch(/livros/i)
    // Served from our own origin only: the worker, its core and the Portuguese data.
    const ocr = scripts.filter((s) => /ocr|tesseract/.test(s))
    expect(ocr.length).toBeGreaterThan(0)
    expect(ocr.every((s) => s.startsWith(url('demo.localhost', '/')))).toBe(true)
    // The student edits the transcription.
    await textarea.fill(`${text.replace(/\s+/g, ' ').trim()} Eu gosto de ler.`)
    // Nothing widens the phone's page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.screenshot({ path: '/tmp/mtms-media-transcribed.png', fullPage: true })

    // Deliver (the slips' second question, if the OCR left any, is answered too).
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await page.getByRole('dialog', { name: pt['mobile.tms.apply.confirm_title'] }).getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    const again = page.getByRole('dialog', { name: pt['mobile.tms.apply.essay_confirm_title'] })
    await Promise.race([
      again
        .getByRole('button', { name: pt['mobile.tms.apply.deliver_anyway'] })
        .click({ timeout: 5_000 })
        .catch(() => undefined),
      page.waitForURL((u) => u.pathname === '/mobile/tms'),
    ])
    await page.waitForURL((u) => u.pathname === '/mobile/tms' && u.searchParams.get('tab') === 'delivered')

    // The teacher's correction screen lists both files (the photo and the page), each served as an image.
    await context.close()
    const answers = await root<{ items: { id: string; status: string }[] }>('GET', `tms/answer?task_id=${task.id}`)
    expect(answers.items).toEqual([expect.objectContaining({ status: 'submitted' })])
    const { page: teacherPage } = await signedInPage('root', `/tms/task/${task.id}/${answers.items[0].id}/correct`)
    const links = teacherPage.locator('main a[href$=".png"]')
    await expect.poll(() => links.count()).toBe(2)
    for (const href of await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) {
      // Fetched by the teacher's page (the realm's host is resolved by the browser).
      const served = await teacherPage.evaluate(async (h) => {
        const res = await fetch(h)
        return { status: res.status, type: res.headers.get('content-type') }
      }, href)
      expect(served, href).toEqual({ status: 200, type: 'image/png' })
    }
    expect(await teacherPage.locator('main').textContent()).toContain('42 pontos')
    expect(await teacherPage.locator('main').textContent()).toContain('Eu gosto de ler.')
    await teacherPage.screenshot({ path: '/tmp/mtms-media-correct.png', fullPage: true })
  })
})
