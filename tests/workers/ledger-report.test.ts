import { describe, expect, it } from 'vitest'
import { periodsOf, type ReportAnswer } from '#shared/schemas/ledger-report'
import { tzOffsetMinutes } from '../../worker/db/ledger-report'
import { api, expectEnvelope, userWith } from './helpers'
import { DASH, funded, ledgerRealm } from './ledger-helpers'

/** A realm of its own, so the figures are exactly this test's movements. */
async function scene() {
  const realm = await ledgerRealm({ development: 1 })
  const perms = [
    DASH,
    'ledger_transfer_create',
    'ledger_transaction_debit',
    'ledger_sponsor_create',
    'ledger_transaction_reverse',
    'ledger_content_edit',
    'ledger_package_create',
    'reports_reports_module',
  ]
  const a = await userWith(realm.code, [...perms, `x_${crypto.randomUUID()}`])
  const b = await userWith(realm.code, [...perms, `x_${crypto.randomUUID()}`])
  const call = (path: string, token: string, init: RequestInit & { json?: unknown } = {}) => api(realm.host, path, { token, ...init })
  return { realm, a, b, call }
}

const today = () => new Date(Date.now() + tzOffsetMinutes('America/Sao_Paulo', new Date()) * 60000).toISOString().slice(0, 10)

describe('GET ledger/report', () => {
  it('reports purchased, transferred, received, sponsored, consumed and usage by period, and balances', async () => {
    const { realm, a, b, call } = await scene()
    const post = (path: string, token: string, json: Record<string, unknown>) =>
      call(`ledger/transaction/${path}`, token, { method: 'POST', json: { idempotency_key: crypto.randomUUID(), ...json } })
    await call('ledger/content/gen.text', a.token, { method: 'PUT', json: { name: 'Texto', points: 7 } })
    const pkg = (await (await call('ledger/package', a.token, { method: 'POST', json: { name: 'Cem', cost: '19,90', points: 100 } })).json()) as { id: string }
    const intent = (await (
      await call('ledger/transaction/create-intent', a.token, { method: 'POST', json: { provider: 'sandbox-card', product_id: pkg.id } })
    ).json()) as { id: string; client_secret: string }
    await call(`ledger/sandbox/pay/${intent.id}`, a.token, { method: 'POST', json: { secret: intent.client_secret, card_number: '4242424242424242' } })
    expect((await post('transfer', a.token, { targets: [b.nick], points: 30 })).status).toBe(201)
    const reversed = (await (await post('transfer', a.token, { targets: [b.nick], points: 5 })).json()) as { id: string }
    expect((await post('reversal', a.token, { transaction_id: reversed.id })).status).toBe(201)
    expect((await post('debit', b.token, { contents: ['gen.text', 'gen.text'] })).status).toBe(201)
    expect((await post('sponsor', a.token, { realm: realm.code, points: 20 })).status).toBe(201)

    const day = today()
    const report = async (name: string, period = 'day') =>
      (await (await call(`ledger/report?report=${name}&period=${period}&start_at=${day}&end_at=${day}`, a.token)).json()) as ReportAnswer
    expect((await report('purchased')).rows).toEqual([{ label: day, count: 1, points: 100, amount_brl: 19.9, amount_usd: 0, amount_eur: 0 }])
    expect((await report('transferred')).rows).toEqual([{ label: day, count: 1, points: 30 }])
    expect((await report('received')).rows).toEqual([{ label: day, count: 2, points: 50 }])
    expect((await report('sponsored')).rows).toEqual([{ label: day, count: 1, points: 20 }])
    expect((await report('consumed')).rows).toEqual([{ label: day, count: 1, points: 14 }])
    expect((await report('usage')).rows).toEqual([{ label: 'gen.text', count: 2, points: 14 }])
    expect((await report('balance_by_user')).rows).toEqual([
      { label: a.nick, name: expect.any(String), points: 50 },
      { label: b.nick, name: expect.any(String), points: 16 },
    ])
    expect((await report('balance_by_realm')).rows).toEqual([{ label: realm.code, name: `Realm ${realm.code}`, realm_wallet: 20, users: 66, points: 86 }])
    const overview = await report('overview', 'month')
    expect(overview.rows).toEqual([{ label: day.slice(0, 7), purchased: 100, consumed: 14, transferred: 30, received: 50, sponsored: 20 }])
    expect(overview.columns).toEqual(['purchased', 'consumed', 'transferred', 'received', 'sponsored'])
  })

  it('fills every period of the range and bounds the range by granularity (31 days, 3 months, 2 years)', async () => {
    const { a, call } = await scene()
    const q = (s: string) => call(`ledger/report?${s}`, a.token)
    const week = (await (await q('report=consumed&period=day&start_at=2026-01-01&end_at=2026-01-07')).json()) as ReportAnswer
    expect(week.rows.map((r) => r.label)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06', '2026-01-07'])
    expect(week.rows.every((r) => r.points === 0)).toBe(true)
    expect((await q('report=consumed&period=day&start_at=2026-01-01&end_at=2026-01-31')).status).toBe(200)
    await expectEnvelope(await q('report=consumed&period=day&start_at=2026-01-01&end_at=2026-02-01'), 400, 'check')
    expect((await q('report=consumed&period=month&start_at=2026-01-15&end_at=2026-03-02')).status).toBe(200)
    await expectEnvelope(await q('report=consumed&period=month&start_at=2026-01-15&end_at=2026-04-01'), 400, 'check')
    expect((await q('report=consumed&period=year&start_at=2025-01-01&end_at=2026-12-31')).status).toBe(200)
    await expectEnvelope(await q('report=consumed&period=year&start_at=2024-12-31&end_at=2026-01-01'), 400, 'check')
    const reversed = await expectEnvelope(await q('report=consumed&start_at=2026-02-01&end_at=2026-01-01'), 400)
    expect(reversed.errors[0]).toMatchObject({ field: 'end_at', message: 'ledger.validation.period_order' })
    const invalid = await expectEnvelope(await q('report=consumed&start_at=2026-02-30&end_at=2026-03-01'), 400)
    expect(invalid.errors[0]).toMatchObject({ field: 'start_at', message: 'ledger.validation.invalid_date' })
    await expectEnvelope(await q('report=nope&start_at=2026-01-01&end_at=2026-01-01'), 400, 'picklist')
  })

  it('is open to reports or ledger analytics holders only', async () => {
    const analyst = await userWith('demo', [DASH, 'analytics_ledger_module'])
    expect((await api('demo.localhost', `ledger/report?report=overview&start_at=${today()}&end_at=${today()}`, { token: analyst.token })).status).toBe(200)
    const other = await funded(0)
    await expectEnvelope(
      await api('demo.localhost', `ledger/report?report=overview&start_at=${today()}&end_at=${today()}`, { token: other.token }),
      403,
      'forbidden',
    )
  })
})

describe('periods', () => {
  it('labels days, months and years', () => {
    expect(periodsOf('month', '2025-11-30', '2026-01-01')).toEqual(['2025-11', '2025-12', '2026-01'])
    expect(periodsOf('year', '2025-06-10', '2026-01-01')).toEqual(['2025', '2026'])
    expect(periodsOf('day', '2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01'])
  })

  it('knows the offset of the realm time zone', () => {
    expect(tzOffsetMinutes('America/Sao_Paulo', new Date('2026-04-21T12:00:00Z'))).toBe(-180)
    expect(tzOffsetMinutes('UTC', new Date('2026-04-21T12:00:00Z'))).toBe(0)
  })
})
