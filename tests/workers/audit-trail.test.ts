import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import type { AuditLog, ErrorLog } from '#shared/schemas/technical'
import type { AppEnv } from '../../worker/api/context'
import { handleApiError } from '../../worker/api/mas/error_log'
import { DEMO, api, expectEnvelope, signIn, userWith } from './helpers'
import { funded, ledgerRealm, recipient } from './ledger-helpers'

const DASH = 'dashboard_dashboard_access'
const count = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log').first<{ n: number }>())!.n
const last = async () => (await env.DB.prepare('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1').first<Omit<AuditLog, 'changes'> & { changes: string }>())!

type Call = [string, string, unknown]
/** Each mutation of this issue: a refused call (nothing recorded), then the accepted one (one record). */
const mutations = (id: () => string): { name: string; entity: string; action: string; refused: Call; accepted: () => Call }[] => [
  {
    name: 'word filter',
    entity: 'word_filter',
    action: 'update',
    refused: ['PUT', 'mas/realm/demo/word_filter', { sentences: 'x' }],
    accepted: () => ['PUT', 'mas/realm/demo/word_filter', { sentences: ['idiota', 'palavrao', 'tonto'] }],
  },
  {
    name: 'exemption',
    entity: 'exemption',
    action: 'update',
    refused: ['PUT', 'mas/realm/demo/exemption', { domains: ['no'] }],
    accepted: () => ['PUT', 'mas/realm/demo/exemption', { domains: ['demo.edu', 'gov.br'] }],
  },
  {
    name: 'global config',
    entity: 'global_config',
    action: 'update',
    refused: ['PUT', 'mas/config', { default_time_zone: 'X/Y' }],
    accepted: () => ['PUT', 'mas/config', { blocked_media_hosts: ['blocked-by-audit-test'] }],
  },
  {
    name: 'user create',
    entity: 'user',
    action: 'create',
    refused: ['POST', 'mas/user', { nick: 'x', name: '' }],
    accepted: () => ['POST', 'mas/user', { nick: id(), name: 'Auditada' }],
  },
  {
    name: 'category',
    entity: 'category',
    action: 'create',
    refused: ['POST', 'room/category', { name: 'Ciclo', parent: 'missing' }],
    accepted: () => ['POST', 'room/category', { name: `Cat ${id()}` }],
  },
  {
    name: 'extra field',
    entity: 'extra_field',
    action: 'create',
    refused: ['POST', 'mas/extra_field', { entity: 'planet', key: 'k', label: 'K' }],
    accepted: () => ['POST', 'mas/extra_field', { entity: 'room', key: id().replace(/\W/g, ''), label: 'K' }],
  },
  {
    name: 'metaverse room',
    entity: 'metaverse_room',
    action: 'create',
    refused: ['POST', 'mas/realm/demo/metaverse_room', { name: '' }],
    accepted: () => ['POST', 'mas/realm/demo/metaverse_room', { name: 'Sala auditada' }],
  },
  {
    name: 'asset',
    entity: 'asset',
    action: 'create',
    refused: ['POST', 'asset', { name: 'A', provider: 'youtube', url: 'https://youtu.be/x' }],
    accepted: () => ['POST', 'asset', { name: 'Vídeo', provider: 'vimeo', url: 'https://vimeo.com/123456789' }],
  },
  {
    name: 'report',
    entity: 'report',
    action: 'create',
    refused: ['POST', 'mas/report', { target_type: 'planet', target_id: '1', reason: 'spam' }],
    accepted: () => ['POST', 'mas/report', { target_type: 'room', target_id: 'r1', reason: 'spam' }],
  },
  {
    name: 'realm',
    entity: 'realm',
    action: 'create',
    refused: ['POST', 'mas/realm', { code: 'demo', name: 'Again' }],
    accepted: () => ['POST', 'mas/realm', { code: `a${id().slice(1, 7)}`, name: 'Audited', parent_code: 'demo' }],
  },
]

