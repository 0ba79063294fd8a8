import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import type { RealmDetail } from '#shared/schemas/realm-settings'
import { DEMO, api, call, expectEnvelope, signIn, userWith } from './helpers'

const DASH = 'dashboard_dashboard_access'
const REALM_ADMIN = [DASH, 'mas_realm_list', 'mas_realm_get', 'mas_realm_create', 'mas_realm_edit', 'mas_realm_delete']
const code = () => `t${crypto.randomUUID().slice(0, 7)}`

describe('realm tree scoping', () => {
  it('lets a child-realm administrator see and edit only their realm, never a sibling or the parent', async () => {
    const sul = await signIn('demo-sul.localhost', 'demo-sul', 'admin')
    const list = (await (await api('demo-sul.localhost', 'mas/realm?limit=1000', { token: sul })).json()) as ListPage<{ code: string }>
    expect(list.items.map((r) => r.code)).toEqual(['demo-sul'])
    await expectEnvelope(await api('demo-sul.localhost', 'mas/realm/demo-norte', { token: sul }), 404, 'not_found')
    await expectEnvelope(await api('demo-sul.localhost', 'mas/realm/demo', { token: sul }), 404, 'not_found')
    await expectEnvelope(await api('demo-sul.localhost', 'mas/realm/demo-norte', { method: 'PUT', token: sul, json: { name: 'Taken over' } }), 404)
    await expectEnvelope(await api('demo-sul.localhost', 'mas/realm/demo-norte/word_filter', { token: sul }), 404)
    expect((await api('demo-sul.localhost', 'mas/realm/demo-sul', { method: 'PUT', token: sul, json: { canonical_name: 'Rede Sul' } })).status).toBe(200)
  })

  it('gives a parent administrator the whole tree below them, and mas_realm_list_all every realm', async () => {
    const admin = await userWith('demo', REALM_ADMIN)
    const tree = (await (await api(DEMO, 'mas/realm?limit=1000', { token: admin.token })).json()) as ListPage<{ code: string }>
    expect(tree.items.map((r) => r.code)).toEqual(expect.arrayContaining(['demo', 'demo-norte', 'demo-sul']))
    expect(tree.items.map((r) => r.code)).not.toContain('escola')
    const all = await userWith('demo', [...REALM_ADMIN, 'mas_realm_list_all'])
    const every = (await (await api(DEMO, 'mas/realm?limit=1000', { token: all.token })).json()) as ListPage<{ code: string }>
    expect(every.items.map((r) => r.code)).toContain('escola')
  })

  it('lets mas_realm_edit read the realm it edits', async () => {
    const editor = await userWith('demo', [DASH, 'mas_realm_edit'])
    expect((await api(DEMO, 'mas/realm/demo-sul', { token: editor.token })).status).toBe(200)
  })
})

