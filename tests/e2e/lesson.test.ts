import { readFile, writeFile } from 'node:fs/promises'
import type { Download } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, open, signedInPage, url } from './browser'
import { studentLessonOnPhone, studentWithRoom } from './tms-student-helpers'

/**
 * Lessons (issue 18) end to end: a teacher creates a lesson model with a summary and two slides in the console's
 * editor, publishes it to a student's room, and the student sees it on a phone viewport, reads the summary and steps
 * through the slides.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('lessons', () => {
  it('a teacher creates and publishes a lesson; the student steps through its slides on a phone', async () => {
    const { nick, password, room } = await studentWithRoom(tag, 'aula')
    const title = `Frações ${tag}`
    const { page } = await signedInPage('teacher@demo', '/lesson/model/edit/new')
    await hydrated(page)
    await page.getByLabel(pt['resources.lesson.fields.title'], { exact: true }).fill(title)
    const summary = page.getByRole('textbox', { name: pt['lesson.kind.summary'], exact: true })
    await summary.click()
    await summary.pressSequentially('Uma fração representa partes de um todo.')
    await page.getByRole('tab', { name: pt['lesson.kind.slide'] }).click()
    // The slide editor (konva island): a slide with a text box and its narration, a second one, and an empty third.
    const toolbar = page.getByRole('toolbar', { name: pt['slides.toolbar'] })
    await toolbar.waitFor()
    const slideWith = async (text: string, narration?: string) => {
      await page.getByRole('button', { name: pt['slides.add_slide'] }).click()
      await page.getByRole('button', { name: pt['slides.add.text'] }).click()
      const box = page.getByRole('textbox', { name: pt['slides.field.text'], exact: true })
      await box.click()
      await page.keyboard.type(text)
      if (narration) await page.getByLabel(pt['slides.field.narration'], { exact: true }).fill(narration)
    }
    await slideWith('O que é uma fração?', 'Vamos aprender frações.')
    await slideWith('Numerador e denominador')
    // An empty third slide is dropped on save (seed 001 §5).
    await page.getByRole('button', { name: pt['slides.add_slide'] }).click()
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await page.waitForURL((u) => /\/lesson\/model\/edit\/[A-Za-z0-9_-]+$/.test(u.pathname) && !u.pathname.endsWith('/new'))
    const modelId = new URL(page.url()).pathname.split('/').pop()!
    await page.getByRole('tab', { name: pt['lesson.kind.slide'] }).click()
    await expect.poll(() => page.locator('.slide-list .slide-thumb').count()).toBe(2)
    if (process.env.LESSON_SHOTS) await page.screenshot({ path: `${process.env.LESSON_SHOTS}/editor.png`, fullPage: true })

    await page.getByRole('link', { name: pt['tms.model.publish'] }).click()
    await page.waitForURL((u) => u.pathname === '/lesson/lesson/edit/new' && u.searchParams.get('model') === modelId)
    await hydrated(page)
    await page.getByLabel(room.name).check()
    await page.getByRole('button', { name: pt['lesson.publish.submit'] }).click()
    await page.waitForURL((u) => u.pathname === '/lesson/lesson')
    await page.getByRole('cell', { name: title, exact: true }).first().waitFor()

    const phone = await studentLessonOnPhone(nick, password, title)
    expect(await phone.locator('.lesson-apply').textContent()).toContain('Uma fração representa partes de um todo.')
    const count = phone.locator('.lesson-player-count')
    expect(await count.textContent()).toBe(pt['mobile.lesson.slide_of'].replace('{{n}}', '1').replace('{{total}}', '2'))
    expect(await phone.locator('.lesson-player .slide-view').textContent()).toContain('O que é uma fração?')
    expect(await phone.locator('.lesson-narration').textContent()).toBe('Vamos aprender frações.')
    // The slide fills the phone's width (scaled from the 3508 × 2480 page).
    const box = await phone.locator('.lesson-player .slide-view').boundingBox()
    expect(box!.width).toBeGreaterThan(300)
    expect(Math.round((box!.width / box!.height) * 100)).toBe(Math.round((3508 / 2480) * 100))
    await phone.getByRole('button', { name: pt['mobile.lesson.next'] }).click()
    await expect.poll(() => count.textContent()).toBe(pt['mobile.lesson.slide_of'].replace('{{n}}', '2').replace('{{total}}', '2'))
    expect(await phone.locator('.lesson-player .slide-view').textContent()).toContain('Numerador e denominador')
    expect(await phone.getByRole('button', { name: pt['mobile.lesson.next'] }).isDisabled()).toBe(true)
    if (process.env.LESSON_SHOTS) await phone.screenshot({ path: `${process.env.LESSON_SHOTS}/phone.png`, fullPage: true })

    // Exports from the preview: each slide as a 3508 × 2480 PNG, and the deck as a PPTX (a zip with two slides).
    await open(page, url('demo.localhost', `/lesson/model/preview/${modelId}`))
    await hydrated(page)
    const downloads: Download[] = []
    page.on('download', (d) => downloads.push(d))
    await page.getByRole('button', { name: pt['lesson.export.png'] }).click()
    await expect.poll(() => downloads.length).toBe(2)
    expect(downloads.map((d) => d.suggestedFilename())).toEqual([`Frações-${tag}-1.png`, `Frações-${tag}-2.png`])
    const png = await readFile((await downloads[0].path())!)
    expect([...png.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([3508, 2480])
    await page.getByRole('button', { name: pt['lesson.export.pptx'] }).click()
    await expect.poll(() => downloads.length).toBe(3)
    const pptx = downloads[2]
    expect(pptx.suggestedFilename()).toBe(`Frações-${tag}.pptx`)
    const zip = await readFile((await pptx.path())!)
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK')
    expect(zip.includes(Buffer.from('ppt/slides/slide2.xml'))).toBe(true)
    expect(zip.includes(Buffer.from('ppt/slides/slide3.xml'))).toBe(false)
    if (process.env.LESSON_SHOTS) {
      await page.screenshot({ path: `${process.env.LESSON_SHOTS}/preview.png`, fullPage: true })
      await writeFile(`${process.env.LESSON_SHOTS}/slide1.png`, png)
    }
  })
})
