import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { creditPackage } from './factories'
import { DEMO, call, userWith } from './helpers'
import { DASH, balance, funded, grant, key, recipient } from './ledger-helpers'
import { userWallet } from '../../worker/db/ledger'

const pt = catalogues['pt-BR']
const ALL_LEDGER = [
  DASH,
  'ledger_content_list',
  'ledger_content_edit',
  'ledger_content_delete',
  'ledger_package_list',
  'ledger_package_create',
  'ledger_package_edit',
  'ledger_package_delete',
  'ledger_transfer_create',
  'ledger_transfer_list',
  'ledger_sponsor_create',
  'ledger_balance_list',
  'ledger_transaction_reverse',
  'reports_reports_module',
  'analytics_ledger_module',
  'mas_realm_list',
]

function form(values: Record<string, string>): FormData {
  const f = new FormData()
  for (const [k, v] of Object.entries(values)) f.set(k, v)
  return f
}
const post = (path: string, cookie: string, values: Record<string, string>) =>
  call(DEMO, path, { method: 'POST', headers: { cookie, origin: `http://${DEMO}` }, body: form(values) })

/** Packages of demo made for this file: `start` (R$ 49,90, 500 credits) and `school` (the path tables name them `:start`, `:school`). */
const packages: Record<string, string> = {}
beforeAll(async () => {
  packages.start = (await creditPackage('demo', { cost: 49.9, currency: 'BRL', points: 500 })).id
  packages.school = (await creditPackage('demo', { cost: 1499.9, currency: 'BRL', points: 20000 })).id
})
const withPackages = (path: string) => path.replace(/:(start|school)\b/g, (_, name: string) => packages[name])