describe('realm create, update and delete', () => {
  it('creates a realm with its host, roles and first administrator, who can sign in there at once', async () => {
    // Hosts are infra (mas_realm_edit_infra): a platform operator's job, not a realm root's.
    const root = await signIn(DEMO, 'demo', 'platform')
    const c = code()
    const res = await api(DEMO, 'mas/realm', {
      method: 'POST',
      token: root,
      json: {
        code: c,
        name: 'Rede Nova',
        parent_code: 'demo',
        hosts: [`${c}.localhost`],
        logo_url: 'cdn.example.org/logo.svg',
        admin: { nick: 'chefe', name: 'Chefe Novo', password: 'uma-senha-boa', role: 'admin' },
      },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const realm = (await res.json()) as RealmDetail
    expect(realm).toMatchObject({
      code: c,
      parent_code: 'demo',
      hosts: [`${c}.localhost`],
      nick_suffix: `@${c}`,
      logo_url: 'https://cdn.example.org/logo.svg',
      metaverse_rooms: [],
    })
    // Defaults of seed 000 §9 and seed 002 §5, and the documented ones of the new limits.
    expect(realm).toMatchObject({
      msg_drop_rate: 200,
      msg_per_day: -1,
      csm_vod_slot_bucket: 30,
      csm_must_record: true,
      tms_task_expire_offset_days: 0,
      allowed_signin: ['iptv'],
      tms_default_deadline_days: 3,
      tms_max_schedule_days: 365,
    })

    const config = await call(`${c}.localhost`, `/api/mas/realm/${c}/config`)
    expect(await config.json()).toMatchObject({ realm: c, multirealm: false })
    const token = await signIn(`${c}.localhost`, c, 'chefe', 'uma-senha-boa')
    const session = (await (await api(`${c}.localhost`, 'mas/session', { token })).json()) as {
      nick: string
      role: string
      permissions: Record<string, boolean>
    }
    expect(session).toMatchObject({ nick: `chefe@${c}`, role: 'admin' })
    expect(session.permissions.mas_realm_edit).toBe(true)
    const roles = await env.DB.prepare('SELECT COUNT(*) AS n FROM role WHERE realm = ?').bind(c).first<{ n: number }>()
    expect(roles?.n).toBeGreaterThanOrEqual(7)
  })

  it('makes hosts editable and unique across realms', async () => {
    const root = await signIn(DEMO, 'demo', 'platform')
    const c = code()
    expect((await api(DEMO, 'mas/realm', { method: 'POST', token: root, json: { code: c, name: 'Hosted', parent_code: 'demo' } })).status).toBe(201)
    const taken = await expectEnvelope(await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { hosts: ['demo.localhost'] } }), 409, 'conflict')
    expect(taken.errors[0]).toMatchObject({ field: 'hosts', value: 'demo.localhost' })
    for (const bad of ['localhost', '127.0.0.1', 'bad host.example', '-x.example']) {
      await expectEnvelope(await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { hosts: [bad] } }), 400)
    }
    const put = await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { hosts: [`${c}.localhost`, `www.${c}.example`] } })
    expect(((await put.json()) as RealmDetail).hosts).toEqual([`${c}.localhost`, `www.${c}.example`])
    expect(await (await call(`www.${c}.example`, `/api/mas/realm/${c}/config`)).json()).toMatchObject({ multirealm: false })
    await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { hosts: [] } })
    expect(await (await call(`www.${c}.example`, `/api/mas/realm/${c}/config`)).json()).toMatchObject({ multirealm: true })
  })

  it('never answers a secret in full, and a masked or empty value keeps the stored one', async () => {
    // Storage credentials are infra.
    const root = await signIn(DEMO, 'demo', 'platform')
    const c = code()
    await api(DEMO, 'mas/realm', {
      method: 'POST',
      token: root,
      json: { code: c, name: 'Secrets', parent_code: 'demo', storage_credential_key: 'AKIA-very-secret-0001', metaverse_api_token: 'mv-token-secret-0002' },
    })
    const shown = await (await api(DEMO, `mas/realm/${c}`, { token: root })).text()
    expect(shown).not.toContain('very-secret')
    expect(shown).not.toContain('token-secret')
    expect(JSON.parse(shown)).toMatchObject({ storage_credential_key: '********0001', metaverse_api_token: '********0002', agent_api_key: '' })
    const list = await (await api(DEMO, `mas/realm?code=${c}`, { token: root })).text()
    expect(list).not.toContain('secret')
    await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { storage_credential_key: '********0001', metaverse_api_token: '' } })
    const row = await env.DB.prepare('SELECT storage_credential_key, metaverse_api_token FROM realm WHERE code = ?').bind(c).first()
    expect(row).toEqual({ storage_credential_key: 'AKIA-very-secret-0001', metaverse_api_token: 'mv-token-secret-0002' })
    const audit = await env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'realm' AND entity_id = ?").bind(c).all<{ changes: string }>()
    expect(JSON.stringify(audit.results)).not.toContain('secret')
  })

  it('needs mas_realm_edit_infra for servers, storage and hosts', async () => {
    const admin = await userWith('demo', REALM_ADMIN)
    const c = code()
    await expectEnvelope(
      await api(DEMO, 'mas/realm', { method: 'POST', token: admin.token, json: { code: c, name: 'Infra', hosts: [`${c}.example`] } }),
      403,
      'forbidden',
    )
    expect((await api(DEMO, 'mas/realm', { method: 'POST', token: admin.token, json: { code: c, name: 'Infra' } })).status).toBe(201)
    const refused = await expectEnvelope(
      await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: admin.token, json: { api_endpoint: 'https://api.example.org/' } }),
      403,
    )
    expect(refused.errors[0]).toMatchObject({ field: 'api_endpoint', value: 'mas_realm_edit_infra' })
    // Sending an unchanged infra value is not a change.
    expect((await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: admin.token, json: { api_endpoint: '', name: 'Infra 2' } })).status).toBe(200)
    const infra = await userWith('demo', [...REALM_ADMIN, 'mas_realm_edit_infra'])
    expect((await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: infra.token, json: { api_endpoint: 'api.example.org/' } })).status).toBe(200)
  })

  it('refuses to switch recording on without storage credentials', async () => {
    const root = await signIn(DEMO, 'demo', 'platform')
    const c = code()
    await api(DEMO, 'mas/realm', { method: 'POST', token: root, json: { code: c, name: 'Recording', parent_code: 'demo' } })
    const body = await expectEnvelope(
      await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { csm_room_enable: true } }),
      422,
      'storage_credentials',
    )
    expect(body.errors[0]).toMatchObject({ field: 'csm_room_enable', value: 'storage_bucket' })
    const storage = { storage_bucket: 'videos', storage_region: 'sa-east-1', storage_credential_id: 'id-1', storage_credential_key: 'key-123456789012' }
    expect((await api(DEMO, `mas/realm/${c}`, { method: 'PUT', token: root, json: { ...storage, csm_room_enable: true } })).status).toBe(200)
  })

  it('validates every field with its rule and changes nothing on bad input', async () => {
    const root = await signIn(DEMO, 'demo', 'root')
    const body = await expectEnvelope(
      await api(DEMO, 'mas/realm/demo-norte', {
        method: 'PUT',
        token: root,
        json: { msg_drop_rate: -5, time_zone: 'Mars/Base', allowed_signin: [], tms_max_schedule_days: 2.5 },
      }),
      400,
    )
    expect(body.errors.map((e) => e.field).sort()).toEqual(['allowed_signin', 'msg_drop_rate', 'time_zone', 'tms_max_schedule_days'])
    expect(await env.DB.prepare("SELECT msg_drop_rate FROM realm WHERE code = 'demo-norte'").first()).toEqual({ msg_drop_rate: 200 })
  })

  it('copies the roles of the parent, refuses a first administrator with more power than the creator', async () => {
    const creator = await userWith('demo', [...REALM_ADMIN, 'mas_realm_edit_infra'])
    const c = code()
    const res = await api(DEMO, 'mas/realm', {
      method: 'POST',
      token: creator.token,
      json: { code: c, name: 'Escalation', admin: { nick: 'xx', name: 'X', password: 'long-enough', role: 'root' } },
    })
    await expectEnvelope(res, 403, 'escalation')
    expect(await env.DB.prepare('SELECT code FROM realm WHERE code = ?').bind(c).first()).toBeNull()
  })
})

