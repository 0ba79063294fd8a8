import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, open, openPage, url } from './browser'
import { PHONE, axeViolations, studentWithRoom } from './tms-student-helpers'

/**
 * The offline client of the mobile web (issue 17, seed 001 §3 "Offline", §5 "Must be online to send for review"): a
 * student downloads a timed task (its page, the question's image, the task and its start receipt), the browser goes
 * offline (the context's offline mode), answers, reloads the page offline (the service worker answers the downloaded
 * copy; the answers come back from IndexedDB and the clock keeps running), delivers (queued on the device), comes back
 * online, and the delivery is synchronised once: the teacher sees exactly one submitted answer, marked offline.
 * A second test: the same offline delivery synchronised twice counts once (409 answer_already_registered is
 * "synchronised"), the sync route refuses bad input, and a task not downloaded says the network is needed to deliver.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
/** A catalogue text up to its first placeholder (the part a test can match before the date is filled in). */
const head = (key: string) => pt[key].split('{{')[0]

/** What the page's device storage holds for a task (IndexedDB `realm-offline`, store `tasks`). */
function storedAnswers(page: Page, taskId: string) {
  return page.evaluate(
    (id) =>
      new Promise<Record<string, unknown> | null>((resolve, reject) => {
        const req = indexedDB.open('realm-offline')
        req.onerror = () => reject(req.error)
        req.onsuccess = () => {
          const all = req.result.transaction('tasks').objectStore('tasks').getAll()
          all.onsuccess = () => resolve((all.result as { task_id: string; answers?: Record<string, unknown> }[]).find((r) => r.task_id === id)?.answers ?? null)
        }
      }),
    taskId,
  )
}

async function signIn(page: Page, nick: string, password: string) {
  await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
  await page.getByLabel(pt['mobile.feed.password']).fill(password)
  await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
  await page.waitForSelector('.mtms-questions')
  await hydrated(page)
}

const questions = [
  { type: 'info', statement: '<p>Observe a imagem.</p>', media_type: 'img', media_url: url('demo.localhost', '/favicon.svg') },
  {
    type: 'single',
    statement: '<p>Quantos lados tem um triângulo?</p>',
    score: 1,
    options: [
      { statement: '<p>Três</p>', answer: true },
      { statement: '<p>Quatro</p>', answer: false },
    ],
  },
  { type: 'text', statement: '<p>Explique em uma frase.</p>', score: 1, options: { min_text_count: 1, max_text_count: 50 } },
]

