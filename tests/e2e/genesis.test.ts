import { readFileSync } from 'node:fs'
import type { Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, realmApi, signedInPage } from './browser'
import { studentLessonOnPhone, studentWithRoom } from './tms-student-helpers'

/**
 * Lesson generation (issue 18) in the console with the local engine: the demo administrator uploads a PDF source,
 * sees the price of each content and the total, confirms it, watches the progress per content — reloading mid-way
 * and after the end, the job is shown again and resumed — and sees the lesson; then opens it in the lesson editor,
 * adds a formula from the palette to a slide, nudges it, undoes, saves, reloads; publishes it to a student's room, and
 * the student reads the generated summary and slides on a phone.
 */
const pt = catalogues['pt-BR']
const SOURCE = readFileSync(new URL('../fixtures/genesis/ciclo-da-agua.txt', import.meta.url), 'utf8')
const tag = Date.now().toString(36)

/**
 * A real PDF written by hand (what unpdf reads in the Worker): one page per section of `text` (blank-line separated),
 * its lines wrapped at 100 characters, Helvetica in WinAnsi (the fixture is Latin-1).
 */
function pdfOf(text: string): Buffer {
  const esc = (l: string) => l.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)')
  const wrap = (line: string) =>
    line.split(' ').reduce<string[]>((out, word) => {
      const last = out[out.length - 1]
      if (last !== undefined && `${last} ${word}`.length <= 100) out[out.length - 1] = `${last} ${word}`
      else out.push(word)
      return out
    }, [])
  const pages = text
    .trim()
    .split(/\n\s*\n/)
    .map((section) => section.split('\n').flatMap(wrap))
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]
  pages.forEach((lines, i) => {
    const stream = ['BT', '/F1 9 Tf', '12 TL', '40 800 Td', ...lines.map((l) => `(${esc(l)}) Tj T*`), 'ET'].join('\n')
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`)
    objects.push(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`)
  })
  let out = '%PDF-1.4\n'
  const offsets = objects.map((body, i) => {
    const at = Buffer.byteLength(out, 'latin1')
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
    return at
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

describe('genesis/lesson_model/generate', () => {
  it('generates a lesson from an uploaded PDF with the local engine, credits confirmed, progress shown and found again after reloads; the student reads it on a phone', async () => {
    const { nick, password, room } = await studentWithRoom(tag, 'gerada')
    const title = `Ciclo da água ${tag}`
    const { page } = await signedInPage('root', '/genesis/lesson_model/generate')
    expectConsoleErrors(page)
    await hydrated(page)
    expect(await page.getByText(pt['genesis.engine_local']).count()).toBe(1)
    await page.getByLabel(pt['genesis.title'], { exact: true }).fill(title)
    await page.getByLabel(pt['genesis.file']).setInputFiles({ name: 'ciclo-da-agua.pdf', mimeType: 'application/pdf', buffer: pdfOf(SOURCE) })
    await expect.poll(() => page.getByText(pt['genesis.file_ready'].replace('{{name}}', 'ciclo-da-agua.pdf')).count(), { timeout: 20_000 }).toBe(1)
    // The lesson picker lists the realm's lesson models (the demo's model at least).
    const found = page.getByRole('list', { name: pt['genesis.lesson_found'] })
    await expect.poll(() => found.getByRole('listitem').count()).toBeGreaterThan(0)
    // Searching narrows the list; one is chosen (and removed again: this generation reads the PDF alone).
    await page.getByRole('searchbox', { name: pt['genesis.lesson_search'] }).fill('nenhuma-aula-com-este-título')
    await page.getByText(pt['genesis.lesson_none']).waitFor()
    await page.getByRole('searchbox', { name: pt['genesis.lesson_search'] }).fill('')
    await expect.poll(() => found.getByRole('listitem').count()).toBeGreaterThan(0)
    const first = (await found.getByRole('listitem').first().locator('span').first().textContent())!.replace(/\s*\(.*\)$/, '').trim()
    // The button says "Use as a source", its accessible name adds the lesson's title.
    const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    await found.getByRole('button', { name: new RegExp(`^${escape(pt['genesis.lesson_use'])}\\s*:\\s*${escape(first)}$`) }).click()
    await page.getByText(pt['genesis.lesson_chosen'].replace('{{title}}', first)).waitFor()
    await page.screenshot({ path: '/tmp/genesis-form.png', fullPage: true })
    await page.getByRole('button', { name: pt['genesis.lesson_remove'] }).click()
    await found.waitFor()
    // Demo prices: 5 + 10 + 15 + 20 + 25 + 10 + 5.
    expect(await page.getByTestId('genesis-total').textContent()).toBe(pt['genesis.points'].replace('{{count}}', '90'))
    await page.getByRole('button', { name: pt['genesis.generate'] }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.textContent()).toContain(pt['genesis.confirm_message'].replace('{{count}}', '90'))
    // The page's requests to run the next content: two go through, the third is held (the server never sees it).
    const held: Route[] = []
    let runs = 0
    await page.route(/\/genesis\/lesson_model\/generate\.data/, (route) => {
      const run = route.request().method() === 'POST' && (route.request().postData() ?? '').includes('"intent":"run"')
      if (run && ++runs > 2) held.push(route)
      else void route.continue()
    })
    await dialog.getByRole('button', { name: pt['genesis.confirm'] }).click()
    const progress = page.locator('ul.genesis-progress')
    await expect.poll(() => progress.textContent(), { timeout: 20_000 }).toContain(pt['genesis.progress_of.summary'])
    await expect.poll(() => progress.locator('li[data-status="done"]').count(), { timeout: 20_000 }).toBe(2)
    await expect.poll(() => held.length).toBe(1)
    // The job is in the address: a reload mid-way shows it again (two contents done) and resumes it to the end.
    await page.waitForURL((u) => Boolean(u.searchParams.get('job')))
    const jobId = new URL(page.url()).searchParams.get('job')!
    await page.unroute(/\/genesis\/lesson_model\/generate\.data/)
    await page.reload()
    await Promise.all(held.map((r) => r.abort().catch(() => undefined)))
    await hydrated(page)
    expect(new URL(page.url()).searchParams.get('job')).toBe(jobId)
    await expect.poll(() => progress.locator('li').count()).toBe(7)
    await expect.poll(() => page.getByRole('heading', { level: 2, name: pt['genesis.job.done'] }).count(), { timeout: 60_000 }).toBe(1)
    expect(await progress.locator('li[data-status="done"]').count()).toBe(7)
    // Reloaded after the end: the finished job and its lesson, and the job first in the user's recent generations.
    await page.reload()
    await hydrated(page)
    expect(await page.getByRole('heading', { level: 2, name: pt['genesis.job.done'] }).count()).toBe(1)
    const recent = page.getByRole('region', { name: pt['genesis.recent'] })
    expect(await recent.getByRole('listitem').first().textContent()).toContain(title)
    expect(await recent.getByRole('link', { name: title }).getAttribute('aria-current')).toBe('page')
    // "New generation" goes back to the form; the recent job link brings the result back.
    await page.getByRole('link', { name: pt['genesis.new_generation'] }).click()
    await page.getByRole('button', { name: pt['genesis.generate'] }).waitFor()
    await recent.getByRole('link', { name: title }).click()
    await page.getByRole('heading', { level: 2, name: pt['genesis.job.done'] }).waitFor()
    const result = page.getByRole('article')
    expect(await result.getByRole('heading', { name: pt['genesis.kind.summary'] }).count()).toBe(1)
    expect(await result.textContent()).toContain('Evaporação')
    await page.screenshot({ path: '/tmp/genesis-result.png', fullPage: true })

    // Opened in the lesson editor: the generated slides in the slide editor.
    await page.getByRole('button', { name: pt['genesis.open_lesson'] }).click()
    await page.waitForURL((u) => /^\/lesson\/model\/edit\/[A-Za-z0-9_-]+$/.test(u.pathname) && !u.pathname.endsWith('/new'))
    const lessonId = new URL(page.url()).pathname.split('/').pop()!
    await hydrated(page)
    const root = await realmApi('demo', 'root')
    type Stored = { slides: { objects: { kind: string; latex?: string; x: number; y: number }[] }[] }
    const generated = await root<Stored>('GET', `lesson/model/${lessonId}`)
    expect(generated.slides.length).toBeGreaterThan(0)
    await page.getByRole('tab', { name: pt['lesson.kind.slide'] }).click()
    await page.getByRole('toolbar', { name: pt['slides.toolbar'] }).waitFor()
    await expect.poll(() => page.locator('.slide-list .slide-thumb').count()).toBe(generated.slides.length)
    // The generated boxes are named in the lesson's language in the layers panel.
    const layers = page.getByRole('list', { name: pt['slides.layers'] })
    expect(await layers.getByRole('button', { name: 'Título', exact: true }).count()).toBe(1)
    expect(await layers.getByRole('button', { name: 'Texto', exact: true }).count()).toBe(1)

    // A formula from the palette on the first slide, nudged by keyboard, the nudge undone.
    await page.getByRole('button', { name: pt['slides.add.formula'] }).click()
    const dialog2 = page.getByRole('dialog', { name: pt['slides.add.formula'] })
    await dialog2.getByRole('tab', { name: pt['formula.palette.fractions'] }).click()
    await dialog2.getByRole('button', { name: pt['formula.insert_symbol'].replace('{{latex}}', '\\frac{a}{b}') }).click()
    await page.keyboard.type('1')
    await dialog2.getByRole('button', { name: pt['slides.formula.place'] }).click()
    const layer = page.getByRole('list', { name: pt['slides.layers'] }).getByRole('button', { name: /1$/ }).last()
    await layer.focus()
    const y = Number(await page.getByLabel('Y', { exact: true }).inputValue())
    await page.keyboard.press('Shift+ArrowDown')
    await expect.poll(() => page.getByLabel('Y', { exact: true }).inputValue()).toBe(String(y + 100))
    await page.keyboard.press('Control+z')
    await expect.poll(() => page.getByLabel('Y', { exact: true }).inputValue()).toBe(String(y))
    await page.screenshot({ path: '/tmp/lesson-slide-editor.png' })
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    const formulaOf = (l: Stored) => l.slides[0].objects.find((o) => o.kind === 'formula')
    await expect.poll(async () => formulaOf(await root<Stored>('GET', `lesson/model/${lessonId}`))?.latex).toBe('\\frac{1}{b}')
    const saved = await root<Stored>('GET', `lesson/model/${lessonId}`)
    expect(formulaOf(saved)?.y).toBe(y)

    // Reloaded and saved again unedited: the same slides.
    await page.reload()
    await hydrated(page)
    await page.getByRole('tab', { name: pt['lesson.kind.slide'] }).click()
    await page.getByRole('toolbar', { name: pt['slides.toolbar'] }).waitFor()
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await expect.poll(() => page.getByRole('button', { name: pt['tms.editor.save'] }).isEnabled()).toBe(true)
    expect((await root<Stored>('GET', `lesson/model/${lessonId}`)).slides).toEqual(saved.slides)

    // Published to the student's room, as a teacher publishes any lesson.
    await page.getByRole('link', { name: pt['tms.model.publish'] }).click()
    await page.waitForURL((u) => u.pathname === '/lesson/lesson/edit/new' && u.searchParams.get('model') === lessonId)
    await hydrated(page)
    await page.getByLabel(room.name).check()
    await page.getByRole('button', { name: pt['lesson.publish.submit'] }).click()
    await page.waitForURL((u) => u.pathname === '/lesson/lesson')

    // The student, on a phone: the generated summary (sentences of the PDF) and the generated slides.
    const summary = (await root<{ summary: string }>('GET', `lesson/model/${lessonId}`)).summary
    // Whole sentences of the PDF (its wrapped lines joined back), each one as the source has it.
    const sentences = summary
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=[.!?])\s+/)
    for (const s of sentences) {
      expect(s).toMatch(/^\p{Lu}/u)
      expect(SOURCE.replace(/\s+/g, ' ')).toContain(s.replace(/…$/, ''))
    }
    const sentence = sentences[0]
    const phone = await studentLessonOnPhone(nick, password, title)
    expect(await phone.locator('.lesson-apply').textContent()).toContain(sentence)
    const count = phone.locator('.lesson-player-count')
    expect(await count.textContent()).toBe(pt['mobile.lesson.slide_of'].replace('{{n}}', '1').replace('{{total}}', String(generated.slides.length)))
    expect(await phone.locator('.lesson-player .slide-view').textContent()).toContain(title)
    await phone.getByRole('button', { name: pt['mobile.lesson.next'] }).click()
    await phone.getByRole('button', { name: pt['mobile.lesson.next'] }).click()
    await expect.poll(() => count.textContent()).toBe(pt['mobile.lesson.slide_of'].replace('{{n}}', '3').replace('{{total}}', String(generated.slides.length)))
    expect(await phone.locator('.lesson-player .slide-view').textContent()).toContain('Evaporação')
    await phone.screenshot({ path: '/tmp/genesis-phone.png', fullPage: true })
  }, 240_000)
})
