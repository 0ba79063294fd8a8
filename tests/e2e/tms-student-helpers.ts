import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, open, openPage, realmApi, url } from './browser'

/** A phone's viewport (the student screens of the mobile web are phone first). */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/**
 * A student of the demo realm made for one test (their own nick, password and room), and the platform operator
 * publishing task models to that room with the realm's required categories chosen: what the mobile task tests share,
 * so none of them leans on demo accounts another file changes.
 */
export async function studentWithRoom(tag: string, label: string) {
  const root = await realmApi('demo', 'root')
  const teacher = await realmApi('demo', 'platform')
  const nick = `${label}-${tag}`
  const password = `senha-${label}-1`
  await root('POST', 'mas/user', { nick, name: `Aluno ${label}`, password, roles: [] })
  const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Turma ${label} ${tag}` })
  await root('POST', `room/room/${room.id}/member`, { nick })
  /** Publishes a model (its fields as the model API takes them) to the student's room; `task` adds task fields. */
  const publish = async (model: Record<string, unknown>, task: Record<string, unknown> = {}) => {
    const made = await teacher<{ id: string }>('POST', 'tms/model', model)
    const { categories } = await teacher<{ categories: { id: string; parent_id: string | null; required: boolean; selectable: boolean }[] }>(
      'GET',
      `tms/task/options/${made.id}`,
    )
    // For each required root, itself when selectable, else a selectable category under it (any depth).
    const under = (id: string): string | undefined => {
      const children = categories.filter((c) => c.parent_id === id)
      return children.find((c) => c.selectable)?.id ?? children.map((c) => under(c.id)).find(Boolean)
    }
    const chosen = categories.filter((c) => c.required && !c.parent_id).map((r) => (r.selectable ? r.id : under(r.id)!))
    return teacher<{ id: string; expire_at: string }>('POST', 'tms/task', { model_id: made.id, rooms: [room.id], categories: chosen, ...task })
  }
  return { root, teacher, nick, password, room, publish }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical violations on the page as it is (the console's axe walk leaves public pages out). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
  })
}

/** Opens a mobile-web page of the demo realm (`path`) on `page` and signs in with its form as the student. */
export async function mobileSignIn(page: Page, path: string, nick: string, password: string): Promise<void> {
  const pt = catalogues['pt-BR']
  await open(page, url('demo.localhost', path))
  await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
  await page.getByLabel(pt['mobile.feed.password']).fill(password)
  await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
}

/** Opens a task's apply screen on `page` and signs in there with the mobile-web form, until the questions show. */
export async function applyScreen(page: Page, taskId: string, nick: string, password: string): Promise<void> {
  await mobileSignIn(page, `/mobile/tms/task/${taskId}/apply`, nick, password)
  await page.waitForSelector('.mtms-questions')
  await hydrated(page)
}

/** A phone signed in as the student on /mobile/lesson, the lesson titled `title` opened (its apply screen, hydrated). */
export async function studentLessonOnPhone(nick: string, password: string, title: string): Promise<Page> {
  const pt = catalogues['pt-BR']
  const phone = (await openPage(PHONE)).page
  await mobileSignIn(phone, '/mobile/lesson', nick, password)
  await phone.waitForSelector('.mtms-list')
  await hydrated(phone)
  await phone.getByRole('heading', { name: title }).waitFor()
  await phone
    .locator('li', { has: phone.getByRole('heading', { name: title }) })
    .getByRole('link', { name: pt['mobile.lesson.open'] })
    .click()
  await phone.waitForURL((u) => u.pathname.endsWith('/apply'))
  await hydrated(phone)
  return phone
}
