import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import type { AnalyticsRealms } from '#shared/schemas/analytics-realms'
import { realmWith } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'

/**
 * The analytics pages' realm picker (issue 19): its options are the caller's realm tree (the rule the analytics and
 * credit queries check), seen through the API and through the page a browser gets.
 */
const pt = catalogues['pt-BR']
const READER = [
  'dashboard_dashboard_access',
  'analytics_analytics_module',
  'analytics_global_module',
  'analytics_tms_module',
  'analytics_csm_module',
  'analytics_ledger_module',
  'reports_reports_module',
]

type Realm = Awaited<ReturnType<typeof realmWith>> & { name: string }
let top: Realm, child: Realm, grandchild: Realm, sibling: Realm, other: Realm, otherChild: Realm

async function named(name: string, values: Record<string, string | number> = {}): Promise<Realm> {
  const r = await realmWith({ time_zone: 'America/Sao_Paulo', ledger_enabled: 1, ...values })
  await env.DB.prepare('UPDATE realm SET name = ? WHERE code = ?').bind(name, r.code).run()
  return { ...r, name }
}

beforeAll(async () => {
  const tag = crypto.randomUUID().slice(0, 4)
  top = await named(`Rede Alfa ${tag}`)
  // Names sort the siblings: "Beta" before "Gama", whatever their creation order.
  sibling = await named(`Gama Escola ${tag}`, { parent_code: top.code })
  child = await named(`Beta Escola ${tag}`, { parent_code: top.code, time_zone: 'America/Manaus' })
  grandchild = await named(`Beta Anexo ${tag}`, { parent_code: child.code })
  // A deleted child: never offered.
  await named(`Apagada ${tag}`, { parent_code: top.code, deleted_at: '2026-01-01T00:00:00.000Z' })
  other = await named(`Outra Rede ${tag}`)
  otherChild = await named(`Outra Escola ${tag}`, { parent_code: other.code })
})

const realmsOf = async (token: string, host: string) => {
  const res = await api(host, 'analytics/realms', { token })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as AnalyticsRealms
}

/** A console page's HTML for a user (its cookie), on the user's realm host. */
const pageOf = async (host: string, cookie: string, path: string) => {
  const res = await call(host, path, { headers: { cookie } })
  expect(res.status, path).toBe(200)
  return res.text()
}

/** The options of the page's realm select (value → text), or null when the page has none. */
function realmOptions(html: string): Record<string, string> | null {
  const select = /<select[^>]*name="realm"[^>]*>([\s\S]*?)<\/select>/.exec(html)
  if (!select) return null
  return Object.fromEntries([...select[1].matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2].replace(/\u00a0/g, '').trim()]))
}

/** The query of the page's first link to `path`, as an object. */
function linkQuery(html: string, path: string): Record<string, string> {
  const href = new RegExp(`href="${path.replace(/\//g, '\\/')}\\?([^"]*)"`).exec(html)
  expect(href, path).not.toBeNull()
  return Object.fromEntries(new URLSearchParams(href![1].replace(/&amp;/g, '&')))
}

/** i18next's interpolation escapes the name the way React then prints it. */
const scope = (key: string, name: string) => pt[key].replace('{{name}}', name)

