import { env } from 'cloudflare:test'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import { parseCost } from '#shared/schemas/ledger'
import type { LedgerContent, LedgerPackage } from '#shared/schemas/ledger-entity'
import { DEMO, api, expectEnvelope, userWith } from './helpers'
import { DASH, ledgerRealm } from './ledger-helpers'

const PKG = ['ledger_package_list', 'ledger_package_create', 'ledger_package_edit', 'ledger_package_delete']

describe('package cost as text (seed 000 §5)', () => {
  it.each([
    ['1,500.00', 1500],
    ['1,500', 1500],
    ['49,90', 49.9],
    ['1.499,90', 1499.9],
    ['R$ 10', 10],
    ['10.555', 10.56],
    ['1.000.000', 1000000],
  ])('%s → %d', (text, value) => expect(parseCost(text)).toBe(value))

  it('refuses what is not a number', () => {
    for (const bad of ['', 'abc', '-5', '1e3', '12a']) expect(parseCost(bad)).toBeNaN()
  })

  it('rounds any amount written with thousands commas to the number it spells, 2 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (cents) => {
        const text = (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })
        expect(parseCost(text)).toBe(cents / 100)
      }),
    )
  })
})

describe('ledger/package', () => {
  it('creates with cost as text, BRL by default; lists, edits and soft-deletes', async () => {
    const admin = await userWith('demo', [DASH, ...PKG])
    const res = await api(DEMO, 'ledger/package', {
      method: 'POST',
      token: admin.token,
      json: { name: 'Pacote anual', cost: '2,499.905', points: 40000, recommended: true },
    })
    expect(res.status).toBe(201)
    const pkg = (await res.json()) as LedgerPackage
    expect(pkg).toMatchObject({
      name: 'Pacote anual',
      cost: 2499.91,
      currency: 'BRL',
      points: 40000,
      enabled: true,
      recommended: true,
      realm: 'demo',
      deleted_at: null,
    })
    expect(pkg.id).toMatch(/^pkg_/)

    const edited = await api(DEMO, `ledger/package/${pkg.id}`, {
      method: 'PUT',
      token: admin.token,
      json: { cost: '2.599,00', currency: 'USD', enabled: false },
    })
    expect(await edited.json()).toMatchObject({ cost: 2599, currency: 'USD', enabled: false })

    const disabled = (await (await api(DEMO, 'ledger/package?enabled=false&fields=id,name', { token: admin.token })).json()) as ListPage<
      Record<string, unknown>
    >
    expect(disabled.items).toContainEqual({ id: pkg.id, name: 'Pacote anual' })

    expect((await api(DEMO, `ledger/package/${pkg.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204)
    const listed = (await (await api(DEMO, 'ledger/package?limit=100', { token: admin.token })).json()) as ListPage<LedgerPackage>
    expect(listed.items.map((p) => p.id)).not.toContain(pkg.id)
    const deleted = (await (await api(DEMO, 'ledger/package?deleted_only=true', { token: admin.token })).json()) as ListPage<LedgerPackage>
    expect(deleted.items.find((p) => p.id === pkg.id)).toMatchObject({ enabled: false, deleted_at: expect.any(String) })
    await expectEnvelope(await api(DEMO, `ledger/package/${pkg.id}`, { method: 'PUT', token: admin.token, json: { enabled: true } }), 404, 'not_found')
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'ledger_package' AND entity_id = ? ORDER BY id").bind(pkg.id).all()
    expect(audit.results.map((r) => r.action)).toEqual(['create', 'update', 'delete'])
  })

  it('validates name, cost, currency and points', async () => {
    const admin = await userWith('demo', [DASH, ...PKG])
    const post = (json: unknown) => api(DEMO, 'ledger/package', { method: 'POST', token: admin.token, json })
    await expectEnvelope(await post({ name: 'X', cost: 1, points: 1 }), 400, 'min_length')
    await expectEnvelope(await post({ name: 'Válido', cost: 'dez', points: 1 }), 400)
    await expectEnvelope(await post({ name: 'Válido', cost: 10, points: 1, currency: 'GBP' }), 400, 'picklist')
    await expectEnvelope(await post({ name: 'Válido', cost: 10, points: 0 }), 400, 'min_value')
  })

  it("reaches another realm's packages only with ledger_package_list_others, inside the tree", async () => {
    const child = await ledgerRealm({ parent_code: 'demo' })
    const plain = await userWith('demo', [DASH, 'ledger_package_list'])
    await expectEnvelope(await api(DEMO, `ledger/package?realm=${child.code}`, { token: plain.token }), 403, 'forbidden')
    const others = await userWith('demo', [DASH, 'ledger_package_list', 'ledger_package_list_others'])
    expect((await api(DEMO, `ledger/package?realm=${child.code}`, { token: others.token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, 'ledger/package?realm=escola', { token: others.token }), 403, 'forbidden')
  })
})

describe('ledger/content', () => {
  const CONTENT = ['ledger_content_list', 'ledger_content_edit', 'ledger_content_delete']

  it('lists prices with key, system_only, like and fields', async () => {
    const admin = await userWith('demo', [DASH, ...CONTENT])
    await api(DEMO, 'ledger/content/custom.tutoring', { method: 'PUT', token: admin.token, json: { name: 'Tutoria', points: 30 } })
    const keys = (await (await api(DEMO, 'ledger/content?key=lesson.slides,custom.tutoring&fields=key,points', { token: admin.token })).json()) as ListPage<
      Record<string, unknown>
    >
    expect(keys.items).toEqual([
      { key: 'custom.tutoring', points: 30 },
      { key: 'lesson.slides', points: 20 },
    ])
    const system = (await (await api(DEMO, 'ledger/content?system_only=true&limit=100', { token: admin.token })).json()) as ListPage<LedgerContent>
    expect(system.items.every((c) => c.is_system)).toBe(true)
    expect(system.items.map((c) => c.key)).not.toContain('custom.tutoring')
    const like = (await (await api(DEMO, 'ledger/content?like=Tutoria', { token: admin.token })).json()) as ListPage<LedgerContent>
    expect(like.items.map((c) => c.key)).toEqual(['custom.tutoring'])
  })

  it('creates with PUT, changes given fields, and propagates to realms below', async () => {
    const child = await ledgerRealm({ parent_code: 'demo' })
    const admin = await userWith('demo', [DASH, ...CONTENT])
    await expectEnvelope(await api(DEMO, 'ledger/content/new.thing', { method: 'PUT', token: admin.token, json: { points: 3 } }), 400, 'required')
    const created = await api(DEMO, 'ledger/content/new.thing', { method: 'PUT', token: admin.token, json: { name: 'Nova coisa', points: 3 } })
    expect(created.status).toBe(201)
    const updated = await api(DEMO, 'ledger/content/new.thing', { method: 'PUT', token: admin.token, json: { points: 4, should_propagate: true } })
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({ key: 'new.thing', name: 'Nova coisa', points: 4, is_system: false })
    const below = await env.DB.prepare('SELECT name, points FROM ledger_content WHERE realm = ? AND key = ?').bind(child.code, 'new.thing').first()
    expect(below).toEqual({ name: 'Nova coisa', points: 4 })
    await expectEnvelope(await api(DEMO, 'ledger/content/Bad Key', { method: 'PUT', token: admin.token, json: { name: 'x', points: 1 } }), 400)
  })

  it('deletes a system price only when the call says is_system; propagation deletes below', async () => {
    const child = await ledgerRealm({ parent_code: 'demo' })
    const admin = await userWith('demo', [DASH, ...CONTENT])
    await api(DEMO, 'ledger/content/sys.item', {
      method: 'PUT',
      token: admin.token,
      json: { name: 'Sistema', points: 1, is_system: true, should_propagate: true },
    })
    await expectEnvelope(await api(DEMO, 'ledger/content/sys.item', { method: 'DELETE', token: admin.token }), 409, 'system_content')
    expect((await api(DEMO, 'ledger/content/sys.item?is_system=true&should_propagate=true', { method: 'DELETE', token: admin.token })).status).toBe(204)
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_content WHERE key = 'sys.item' AND realm IN ('demo', ?)").bind(child.code).first()
    expect(left).toEqual({ n: 0 })
    await expectEnvelope(await api(DEMO, 'ledger/content/sys.item', { method: 'DELETE', token: admin.token }), 404, 'not_found')
  })
})
