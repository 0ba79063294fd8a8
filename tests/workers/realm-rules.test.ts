import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { hashPassword } from '../../worker/lib/password'
import { api, call, cookieValue, expectEnvelope, userWith } from './helpers'

/**
 * Realm rules of the seeds that the API enforces: allowed_roles (console sign-in and every console request), the
 * limits max_rooms and max_users_per_room, the credits for new users, and `fields` on GET mas/realm/{code}.
 */

/** A new realm with its own host and the given column values. */
async function freshRealm(values: Record<string, string | number> = {}) {
  const code = `r${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const host = `${code}.localhost`
  const cols = ['code', 'name', ...Object.keys(values)]
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO realm (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(code, `Realm ${code}`, ...Object.values(values)),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(host, code),
  ])
  return { code, host }
}

/** A user of `realm` with a password and one role of the given name holding `permissions`. */
async function member(realm: string, role: string, permissions: string[]) {
  const nick = `u${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  await env.DB.batch([
    env.DB.prepare('INSERT INTO role (realm, role) VALUES (?, ?) ON CONFLICT DO NOTHING').bind(realm, role),
    ...permissions.map((p) =>
      env.DB.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').bind(realm, role, p),
    ),
    env.DB.prepare('INSERT INTO user (realm, nick, name, origin_realm, password_hash) VALUES (?, ?, ?, ?, ?)').bind(
      realm,
      nick,
      `User ${nick}`,
      realm,
      await hashPassword('demo1234'),
    ),
    env.DB.prepare('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, 0)').bind(realm, nick, role),
  ])
  return nick
}

const signin = (host: string, realm: string, nick: string, platform?: string) =>
  api(host, 'device', { method: 'POST', json: { realm, nick, password: 'demo1234', ...(platform ? { platform } : {}) } })

describe('allowed_roles', () => {
  it('refuses a console sign-in whose roles the realm does not list, and admits the listed ones and other platforms', async () => {
    const { code, host } = await freshRealm({ allowed_roles: JSON.stringify(['manager', 'admin']) })
    const teacher = await member(code, 'teacher', ['dashboard_dashboard_access'])
    const manager = await member(code, 'manager', ['dashboard_dashboard_access'])
    const refused = await expectEnvelope(await signin(host, code, teacher), 403, 'role_not_allowed')
    expect(refused.errors[0].field).toBe('nick')
    const sessions = await env.DB.prepare('SELECT COUNT(*) AS n FROM session WHERE realm = ? AND nick = ?').bind(code, teacher).first<{ n: number }>()
    expect(sessions?.n).toBe(0)
    expect((await signin(host, code, manager)).status).toBe(200)
    // The rule is the console's: the same teacher signs in to the mobile app.
    expect((await signin(host, code, teacher, 'mobile')).status).toBe(200)
  })

  it('leaves a realm with an empty list unrestricted', async () => {
    const { code, host } = await freshRealm({ allowed_roles: '[]' })
    const teacher = await member(code, 'teacher', ['dashboard_dashboard_access'])
    expect((await signin(host, code, teacher)).status).toBe(200)
  })

  it('ends a console session at its next request once its role is no longer allowed', async () => {
    const { code, host } = await freshRealm({ allowed_roles: '[]' })
    const teacher = await member(code, 'teacher', ['dashboard_dashboard_access', 'mas_realm_get'])
    const res = await signin(host, code, teacher)
    const { auth_token: token } = (await res.json()) as { auth_token: string }
    expect((await api(host, `mas/realm/${code}`, { token })).status).toBe(200)
    await env.DB.prepare('UPDATE realm SET allowed_roles = ? WHERE code = ?')
      .bind(JSON.stringify(['manager']), code)
      .run()
    expect((await api(host, `mas/realm/${code}`, { token })).status).toBe(401)
    // Revoked for good: allowing the role again does not bring it back.
    await env.DB.prepare("UPDATE realm SET allowed_roles = '[]' WHERE code = ?").bind(code).run()
    expect((await api(host, `mas/realm/${code}`, { token })).status).toBe(401)
    const row = await env.DB.prepare('SELECT revoked_at FROM session WHERE realm = ? AND nick = ?').bind(code, teacher).first<{ revoked_at: string | null }>()
    expect(row?.revoked_at).not.toBeNull()
  })

  it('keeps a mobile or web token of a role the realm leaves out of the console, as its cookie or as x-api-key', async () => {
    const { code, host } = await freshRealm({ allowed_roles: JSON.stringify(['manager']) })
    const permissions = ['dashboard_dashboard_access', 'mas_realm_get']
    const teacher = await member(code, 'teacher', permissions)
    const manager = await member(code, 'manager', permissions)
    const token = async (nick: string, platform: string) => ((await (await signin(host, code, nick, platform)).json()) as { auth_token: string }).auth_token
    const openConsole = (t: string) => call(host, '/', { headers: { cookie: `dash_session=${cookieValue(t)}` } })
    const held = async (t: string) => {
      const res = await api(host, 'mas/session', { token: t })
      expect(res.status).toBe(200)
      return ((await res.json()) as { permissions: Record<string, boolean> }).permissions
    }
    for (const platform of ['mobile', 'web']) {
      // As x-api-key: the token works on its own surface, without the console's permission.
      const own = await token(teacher, platform)
      expect((await api(host, `mas/realm/${code}`, { token: own })).status).toBe(200)
      expect(await held(own)).toMatchObject({ dashboard_dashboard_access: false, mas_realm_get: true })
      // As the console's cookie: sent to sign-in as lacking console access, the cookie cleared, not the console's home.
      const refused = await openConsole(await token(teacher, platform))
      expect(refused.status).toBe(302)
      expect(refused.headers.get('location')).toBe('/login?reason=dashboard_access')
      expect(refused.headers.get('set-cookie')).toMatch(/^dash_session=; Max-Age=0/)
      // The same token of a listed role opens the console: what the refusal above depends on is the role.
      expect(await held(await token(manager, platform))).toMatchObject({ dashboard_dashboard_access: true })
      const admitted = await openConsole(await token(manager, platform))
      expect(admitted.status).toBe(200)
      expect(await admitted.text()).not.toContain('name="password"')
    }
  })

  it('does not keep a platform operator (mas_realm_list_all) out of any realm', async () => {
    const { code, host } = await freshRealm({ allowed_roles: JSON.stringify(['root']) })
    const operator = await member(code, 'platform', ['dashboard_dashboard_access', 'mas_realm_list_all'])
    expect((await signin(host, code, operator)).status).toBe(200)
  })
})

describe('realm limits', () => {
  it('refuses a room beyond max_rooms and creates nothing; -1 is no limit', async () => {
    const { code, host } = await freshRealm({ max_rooms: 1 })
    const { token } = await userWith(code, ['room_room_create', 'room_room_list'])
    expect((await api(host, 'room/room', { method: 'POST', token, json: { name: 'Primeira' } })).status).toBe(201)
    const refused = await expectEnvelope(await api(host, 'room/room', { method: 'POST', token, json: { name: 'Segunda' } }), 422, 'limit')
    expect(refused.errors[0].value).toBe(1)
    expect(refused.errors[0].message).toBe('validation.room.max_rooms')
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM room WHERE realm = ?').bind(code).first<{ n: number }>()
    expect(count?.n).toBe(1)
    await env.DB.prepare('UPDATE realm SET max_rooms = -1 WHERE code = ?').bind(code).run()
    expect((await api(host, 'room/room', { method: 'POST', token, json: { name: 'Segunda' } })).status).toBe(201)
  })

  it('refuses a member beyond max_users_per_room', async () => {
    const { code, host } = await freshRealm({ max_users_per_room: 1 })
    const { token, nick } = await userWith(code, ['room_room_create', 'room_room_edit'])
    const other = await member(code, 'student', [])
    const room = (await (await api(host, 'room/room', { method: 'POST', token, json: { name: 'Sala' } })).json()) as { id: string }
    expect((await api(host, `room/room/${room.id}/member`, { method: 'POST', token, json: { nick } })).status).toBe(201)
    const refused = await expectEnvelope(await api(host, `room/room/${room.id}/member`, { method: 'POST', token, json: { nick: other } }), 422, 'limit')
    expect(refused.errors[0].message).toBe('validation.room.max_members')
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM room_member WHERE realm = ? AND room_id = ?').bind(code, room.id).first<{ n: number }>()
    expect(count?.n).toBe(1)
  })

  it('issues the credits for new users through the ledger when a user is created in a ledger realm, once per nick', async () => {
    const { code, host } = await freshRealm({ ledger_enabled: 1, ledger_new_user_credits: 40 })
    const { token } = await userWith(code, ['mas_user_create', 'mas_user_delete'])
    const created = await api(host, 'mas/user', { method: 'POST', token, json: { nick: 'novato', name: 'Novato' } })
    expect(created.status, await created.clone().text()).toBe(201)
    const wallet = await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${code}:novato`).first<{ balance: number }>()
    expect(wallet?.balance).toBe(40)
    const tx = await env.DB.prepare("SELECT type, points, idempotency_key FROM ledger_transaction WHERE realm = ? AND type = 'issuance'")
      .bind(code)
      .all<{ type: string; points: number; idempotency_key: string }>()
    expect(tx.results).toEqual([{ type: 'issuance', points: 40, idempotency_key: 'new_user:novato' }])
    // Deleted and created again, the nick gets nothing more.
    expect((await api(host, 'mas/user/novato', { method: 'DELETE', token })).status).toBeLessThan(300)
    expect((await api(host, 'mas/user', { method: 'POST', token, json: { nick: 'novato', name: 'Novato' } })).status).toBe(201)
    const again = await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_transaction WHERE realm = ?').bind(code).first<{ n: number }>()
    expect(again?.n).toBe(1)
  })

  it('gives nothing where the ledger is off', async () => {
    const { code, host } = await freshRealm({ ledger_enabled: 0, ledger_new_user_credits: 40 })
    const { token } = await userWith(code, ['mas_user_create'])
    expect((await api(host, 'mas/user', { method: 'POST', token, json: { nick: 'semcredito', name: 'Sem' } })).status).toBe(201)
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_transaction WHERE realm = ?').bind(code).first<{ n: number }>()
    expect(n?.n).toBe(0)
  })
})

describe('GET mas/realm/{code} fields', () => {
  it('answers only the requested fields', async () => {
    const { code, host } = await freshRealm()
    const { token } = await userWith(code, ['mas_realm_get'])
    const res = await api(host, `mas/realm/${code}?fields=code,name,time_zone`, { token })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ code, name: `Realm ${code}`, time_zone: 'America/Sao_Paulo' })
    const all = (await (await api(host, `mas/realm/${code}`, { token })).json()) as Record<string, unknown>
    expect(Object.keys(all).length).toBeGreaterThan(20)
  })

  it('refuses an unknown or malformed field name with a 400 envelope', async () => {
    const { code, host } = await freshRealm()
    const { token } = await userWith(code, ['mas_realm_get'])
    const unknown = await expectEnvelope(await api(host, `mas/realm/${code}?fields=code,no_such_field`, { token }), 400, 'unknown_field')
    expect(unknown.errors[0]).toMatchObject({ field: 'fields', value: 'no_such_field' })
    await expectEnvelope(await api(host, `mas/realm/${code}?fields=code,DROP%20TABLE`, { token }), 400)
  })
})