describe('analytics realm picker', () => {
  it('lists the caller’s live realm tree in tree order, and only it', async () => {
    const manager = await userWith(top.code, READER)
    const mine = await realmsOf(manager.token, top.host)
    expect(mine.current).toBe(top.code)
    expect(mine.realms).toEqual([
      { code: top.code, name: top.name, depth: 0 },
      { code: child.code, name: child.name, depth: 1 },
      { code: grandchild.code, name: grandchild.name, depth: 2 },
      { code: sibling.code, name: sibling.name, depth: 1 },
    ])
    // Another realm's user sees theirs, never ours; a leaf realm's user sees only their own.
    const stranger = await userWith(other.code, READER)
    expect((await realmsOf(stranger.token, other.host)).realms.map((r) => r.code)).toEqual([other.code, otherChild.code])
    const leaf = await userWith(grandchild.code, READER)
    expect((await realmsOf(leaf.token, grandchild.host)).realms).toEqual([{ code: grandchild.code, name: grandchild.name, depth: 0 }])
    // Without any analytics or report permission: refused with the envelope.
    const none = await userWith(top.code, ['dashboard_dashboard_access'])
    await expectEnvelope(await api(top.host, 'analytics/realms', { token: none.token }), 403, 'forbidden')
  })

  it('shows the picker with the tree’s names on every analytics page, none to a one-realm user, and names the figures’ realm', async () => {
    const manager = await userWith(top.code, READER)
    for (const path of ['/analytics/general', '/analytics/task', '/analytics/session', '/reports/session', '/analytics/ledger']) {
      const html = await pageOf(top.host, manager.cookie, path)
      expect(realmOptions(html), path).toEqual({
        [top.code]: top.name,
        [child.code]: child.name,
        [grandchild.code]: grandchild.name,
        [sibling.code]: sibling.name,
      })
      expect(html, path).toContain(scope('analytics.scope', top.name))
      // "Include child realms" where the query takes it: not on the credits tab (one realm's ledger).
      expect(html.includes('name="children"'), path).toBe(path !== '/analytics/ledger')
    }
    expect(await pageOf(top.host, manager.cookie, '/analytics/general')).not.toContain(other.name)

    // A child chosen with its children: the page says so by name and keeps the choice in the tab links and CSV links.
    const chosen = await pageOf(top.host, manager.cookie, `/analytics/general?realm=${child.code}&children=true`)
    expect(chosen).toContain(scope('analytics.scope.children', child.name))
    expect(linkQuery(chosen, '/analytics/task')).toMatchObject({ realm: child.code, children: 'true' })
    expect(linkQuery(chosen, '/export/analytics/general/overview')).toMatchObject({ realm: child.code, children: 'true' })
    expect(linkQuery(chosen, '/analytics/ledger')).toMatchObject({ realm: child.code })

    // A realm of another tree in the URL: refused in the page, with no figures and no name of it.
    const foreign = await pageOf(top.host, manager.cookie, `/analytics/general?realm=${other.code}`)
    expect(foreign).toContain(pt['analytics.failure.forbidden_realm'])
    expect(foreign).not.toContain(other.name)
    const foreignCredits = await pageOf(top.host, manager.cookie, `/analytics/ledger?realm=${other.code}`)
    expect(foreignCredits).toContain(pt['analytics.failure.forbidden_realm'])

    // A leaf realm's user: no picker, no checkbox; the hint names their realm.
    const leaf = await userWith(grandchild.code, READER)
    const alone = await pageOf(grandchild.host, leaf.cookie, '/analytics/general')
    expect(realmOptions(alone)).toBeNull()
    expect(alone).not.toContain('name="children"')
    expect(alone).toContain(scope('analytics.scope', grandchild.name))
  })

  it('reports the credits of a realm of the tree in its calendar, and refuses one outside it', async () => {
    const manager = await userWith(top.code, READER)
    const q = 'report=overview&period=day&start_at=2026-03-01&end_at=2026-03-02'
    const res = await api(top.host, `ledger/report?${q}&realm=${child.code}`, { token: manager.token })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { time_zone: string }).time_zone).toBe('America/Manaus')
    await expectEnvelope(await api(top.host, `ledger/report?${q}&realm=${other.code}`, { token: manager.token }), 403, 'forbidden')
    const csv = await call(top.host, `/export/ledger/overview?period=day&start_at=2026-03-01&end_at=2026-03-02&realm=${other.code}`, {
      headers: { cookie: manager.cookie },
    })
    expect(csv.status).toBe(403)
    // A bad realm code is the envelope (400), not a 500.
    await expectEnvelope(await api(top.host, `ledger/report?${q}&realm=${encodeURIComponent('no realm!')}`, { token: manager.token }), 400)
  })
})