describe('global configuration', () => {
  it('is read with mas_config_get, changed only by a platform operator, and gives new realms their defaults', async () => {
    const reader = await userWith('demo', [DASH, 'mas_config_get'])
    expect(await (await api(DEMO, 'mas/config', { token: reader.token })).json()).toMatchObject({
      default_time_zone: 'America/Sao_Paulo',
      default_allowed_signin: ['iptv'],
    })
    const realmAdmin = await userWith('demo', [DASH, 'mas_config_get', 'mas_config_edit'])
    await expectEnvelope(await api(DEMO, 'mas/config', { method: 'PUT', token: realmAdmin.token, json: { default_time_zone: 'America/Manaus' } }), 403)
    // The global configuration applies to every realm: the platform operator's.
    const root = await signIn(DEMO, 'demo', 'platform')
    await expectEnvelope(await api(DEMO, 'mas/config', { method: 'PUT', token: root, json: { default_time_zone: 'Nowhere/City' } }), 400)
    const put = await api(DEMO, 'mas/config', {
      method: 'PUT',
      token: root,
      json: { default_time_zone: 'America/Manaus', default_allowed_signin: ['iptv', 'google'] },
    })
    expect(await put.json()).toMatchObject({ default_time_zone: 'America/Manaus', updated_by: 'platform@demo' })
    const c = code()
    const created = (await (
      await api(DEMO, 'mas/realm', { method: 'POST', token: root, json: { code: c, name: 'Defaults', parent_code: 'demo' } })
    ).json()) as RealmDetail
    expect(created).toMatchObject({ time_zone: 'America/Manaus', allowed_signin: ['iptv', 'google'] })
    await api(DEMO, 'mas/config', { method: 'PUT', token: root, json: { default_time_zone: 'America/Sao_Paulo', default_allowed_signin: ['iptv'] } })
  })
})