describe('the audit trail of realm administration', () => {
  it.each(mutations(() => `a${crypto.randomUUID().slice(0, 8)}`).map((m) => [m.name, m] as const))(
    '%s: one record per accepted change, none for a refused one',
    async (_name, m) => {
      // The global configuration is the platform operator's (a realm root does not hold mas_config_edit).
      const actor = m.entity === 'global_config' ? 'platform' : 'root'
      const root = await signIn(DEMO, 'demo', actor)
      const before = await count()
      const [method, path, json] = m.refused
      const refused = await api(DEMO, path, { method, token: root, json })
      expect(refused.status, await refused.clone().text()).toBeGreaterThanOrEqual(400)
      expect(await count()).toBe(before)
      const [m2, p2, j2] = m.accepted()
      const ok = await api(DEMO, p2, { method: m2, token: root, json: j2 })
      expect(ok.status, await ok.clone().text()).toBeLessThan(300)
      expect(await count()).toBe(before + 1)
      const record = await last()
      expect(record).toMatchObject({ entity: m.entity, action: m.action, actor: `${actor}@demo`, realm: 'demo', request_id: ok.headers.get('x-request-id') })
      expect(Object.keys(JSON.parse(record.changes)).length).toBeGreaterThan(0)
    },
  )

  it('records user disabling with before and after, and never a password', async () => {
    const root = await signIn(DEMO, 'demo', 'root')
    const nick = `p${crypto.randomUUID().slice(0, 7)}`
    await api(DEMO, 'mas/user', { method: 'POST', token: root, json: { nick, name: 'Senha', password: 'uma-senha-longa' } })
    await api(DEMO, `mas/user/${nick}@demo`, { method: 'PUT', token: root, json: { password: 'outra-senha-longa' } })
    await api(DEMO, `mas/user/${nick}@demo/disable`, { method: 'PUT', token: root, json: { disabled: true } })
    const { results } = await env.DB.prepare("SELECT action, changes FROM audit_log WHERE entity = 'user' AND entity_id = ? ORDER BY id")
      .bind(`${nick}@demo`)
      .all<{ action: string; changes: string }>()
    expect(results.map((r) => r.action)).toEqual(['create', 'update', 'disable'])
    expect(JSON.parse(results[2].changes)).toEqual({ disabled: [false, true] })
    expect(JSON.stringify(results)).not.toMatch(/senha-longa|pbkdf2/)
    expect(JSON.parse(results[1].changes).password).toEqual([null, '********'])
  })
})

/** Mutations that need rows first (rooms, members, ledger movements and packages), each refused once then accepted. */
const prepared: Record<string, () => Promise<{ token: string; entity: string; action: string; refused: Call; accepted: Call }>> = {
  'room create': async () => ({
    token: await signIn(DEMO, 'demo', 'root'),
    entity: 'room',
    action: 'create',
    refused: ['POST', 'room/room', { name: 'x' }],
    accepted: ['POST', 'room/room', { name: `Sala ${crypto.randomUUID().slice(0, 8)}` }],
  }),
  'room member': async () => {
    const token = await signIn(DEMO, 'demo', 'root')
    const room = (await (await api(DEMO, 'room/room', { method: 'POST', token, json: { name: `Sala ${crypto.randomUUID().slice(0, 8)}` } })).json()) as {
      id: string
    }
    return {
      token,
      entity: 'room',
      action: 'add_member',
      refused: ['POST', `room/room/${room.id}/member`, { nick: 'nobody-here' }],
      accepted: ['POST', `room/room/${room.id}/member`, { nick: 'teacher' }],
    }
  },
  'ledger package': async () => ({
    token: await signIn(DEMO, 'demo', 'root'),
    entity: 'ledger_package',
    action: 'create',
    refused: ['POST', 'ledger/package', { name: 'Pacote', cost: 'dez', points: 10 }],
    accepted: ['POST', 'ledger/package', { name: 'Pacote auditado', cost: '9,90', points: 10 }],
  }),
  'ledger transfer': async () => {
    const payer = await funded(10)
    const to = await recipient()
    const key = () => `k-${crypto.randomUUID()}`
    return {
      token: payer.token,
      entity: 'ledger_transaction',
      action: 'transfer',
      refused: ['POST', 'ledger/transaction/transfer', { targets: [to.nick], points: 11, idempotency_key: key() }],
      accepted: ['POST', 'ledger/transaction/transfer', { targets: [to.nick], points: 10, idempotency_key: key() }],
    }
  },
  'ledger debit': async () => {
    const user = await funded(10, ['ledger_transaction_debit'])
    return {
      token: user.token,
      entity: 'ledger_transaction',
      action: 'debit',
      refused: ['POST', 'ledger/transaction/debit', { contents: ['persona.voice_clone'], idempotency_key: `k-${crypto.randomUUID()}` }],
      accepted: ['POST', 'ledger/transaction/debit', { contents: ['lesson.summary'], idempotency_key: `k-${crypto.randomUUID()}` }],
    }
  },
  'ledger sponsor': async () => {
    const child = await ledgerRealm({ parent_code: 'demo' })
    const user = await funded(10, ['ledger_sponsor_create'])
    return {
      token: user.token,
      entity: 'ledger_transaction',
      action: 'sponsor',
      refused: ['POST', 'ledger/transaction/sponsor', { realm: child.code, points: 11, idempotency_key: `k-${crypto.randomUUID()}` }],
      accepted: ['POST', 'ledger/transaction/sponsor', { realm: child.code, points: 10, idempotency_key: `k-${crypto.randomUUID()}` }],
    }
  },
}

