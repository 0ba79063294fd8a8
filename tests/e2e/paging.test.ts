import { beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { localFetch as fetch } from '../support/local-fetch'
import { open, openPage, signInOnScreen, url } from './browser'

/**
 * The list pager in the browser: pages read by cursor (next, previous, first, last), each URL reloadable, the
 * position shown ("26–50 de 60") and the rows in order. Runs on a generic list (textual genres) holding 60 rows
 * of its own (created through the API, found by a search on their tag).
 */
const pt = catalogues['pt-BR']
const tag = `pg${Date.now().toString(36)}`
const ROWS = 60
const names = Array.from({ length: ROWS }, (_, i) => `Gênero ${tag} ${String(i + 1).padStart(2, '0')}`)

beforeAll(async () => {
  const base = url('demo.localhost', '')
  const device = await fetch(`${base}/api/device`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
  })
  const { auth_token: token } = (await device.json()) as { auth_token: string }
  for (const name of names) {
    const res = await fetch(`${base}/api/tms/genre`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': token },
      body: JSON.stringify({ name, min_words: 10, max_words: 100 }),
    })
    expect(res.status).toBe(201)
  }
})

describe('list paging by cursor', () => {
  it('goes next, last, previous and first; every page survives a reload', async () => {
    const { context, page } = await openPage({ viewport: { width: 1366, height: 900 } })
    await open(page, url('demo.localhost', `/tms/genre?like=${tag}&order=name`))
    await signInOnScreen(page, 'root')
    await page.waitForSelector('html[data-hydrated="true"]')
    const firstCells = () => page.locator('table tbody tr td:first-child').allTextContents()
    const range = (text: string) => expect.poll(() => page.getByText(text, { exact: true }).count()).toBe(1)
    const pager = (name: string) => page.getByRole('link', { name })
    const check = async (from: number, to: number) => {
      await range(`${from}–${to} de ${ROWS}`)
      expect((await firstCells()).map((c) => c.trim())).toEqual(names.slice(from - 1, to))
    }

    await check(1, 25)
    expect(await pager(pt['table.previous']).count()).toBe(0)
    await pager(pt['table.next']).click()
    await page.waitForURL((u) => u.searchParams.has('after'))
    await check(26, 50)
    await page.reload()
    await check(26, 50)

    // The last page is the last 25 rows (the order read backwards); the pages before it follow from there.
    await pager(pt['table.last']).click()
    await page.waitForURL((u) => u.searchParams.get('last') === '1')
    await check(36, 60)
    expect(await pager(pt['table.next']).count()).toBe(0)

    await pager(pt['table.previous']).click()
    await page.waitForURL((u) => u.searchParams.has('before'))
    await check(11, 35)
    await page.reload()
    await check(11, 35)
    await pager(pt['table.previous']).click()
    await page.waitForURL((u) => !u.searchParams.has('before') && !u.searchParams.has('after'))
    await check(1, 25)
    await pager(pt['table.last']).click()
    await page.waitForURL((u) => u.searchParams.get('last') === '1')

    await pager(pt['table.first']).click()
    await page.waitForURL((u) => !u.searchParams.has('before') && !u.searchParams.has('after'))
    await check(1, 25)

    // Sorting the other way starts again from the first page of the new order.
    await pager(pt['table.next']).click()
    await page.waitForURL((u) => u.searchParams.has('after'))
    await page
      .getByRole('columnheader', { name: new RegExp(pt['resources.tms_genre.fields.name']) })
      .getByRole('link')
      .click()
    await page.waitForURL((u) => u.searchParams.get('order') === '-name' && !u.searchParams.has('after'))
    await range(`1–25 de ${ROWS}`)
    expect((await firstCells())[0].trim()).toBe(names[ROWS - 1])
    await context.close()
  })
})
