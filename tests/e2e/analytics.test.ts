import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { d1Execute } from './d1'
import { signedInPage } from './browser'

const pt = catalogues['pt-BR']

/** Today in São Paulo (the demo realm's calendar), ISO. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())

/** The rows of a section's table (the region named by its title), as cell texts. */
async function tableOf(page: Page, title: string): Promise<string[][]> {
  const region = page.getByRole('region', { name: title })
  return region.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')))
}

/** The page's address with another query. */
const withQuery = (page: Page, query: string) => `${new URL(page.url()).origin}${new URL(page.url()).pathname}?${query}`

/** The CSV behind a section's export link, fetched with the page's session. */
async function csvOf(page: Page, title: string): Promise<{ status: number; type: string; text: string }> {
  const href = await page.getByRole('region', { name: title }).getByRole('link', { name: pt['table.export_csv'] }).getAttribute('href')
  // Fetched by the page itself (its cookie, its host), as the download link would.
  return page.evaluate(async (target) => {
    const res = await fetch(target)
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
  }, href!)
}

describe('analytics and session reports in the browser', () => {
  it('walks the three analytics tabs with today’s figures and with an empty period, and downloads a CSV', async () => {
    const day = today()
    const { context, page, errors } = await signedInPage('root', `/analytics/general?period=day&start_at=${day}&end_at=${day}`)
    await page.getByRole('heading', { level: 1, name: pt['pages.analytics.general'] }).waitFor()
    const tabs = page.getByRole('navigation', { name: pt['analytics.tabs'] })
    expect(await tabs.getByRole('link').allTextContents()).toEqual(
      ['tab.general', 'tab.activity', 'tab.session', 'tab.credits'].map((k) => pt[`analytics.${k}`]),
    )
    // Root signed in just now: today counts at least that sign-in and one active user.
    const overview = pt['analytics.section.overview']
    const [row] = await tableOf(page, overview)
    expect(row[0]).toBe(day)
    expect(Number(row[1])).toBeGreaterThanOrEqual(1)
    expect(Number(row[2])).toBeGreaterThanOrEqual(1)
    const csv = await csvOf(page, overview)
    expect(csv.status).toBe(200)
    expect(csv.type).toContain('text/csv')
    expect(csv.text.split(/\r?\n/)[0]).toContain(pt['analytics.column.active_users'])
    expect(csv.text).toContain(day)
    await page.screenshot({ path: '/tmp/analytics-general.png', fullPage: true })

    await tabs.getByRole('link', { name: pt['analytics.tab.activity'] }).click()
    await page.getByRole('heading', { level: 1, name: pt['pages.analytics.task'] }).waitFor()
    for (const s of ['deliveries', 'funnel', 'scores_by_category', 'scores_by_skill', 'essay_errors'])
      expect(await page.getByRole('region', { name: pt[`analytics.section.${s}`] }).count()).toBe(1)
    const funnel = await tableOf(page, pt['analytics.section.funnel'])
    expect(funnel.map((r) => r[0])).toEqual(['published', 'opened', 'delivered', 'corrected'].map((s) => pt[`analytics.column.${s}`]))

    await page.getByRole('navigation', { name: pt['analytics.tabs'] }).getByRole('link', { name: pt['analytics.tab.session'] }).click()
    await page.getByRole('heading', { level: 1, name: pt['pages.analytics.session'] }).waitFor()
    expect(await page.getByRole('region', { name: pt['analytics.section.vod'] }).count()).toBe(1)

    // A week long before the realm existed: every section says there is no data.
    await page.goto(withQuery(page, 'period=day&start_at=2020-01-01&end_at=2020-01-07'))
    await page.getByRole('heading', { level: 1, name: pt['pages.analytics.session'] }).waitFor()
    const sessions = page.getByRole('region', { name: pt['analytics.section.sessions'] })
    expect(await sessions.getByRole('status').filter({ hasText: pt['ledger.report.empty'] }).count()).toBe(1)
    expect((await tableOf(page, pt['analytics.section.sessions'])).length).toBe(7)

    // Too long a range for days: the form says so and nothing is fetched.
    await page.goto(withQuery(page, 'period=day&start_at=2026-01-01&end_at=2026-03-01'))
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(pt['ledger.validation.period_too_long'])
    expect(await page.getByRole('status').filter({ hasText: pt['ledger.report.fix_period'] }).count()).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it('shows the session reports with a watched video, and none in an empty period', async () => {
    const id = `e2e-an-${crypto.randomUUID().slice(0, 8)}`
    const title = `Aula analítica ${id.slice(-4)}`
    const now = new Date().toISOString()
    // A published session of the demo realm with a 120 s video that the student watched 60 s of today.
    await d1Execute(
      `INSERT INTO csm_session (id, realm, title, channel_id, reference_date, recorded_in, status, video_status, started_at, ended_at, created_at, watch_bucket)
         VALUES ('${id}', 'demo', '${title}', '', '${today()}', 'upload', 'published', 'complete', '${now}', '${now}', '${now}', 30);
       INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, status, size, duration_seconds, started_at, source)
         VALUES ('rec-${id}', 'demo', 'channel', '', '${id}', 'teacher', 'k', 'up', 5242880, 'video/webm', 'complete', 10, 120, '${now}', 'upload');
       INSERT INTO csm_watch (session_id, nick, slot, realm, watched_at) VALUES ('${id}', 'student', 0, 'demo', '${now}'), ('${id}', 'student', 1, 'demo', '${now}');`,
    )
    const day = today()
    const { context, page, errors } = await signedInPage('root', `/reports/session?report=video_ranking&period=day&start_at=${day}&end_at=${day}`)
    await page.getByRole('heading', { level: 1, name: pt['pages.reports.session'] }).waitFor()
    const reports = page.getByRole('navigation', { name: pt['analytics.reports'] })
    expect(await reports.getByRole('link', { name: pt['analytics.report.video_ranking'] }).getAttribute('aria-current')).toBe('page')
    const ranking = await tableOf(page, pt['analytics.section.video_ranking'])
    const mine = ranking.find((r) => r[0] === title)
    expect(mine).toBeDefined()
    // Viewers 1, one minute of two watched (50 %).
    expect(mine!.slice(3)).toEqual(['1', '1', '50'])
    const csv = await csvOf(page, pt['analytics.section.video_ranking'])
    expect(csv.status).toBe(200)
    expect(csv.text).toContain(title)

    const studentTab = reports.getByRole('link', { name: pt['analytics.report.student'] })
    await studentTab.click()
    await expect.poll(() => studentTab.getAttribute('aria-current')).toBe('page')
    // Without a student it asks for one, with no error yet.
    expect(await page.getByRole('status').filter({ hasText: pt['analytics.failure.need_nick'] }).count()).toBe(1)
    expect(await page.locator('.error-summary').count()).toBe(0)
    await page.getByRole('textbox', { name: pt['analytics.filter.nick'] }).fill('student')
    await page.getByRole('button', { name: pt['ledger.report.apply'] }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get('nick')).toBe('student')
    await expect.poll(async () => (await tableOf(page, pt['analytics.section.student'])).some((r) => r[0] === title)).toBe(true)
    expect(await page.locator('.error-summary').count()).toBe(0)
    await page.screenshot({ path: '/tmp/analytics-student.png', fullPage: true })

    await page.goto(withQuery(page, 'report=user_ranking&period=day&start_at=2020-01-01&end_at=2020-01-02'))
    const users = page.getByRole('region', { name: pt['analytics.section.user_ranking'] })
    await users.waitFor()
    expect(await users.getByRole('status').filter({ hasText: pt['ledger.report.empty'] }).count()).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })
  it('picks a child realm, shows its figures under its name, keeps it on reload and across tabs; a one-realm user has no picker', async () => {
    const id = crypto.randomUUID().slice(0, 8)
    const roomName = `Sala do Sul ${id}`
    const now = new Date().toISOString()
    // demo-sul (a child of demo): a room of its own and a sign-in today.
    await d1Execute(
      `INSERT INTO room (id, realm, name, created_at, updated_at) VALUES ('e2e-an-room-${id}', 'demo-sul', '${roomName}', '${now}', '${now}');
       INSERT INTO session (token_hash, realm, nick, device_id, created_at, last_seen_at, expires_at)
         VALUES ('e2e-an-${id}', 'demo-sul', 'admin@demo-sul', 'e2e', '${now}', '${now}', '2030-01-01T00:00:00.000Z');`,
    )
    const day = today()
    const { context, page, errors } = await signedInPage('root', `/analytics/general?period=day&start_at=${day}&end_at=${day}`)
    await page.getByRole('heading', { level: 1, name: pt['pages.analytics.general'] }).waitFor()
    const scope = (key: string, name: string) => pt[key].replace('{{name}}', name)
    const picker = page.getByRole('combobox', { name: pt['analytics.filter.realm'] })
    const names = (await picker.locator('option').allTextContents()).map((n) => n.replace(/\u00a0/g, '').trim())
    expect(names).toEqual(expect.arrayContaining(['Demo Academy', 'Demo Academy Sul', 'Demo Academy Norte']))
    expect(names).not.toContain('Escola Estadual Modelo')
    expect(await picker.inputValue()).toBe('demo')
    expect(await page.getByText(scope('analytics.scope', 'Demo Academy'), { exact: true }).count()).toBe(1)
    const rooms = page.getByRole('combobox', { name: pt['analytics.filter.room'] })
    expect(await rooms.locator('option').allTextContents()).not.toContain(roomName)

    await picker.selectOption('demo-sul')
    await page.getByRole('button', { name: pt['ledger.report.apply'] }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get('realm')).toBe('demo-sul')
    await page.getByText(scope('analytics.scope', 'Demo Academy Sul'), { exact: true }).waitFor()
    // demo-sul's figures: its rooms in the room filter, its sign-in of today in the overview.
    expect(await rooms.locator('option').allTextContents()).toContain(roomName)
    const [row] = await tableOf(page, pt['analytics.section.overview'])
    expect(row[0]).toBe(day)
    expect(Number(row[2])).toBeGreaterThanOrEqual(1)
    await page.screenshot({ path: '/tmp/analytics-realm-picker.png', fullPage: true })

    // Reload: the choice is in the URL.
    await page.reload()
    await page.getByText(scope('analytics.scope', 'Demo Academy Sul'), { exact: true }).waitFor()
    expect(await page.getByRole('combobox', { name: pt['analytics.filter.realm'] }).inputValue()).toBe('demo-sul')

    // Every tab keeps it, and "include child realms" says so by name.
    await page.getByRole('navigation', { name: pt['analytics.tabs'] }).getByRole('link', { name: pt['analytics.tab.activity'] }).click()
    await page.getByRole('heading', { level: 1, name: pt['pages.analytics.task'] }).waitFor()
    expect(new URL(page.url()).searchParams.get('realm')).toBe('demo-sul')
    await page.getByText(scope('analytics.scope', 'Demo Academy Sul'), { exact: true }).waitFor()
    await page.getByRole('combobox', { name: pt['analytics.filter.realm'] }).selectOption('demo')
    await page.getByRole('checkbox', { name: pt['analytics.filter.children.true'] }).check()
    await page.getByRole('button', { name: pt['ledger.report.apply'] }).click()
    await page.getByText(scope('analytics.scope.children', 'Demo Academy'), { exact: true }).waitFor()
    expect(new URL(page.url()).searchParams.get('children')).toBe('true')
    expect(errors).toEqual([])
    await context.close()

    // demo-sul's administrator: their realm has no children, so no picker and no checkbox; the hint names it.
    const sul = await signedInPage('admin@demo-sul', `/analytics/general?period=day&start_at=${day}&end_at=${day}`, { host: 'demo-sul.localhost' })
    await sul.page.getByRole('heading', { level: 1, name: pt['pages.analytics.general'] }).waitFor()
    await sul.page.getByText(scope('analytics.scope', 'Demo Academy Sul'), { exact: true }).waitFor()
    expect(await sul.page.getByRole('combobox', { name: pt['analytics.filter.realm'] }).count()).toBe(0)
    expect(await sul.page.getByRole('checkbox', { name: pt['analytics.filter.children.true'] }).count()).toBe(0)
    expect(sul.errors).toEqual([])
    await sul.context.close()
  })
})