describe('ledger screens', () => {
  it.each([
    ['/ledger/content', 'pages.ledger.content.list'],
    ['/ledger/content/edit/lesson.slides', 'pages.ledger.content.edit'],
    ['/ledger/content/edit/new.item', 'resources.ledger_content.create'],
    ['/ledger/package', 'pages.ledger.package.list'],
    ['/ledger/package/create', 'pages.ledger.package.create'],
    ['/ledger/package/edit/:start', 'pages.ledger.package.edit'],
    ['/ledger/transfer/create', 'pages.ledger.transfer'],
    ['/ledger/sponsor/create', 'pages.ledger.sponsor'],
    ['/ledger/balance', 'ledger.balance.accounts'],
    ['/ledger/package/purchase', 'ledger.purchase.intro'],
    ['/ledger/package/purchase/:school', 'ledger.purchase.provider'],
    ['/reports/ledger', 'ledger.report.name.balance_by_realm'],
    ['/reports/ledger?report=purchased&period=month', 'ledger.report.column.amount_brl'],
    ['/analytics/ledger', 'ledger.report.totals'],
  ])('%s renders', async (path, text) => {
    const user = await userWith('demo', ALL_LEDGER)
    const res = await call(DEMO, withPackages(path), { headers: { cookie: user.cookie } })
    const html = await res.text()
    expect(res.status, html.slice(0, 500)).toBe(200)
    expect(html).toContain(pt[text].replace(/{{.*$/, '').replace(/'/g, '&#x27;'))
  })

  it('shows the purchase screens to a user without any ledger permission, and the top-bar balance', async () => {
    const user = await userWith('demo', [DASH, `x_${crypto.randomUUID()}`])
    await grant(userWallet('demo', user.nick), 1234)
    const res = await call(DEMO, '/ledger/package/purchase', { headers: { cookie: user.cookie } })
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('data-testid="credit-balance">1,2k<')
  })

  it('answers the wallet to the top bar at /wallet, following movements made by others; null without a session or the ledger', async () => {
    const user = await userWith('demo', [DASH, `x_${crypto.randomUUID()}`])
    const points = async (host: string, cookie?: string) => {
      const res = await call(host, '/wallet', { headers: cookie ? { cookie } : {} })
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      return ((await res.json()) as { points: number | null }).points
    }
    const before = await points(DEMO, user.cookie)
    const payer = await funded(30)
    const sent = await call(DEMO, '/api/ledger/transaction/transfer', {
      method: 'POST',
      headers: { 'x-api-key': payer.token, 'content-type': 'application/json' },
      body: JSON.stringify({ targets: [user.nick], points: 7, idempotency_key: key() }),
    })
    expect(sent.status, await sent.clone().text()).toBe(201)
    expect(await points(DEMO, user.cookie)).toBe((before ?? 0) + 7)
    expect(await points(DEMO)).toBeNull()
    const escola = await userWith('escola', [DASH])
    expect(await points('escola.localhost', escola.cookie)).toBeNull()
  })

  it('says the period is wrong instead of fetching a report', async () => {
    const user = await userWith('demo', ALL_LEDGER)
    const html = await (
      await call(DEMO, '/reports/ledger?report=consumed&period=day&start_at=2026-01-01&end_at=2026-03-01', { headers: { cookie: user.cookie } })
    ).text()
    expect(html).toContain(pt['ledger.validation.period_too_long'])
    expect(html).toContain(pt['ledger.report.fix_period'])
  })

  it('exports a report as CSV with the same columns', async () => {
    const user = await userWith('demo', ALL_LEDGER)
    const res = await call(DEMO, '/export/ledger/purchased?period=day&start_at=2026-01-01&end_at=2026-01-02', { headers: { cookie: user.cookie } })
    expect(res.headers.get('content-type')).toContain('text/csv')
    const lines = (await res.text()).replace('\uFEFF', '').trim().split('\r\n')
    expect(lines[0]).toBe(['Dia', 'Movimentos', 'Créditos', 'Valor (BRL)', 'Valor (USD)', 'Valor (EUR)'].join(','))
    expect(lines.slice(1)).toEqual(['2026-01-01,0,0,0,0,0', '2026-01-02,0,0,0,0,0'])
    const outsider = await userWith('demo', [DASH])
    expect(
      (await call(DEMO, '/export/ledger/purchased?start_at=2026-01-01&end_at=2026-01-02', { headers: { cookie: outsider.cookie } })).headers.get('location'),
    ).toBe('/notfound?path=%2Fexport%2Fledger%2Fpurchased')
  })
})

describe('ledger screen actions', () => {
  it('reviews a transfer without moving credits, sends it when confirmed, and refuses unknown recipients naming them', async () => {
    const payer = await funded(100, ['ledger_transfer_create'])
    const a = await recipient()
    const review = await post('/ledger/transfer/create', payer.cookie, {
      targets: `${a.nick}, teacher`,
      points: '10',
      description: 'Tela',
      idempotency_key: key(),
    })
    expect(review.status).toBe(200)
    expect(await balance(payer.nick)).toBe(100)
    const ok = await post('/ledger/transfer/create', payer.cookie, {
      targets: `${a.nick}, teacher`,
      points: '10',
      description: 'Tela',
      idempotency_key: key(),
      confirmed: 'yes',
    })
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).toBe('/ledger/transfer/create')
    expect(await balance(payer.nick)).toBe(80)
    expect(await balance(a.nick)).toBe(10)
    const refused = await post('/ledger/transfer/create', payer.cookie, {
      targets: `${a.nick} fantasma`,
      points: '1',
      idempotency_key: key(),
      confirmed: 'yes',
    })
    expect(refused.status).toBe(404)
    const html = await refused.text()
    expect(html).toContain('fantasma')
    expect(await balance(payer.nick)).toBe(80)
  })

  it('finds unknown recipients at the review when the caller may look wallets up', async () => {
    const payer = await funded(100, ['ledger_transfer_create', 'ledger_wallet_get_others'])
    const a = await recipient()
    const res = await post('/ledger/transfer/create', payer.cookie, { targets: `${a.nick} fantasma`, points: '1', idempotency_key: key() })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('não encontrado: fantasma')
    const known = await post('/ledger/transfer/create', payer.cookie, { targets: a.nick, points: '1', idempotency_key: key() })
    expect(known.status).toBe(200)
    expect(await balance(payer.nick)).toBe(100)
  })

  it('reviews and sends a sponsorship with the same form kit action', async () => {
    const payer = await funded(50, ['ledger_sponsor_create'])
    const bad = await post('/ledger/sponsor/create', payer.cookie, { realm: 'demo', points: '-5', idempotency_key: key(), confirmed: 'yes' })
    expect(bad.status).toBe(400)
    const review = await post('/ledger/sponsor/create', payer.cookie, { realm: 'demo', points: '20', idempotency_key: key() })
    expect(review.status).toBe(200)
    expect(await balance(payer.nick)).toBe(50)
    const sent = await post('/ledger/sponsor/create', payer.cookie, { realm: 'demo', points: '20', idempotency_key: key(), confirmed: 'yes' })
    expect(sent.status).toBe(302)
    expect(await balance(payer.nick)).toBe(30)
    const over = await post('/ledger/sponsor/create', payer.cookie, { realm: 'demo', points: '31', idempotency_key: key(), confirmed: 'yes' })
    expect(over.status).toBeGreaterThanOrEqual(400)
    expect(await balance(payer.nick)).toBe(30)
  })

  it('validates the transfer form with the API schema before calling it', async () => {
    const payer = await funded(100, ['ledger_transfer_create'])
    const res = await post('/ledger/transfer/create', payer.cookie, { targets: '', points: 'x', idempotency_key: key() })
    expect(res.status).toBe(400)
    expect(await balance(payer.nick)).toBe(100)
  })

  it('saves a package from its form (cost with a comma) and a price from its form', async () => {
    const admin = await userWith('demo', ALL_LEDGER)
    const res = await post('/ledger/package/create', admin.cookie, {
      name: 'Pacote da tela',
      description: '',
      cost: '99,90',
      currency: 'EUR',
      points: '900',
      enabled: 'on',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/ledger/package')
    const row = await env.DB.prepare("SELECT cost, currency, points, enabled, recommended FROM ledger_package WHERE name = 'Pacote da tela'").first()
    expect(row).toEqual({ cost: 99.9, currency: 'EUR', points: 900, enabled: 1, recommended: 0 })
    const bad = await post('/ledger/package/create', admin.cookie, { name: 'X', cost: 'abc', points: '0' })
    expect(bad.status).toBe(400)
    // An unchecked switch is absent from the form data: editing without it turns the package off.
    const { id } = (await env.DB.prepare("SELECT id FROM ledger_package WHERE name = 'Pacote da tela'").first<{ id: string }>())!
    const off = await post(`/ledger/package/edit/${id}`, admin.cookie, {
      name: 'Pacote da tela',
      description: '',
      cost: '99,90',
      currency: 'EUR',
      points: '900',
    })
    expect(off.headers.get('location')).toBe('/ledger/package')
    expect(await env.DB.prepare('SELECT enabled FROM ledger_package WHERE id = ?').bind(id).first()).toEqual({ enabled: 0 })

    const price = await post('/ledger/content/edit/screen.item', admin.cookie, { name: 'Da tela', description: '', points: '12' })
    expect(price.headers.get('location')).toBe('/ledger/content')
    expect(await env.DB.prepare("SELECT points FROM ledger_content WHERE realm = 'demo' AND key = 'screen.item'").first()).toEqual({ points: 12 })
  })

  it('starts a purchase and sends the buyer to the provider checkout; the checkout pays and returns', async () => {
    const buyer = await userWith('demo', [DASH, `x_${crypto.randomUUID()}`])
    const start = await post(`/ledger/package/purchase/${packages.start}`, buyer.cookie, { provider: 'sandbox-card', idempotency_key: key() })
    expect(start.status).toBe(302)
    const checkout = new URL(start.headers.get('location')!)
    expect(checkout.pathname).toMatch(/^\/sandbox\/checkout\/pi_/)
    const page = await call(DEMO, `${checkout.pathname}${checkout.search}`)
    expect(await page.text()).toContain(pt['ledger.sandbox.badge'])
    const paid = await call(DEMO, `${checkout.pathname}${checkout.search}`, {
      method: 'POST',
      headers: { origin: `http://${DEMO}` },
      body: form({ card_number: '4242 4242 4242 4242' }),
    })
    expect(paid.status).toBe(302)
    expect(paid.headers.get('location')).toMatch(new RegExp(`^/ledger/package/purchase/${packages.start}\\?intent=pi_`))
    expect(await balance(buyer.nick)).toBe(500)
    const back = await (await call(DEMO, paid.headers.get('location')!, { headers: { cookie: buyer.cookie } })).text()
    expect(back).toContain('500 créditos adicionados')
  })

  it('reverses a movement from the balance screen', async () => {
    const admin = await userWith('demo', ALL_LEDGER)
    const payer = await funded(30)
    const a = await recipient()
    const moved = await call(DEMO, '/api/ledger/transaction/transfer', {
      method: 'POST',
      headers: { 'x-api-key': payer.token, 'content-type': 'application/json' },
      body: JSON.stringify({ targets: [a.nick], points: 30, idempotency_key: key() }),
    })
    const { id } = (await moved.json()) as { id: string }
    const res = await post('/ledger/balance', admin.cookie, { transaction_id: id, idempotency_key: key() })
    expect(res.status).toBe(200)
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([30, 0])
  })
})
