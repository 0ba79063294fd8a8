import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DEMO, api, expectEnvelope, userWith } from './helpers'

type Row = { realm: string; actor: string; action: string; entity: string; entity_id: string; changes: string; request_id: string }
const records = async (entity: string, id: string) =>
  (await env.DB.prepare('SELECT * FROM audit_log WHERE entity = ? AND entity_id = ? ORDER BY id').bind(entity, id).all<Row>()).results

describe('the audit trail of the shared machinery', () => {
  it('records create, update (before/after, secrets masked) and delete in the same batch', async () => {
    const { token, nick } = await userWith('demo', [
      'dashboard_dashboard_access',
      'mas_realm_list_all',
      'mas_realm_get',
      'mas_realm_create',
      'mas_realm_edit',
      'mas_realm_delete',
      'mas_realm_edit_infra',
    ])
    const code = `a${crypto.randomUUID().slice(0, 6)}`
    const created = await api(DEMO, 'mas/realm', { method: 'POST', token, json: { code, name: 'Audited realm', parent_code: 'demo' } })
    expect(created.status).toBe(201)
    const requestId = created.headers.get('x-request-id')
    const put = await api(DEMO, `mas/realm/${code}`, {
      method: 'PUT',
      token,
      json: { name: 'Renamed realm', storage_credential_key: 'super-secret-key-123456' },
    })
    expect(put.status).toBe(200)
    expect(JSON.stringify(await put.json())).not.toContain('super-secret-key-123456')
    expect((await api(DEMO, `mas/realm/${code}`, { method: 'DELETE', token, json: { confirm: code } })).status).toBe(200)

    const rows = await records('realm', code)
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete'])
    expect(rows.every((r) => r.actor === nick && r.realm === 'demo')).toBe(true)
    expect(rows[0].request_id).toBe(requestId)
    const update = JSON.parse(rows[1].changes) as Record<string, [unknown, unknown]>
    expect(update.name).toEqual(['Audited realm', 'Renamed realm'])
    expect(update.storage_credential_key[1]).toBe('********3456')
    expect(rows[1].changes).not.toContain('super-secret')
    expect(Object.keys(update).sort()).toEqual(['name', 'storage_credential_key', 'updated_at'])
  })

  it('writes nothing for a refused change', async () => {
    const { token } = await userWith('demo', ['dashboard_dashboard_access', 'mas_realm_list', 'mas_realm_create'])
    const before = (await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log').first<{ n: number }>())!.n
    await expectEnvelope(await api(DEMO, 'mas/realm', { method: 'POST', token, json: { code: 'Bad Code', name: 'x' } }), 400)
    await expectEnvelope(await api(DEMO, 'mas/realm', { method: 'POST', token, json: { code: 'zz1', name: 'Outside', parent_code: 'escola' } }), 403)
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log').first<{ n: number }>())!.n).toBe(before)
  })

  it('records role changes with the permissions granted before and after', async () => {
    // The editor holds what it grants (grant ceiling).
    const { token } = await userWith('demo', ['dashboard_dashboard_access', 'mas_role_create', 'mas_role_edit', 'tms_model_list', 'tms_model_get'])
    const role = `a${crypto.randomUUID().slice(0, 6)}`
    await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role, tms_model_list: true } })
    await api(DEMO, `mas/permission/${role}`, { method: 'PUT', token, json: { tms_model_get: true } })
    const rows = await records('role', role)
    expect(rows.map((r) => r.action)).toEqual(['create', 'update'])
    expect(JSON.parse(rows[1].changes).permissions).toEqual([['tms_model_list'], ['tms_model_get', 'tms_model_list']])
  })
})