describe('the offline client on a phone', () => {
  it('downloads a timed task, answers offline across a reload, and synchronises the delivery once', async () => {
    const { root, nick, password, publish } = await studentWithRoom(tag, 'offline')
    const task = await publish({ title: `Prova offline ${tag}`, questions, max_execution_time: 30 }, { show_timer: true })
    const { page, context } = await openPage(PHONE)
    // Offline, what the page still asks of the network fails (the version poll, the rest of the catalogue, Remix's
    // route discovery): those are the expected errors of this test.
    expectConsoleErrors(page, /net::ERR_INTERNET_DISCONNECTED/, /Failed to fetch/, /Failed to load resource/)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await signIn(page, nick, password)
    // The service worker (production build) controls the page before a download.
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 20_000 }).toBe(true)

    const panel = page.locator('.mtms-offline')
    expect(await panel.textContent()).toContain(pt['mobile.tms.offline.hint'])
    await panel.getByRole('button', { name: pt['mobile.tms.offline.download'] }).click()
    await expect.poll(() => panel.getAttribute('data-offline'), { timeout: 20_000 }).toBe('downloaded')
    expect(await panel.textContent()).toContain(head('mobile.tms.offline.downloaded'))
    await page.screenshot({ path: '/tmp/mtms-offline-downloaded.png' })

    // The network goes away; the student answers (kept on the device at every change).
    await context.setOffline(true)
    await expect.poll(() => panel.textContent()).toContain(pt['mobile.tms.offline.you_are_offline'])
    await page.getByRole('radio', { name: 'Três' }).check()
    await page.getByLabel(pt['mobile.tms.apply.your_answer'].replace('{{n}}', '3')).fill('É a sede do governo.')
    await expect.poll(() => storedAnswers(page, task.id).then((a) => Object.keys(a ?? {}).length)).toBe(2)

    // A reload without network: the downloaded copy, the answers back from IndexedDB, the image from the cache.
    await page.evaluate(() => delete document.documentElement.dataset.hydrated)
    await page.reload()
    await hydrated(page)
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-offline-copy'))).toBe(true)
    await page.waitForSelector('.mtms-offline[data-offline="downloaded"]')
    await expect.poll(() => page.getByRole('radio', { name: 'Três' }).isChecked()).toBe(true)
    expect(await page.getByLabel(pt['mobile.tms.apply.your_answer'].replace('{{n}}', '3')).inputValue()).toBe('É a sede do governo.')
    await expect.poll(() => page.locator('img.media-img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    // The clock runs offline from the signed open time (30 minutes at most).
    await expect.poll(() => page.locator('.mtms-footer').textContent()).toMatch(/(29|30):\d\d/)
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: '/tmp/mtms-offline-apply.png', fullPage: true })
    // A tab closed and opened again, still offline: the same answers.
    const other = await context.newPage()
    await other.goto(url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await hydrated(other)
    await expect.poll(() => other.getByRole('radio', { name: 'Três' }).isChecked()).toBe(true)
    await other.close()

    // Deliver offline: the confirmation, then the delivery waits on the device; the form locks.
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    const confirm = page.getByRole('dialog', { name: pt['mobile.tms.apply.confirm_title'] })
    await confirm.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await page.waitForSelector('.mtms-offline[data-offline="queued"]')
    expect(await page.locator('.mtms-offline').textContent()).toContain(head('mobile.tms.offline.queued'))
    expect(await page.getByRole('radio', { name: 'Três' }).isDisabled()).toBe(true)
    // Nothing reached the server yet.
    expect((await root<{ items: unknown[] }>('GET', `tms/answer?task_id=${task.id}`)).items).toHaveLength(0)

    // The task list offline: the offline tab first, the task waiting to be sent.
    await page.evaluate(() => delete document.documentElement.dataset.hydrated)
    await page.goto(url('demo.localhost', '/mobile/tms'))
    await hydrated(page)
    await expect.poll(() => page.getByRole('tab', { name: new RegExp(pt['mobile.tms.offline.mode.offline']) }).getAttribute('aria-selected')).toBe('true')
    const card = page.locator(`#mtms-panel-offline .mtms-task[data-task="${task.id}"]`)
    await expect.poll(() => card.getAttribute('data-offline')).toBe('queued')
    await page.screenshot({ path: '/tmp/mtms-offline-list.png', fullPage: true })
    expect(await axeViolations(page)).toEqual([])

    // Back online: the delivery is synchronised (the online event), once.
    await context.setOffline(false)
    await expect.poll(() => card.getAttribute('data-offline'), { timeout: 20_000 }).toBe('synced')
    const answers = await root<{ items: { status: string; offline: boolean; score: number }[] }>('GET', `tms/answer?task_id=${task.id}`)
    expect(answers.items).toHaveLength(1)
    expect(answers.items[0]).toMatchObject({ status: 'submitted', offline: true, score: 1 })

    // A later load syncs nothing more; removing the download empties the device's list.
    await open(page, url('demo.localhost', '/mobile/tms'))
    await page.getByRole('tab', { name: new RegExp(pt['mobile.tms.offline.mode.offline']) }).click()
    await card.getByRole('button', { name: pt['mobile.tms.offline.remove'] }).click()
    await expect.poll(() => page.locator('#mtms-panel-offline').textContent()).toContain(pt['mobile.tms.offline.empty'])
    expect((await root<{ items: unknown[] }>('GET', `tms/answer?task_id=${task.id}`)).items).toHaveLength(1)
  }, 180_000)

  it('counts an offline delivery synchronised twice once, refuses bad input, and needs the network for a task not downloaded', async () => {
    const { root, nick, password, publish } = await studentWithRoom(tag, 'resync')
    const task = await publish({ title: `Prova ressincronizada ${tag}`, questions: questions.slice(1) })
    const { page, context } = await openPage(PHONE)
    expectConsoleErrors(page, /net::ERR_INTERNET_DISCONNECTED/, /Failed to fetch/, /Failed to load resource/)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await signIn(page, nick, password)

    // The receipt and the question ids as the page has them; two syncs of one delivery, as a device would resend it.
    const { receipt, single, option } = await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('form.mtms-apply')!
      const radio = form.querySelector<HTMLInputElement>('input[type=radio]')!
      return { receipt: form.querySelector<HTMLInputElement>('input[name=receipt]')!.value, single: radio.name.slice('q.option.'.length), option: radio.value }
    })
    const sync = (body: unknown) =>
      page.evaluate(async (b) => {
        const res = await fetch('/mobile/tms/sync', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })
        return { status: res.status, body: (await res.json()) as { synced: boolean; already?: boolean; errors?: { field: string; cause: string }[] } }
      }, body)
    const delivery = { task_id: task.id, answer_id: crypto.randomUUID(), receipt, answers: { [single]: { option } }, elapsed_ms: 5_000 }
    expect(await sync(delivery)).toEqual({ status: 200, body: { synced: true, already: false } })
    expect(await sync(delivery)).toEqual({ status: 200, body: { synced: true, already: true } })
    const answers = await root<{ items: { status: string; offline: boolean }[] }>('GET', `tms/answer?task_id=${task.id}`)
    expect(answers.items).toHaveLength(1)
    expect(answers.items[0]).toMatchObject({ status: 'submitted', offline: true })
    // Another id for the delivered answer is a refusal kept for the student (already submitted), not a second one.
    const other = await sync({ ...delivery, answer_id: crypto.randomUUID() })
    expect(other.status).toBe(409)
    expect(other.body.errors?.[0]?.cause).toBe('already_submitted')
    // Bad input: the envelope, nothing sent.
    const bad = await sync({ ...delivery, answer_id: 'x', elapsed_ms: -1 })
    expect(bad.status).toBe(400)
    expect(bad.body.errors?.map((e) => e.field).sort()).toEqual(['answer_id', 'elapsed_ms'])
    // Without the mobile session: 401, which the device keeps waiting on (the student signs in again).
    const anonymous = await fetch(url('localhost', '/mobile/tms/sync?realm=demo'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...delivery, answer_id: crypto.randomUUID() }),
    })
    expect(anonymous.status).toBe(401)
    expect(((await anonymous.json()) as { errors: { cause: string }[] }).errors[0].cause).toBe('unauthorized')
    expect((await root<{ items: unknown[] }>('GET', `tms/answer?task_id=${task.id}`)).items).toHaveLength(1)

    // A task not downloaded, offline: delivering says the network is needed, and nothing is queued.
    const second = await publish({ title: `Prova sem download ${tag}`, questions: questions.slice(1) })
    await open(page, url('demo.localhost', `/mobile/tms/task/${second.id}/apply`))
    await page.waitForSelector('.mtms-offline[data-offline="none"]')
    // A device without room: "cache storage full" (the Cache API's QuotaExceededError), nothing downloaded.
    const cdp = await context.newCDPSession(page)
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(url('demo.localhost')).origin, quotaSize: 1 })
    await page.locator('.mtms-offline').getByRole('button', { name: pt['mobile.tms.offline.download'] }).click()
    await expect.poll(() => page.locator('.mtms-offline [role=alert]').textContent(), { timeout: 20_000 }).toBe(pt['mobile.tms.offline.error.cache_full'])
    expect(await page.locator('.mtms-offline').getAttribute('data-offline')).toBe('none')
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(url('demo.localhost')).origin })
    await context.setOffline(true)
    await page.getByRole('radio', { name: 'Três' }).check()
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await page.getByRole('dialog', { name: pt['mobile.tms.apply.confirm_title'] }).getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await expect.poll(() => page.locator('.mtms-footer [role=alert]').textContent()).toBe(pt['mobile.tms.offline.need_online'])
    expect(await page.locator('.mtms-offline').textContent()).toContain(pt['mobile.tms.offline.not_downloaded'])
    await context.setOffline(false)
    expect((await root<{ items: unknown[] }>('GET', `tms/answer?task_id=${second.id}`)).items).toHaveLength(0)
  }, 120_000)
})