describe('the audit trail of rooms and the credit ledger', () => {
  it.each(Object.entries(prepared))('%s: one record per accepted change, none for a refused one', async (_name, setup) => {
    const m = await setup()
    const before = await count()
    const [method, path, json] = m.refused
    const refused = await api(DEMO, path, { method, token: m.token, json })
    expect(refused.status, await refused.clone().text()).toBeGreaterThanOrEqual(400)
    expect(await count()).toBe(before)
    const [m2, p2, j2] = m.accepted
    const ok = await api(DEMO, p2, { method: m2, token: m.token, json: j2 })
    expect(ok.status, await ok.clone().text()).toBeLessThan(300)
    expect(await count()).toBe(before + 1)
    expect(await last()).toMatchObject({ entity: m.entity, action: m.action, realm: 'demo', request_id: ok.headers.get('x-request-id') })
  })
})

describe('technical/audit_logs API', () => {
  it("lists the realm's records with filters, for mas_realm_technical or mas_realm_edit_infra only", async () => {
    const root = await signIn(DEMO, 'demo', 'root')
    await api(DEMO, 'room/category', { method: 'POST', token: root, json: { name: `Filtro ${crypto.randomUUID().slice(0, 4)}` } })
    for (const perm of ['mas_realm_technical', 'mas_realm_edit_infra']) {
      const { token } = await userWith('demo', [DASH, perm])
      const page = (await (await api(DEMO, 'mas/audit_log?entity=category&action=create&actor=root@demo&limit=5', { token })).json()) as ListPage<AuditLog>
      expect(page.items.length).toBeGreaterThan(0)
      expect(page.items.every((r) => r.entity === 'category' && r.action === 'create' && r.realm === 'demo')).toBe(true)
      expect(typeof page.items[0].changes).toBe('object')
    }
    const { token } = await userWith('demo', [DASH, 'mas_audit_log_list'])
    await expectEnvelope(await api(DEMO, 'mas/audit_log', { token }), 403)
    const escola = await userWith('escola', [DASH, 'mas_realm_technical'])
    const theirs = (await (await api('escola.localhost', 'mas/audit_log?entity=category&limit=1000', { token: escola.token })).json()) as ListPage<AuditLog>
    expect(theirs.items.every((r) => r.realm === 'escola')).toBe(true)
    const today = new Date().toISOString().slice(0, 10)
    const dated = (await (
      await api(DEMO, `mas/audit_log?at_from=${today}&at_to=${today}`, { token: (await userWith('demo', [DASH, 'mas_realm_technical'])).token })
    ).json()) as ListPage<AuditLog>
    expect(dated.items.every((r) => r.at.startsWith(today))).toBe(true)
  })
})

describe('technical/logs', () => {
  it('stores an unexpected server error with its request id, and lists it for the realm', async () => {
    const app = new Hono<AppEnv>()
    app.use('*', async (c, next) => {
      c.set('hostRealm', 'demo')
      c.set('requestId', 'req-audit-test-1')
      await next()
    })
    app.get('/boom', () => {
      throw new TypeError('Cannot read properties of undefined (reading "code")')
    })
    app.onError(handleApiError)
    // The error is logged for the operator (with its request id) as well as stored: asserted here, not printed.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('http://demo.localhost/boom'), env, ctx)
    await waitOnExecutionContext(ctx)
    expect(logged).toHaveBeenCalledTimes(1)
    expect(logged.mock.calls[0][0]).toBe('[req-audit-test-1] GET /boom:')
    expect(String(logged.mock.calls[0][1])).toBe('TypeError: Cannot read properties of undefined (reading "code")')
    logged.mockRestore()
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ errors: [{ field: '', cause: 'internal', value: 'req-audit-test-1', message: 'Unexpected server error.' }] })

    const { token } = await userWith('demo', [DASH, 'mas_realm_technical'])
    const page = (await (await api(DEMO, 'mas/error_log?request_id=req-audit-test-1', { token })).json()) as ListPage<ErrorLog>
    expect(page.items).toHaveLength(1)
    expect(page.items[0]).toMatchObject({
      realm: 'demo',
      method: 'GET',
      path: '/boom',
      message: 'TypeError: Cannot read properties of undefined (reading "code")',
    })
    const escola = await userWith('escola', [DASH, 'mas_realm_technical'])
    const theirs = (await (await api('escola.localhost', 'mas/error_log?request_id=req-audit-test-1', { token: escola.token })).json()) as ListPage<ErrorLog>
    expect(theirs.items).toHaveLength(0)
  })
})
