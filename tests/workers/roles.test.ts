import { describe, expect, it } from 'vitest'
import { DEMO, api, call, consoleSignIn, expectEnvelope, signIn, userWith } from './helpers'

const ADMIN = ['dashboard_dashboard_access', 'mas_role_list', 'mas_role_get', 'mas_role_create', 'mas_role_edit', 'mas_role_delete']
/** What the tests below grant: an editor gives only permissions they hold (grant ceiling, privilege.test.ts). */
const GIVES = ['mas_user_list', 'mas_user_get', 'mas_realm_list', 'tms_model_list', 'tms_model_get']
const uniq = () => `r${crypto.randomUUID().slice(0, 8)}`

async function admin() {
  return (await userWith('demo', [...ADMIN, ...GIVES])).token
}

describe('roles API (/mas/permission)', () => {
  it('lists the realm roles with their permission counts', async () => {
    const res = await api(DEMO, 'mas/permission?limit=100', { token: await admin() })
    expect(res.status).toBe(200)
    const page = (await res.json()) as { items: { role: string; permission_count: number }[]; total: number }
    const byName = Object.fromEntries(page.items.map((r) => [r.role, r.permission_count]))
    for (const role of ['root', 'admin', 'manager', 'support', 'teacher', 'moderator', 'student']) expect(byName).toHaveProperty(role)
    expect(byName.root).toBeGreaterThan(byName.manager)
    expect(byName.student).toBe(0)
  })

  it('creates a role from flat permission flags and answers the full map', async () => {
    const role = uniq()
    const res = await api(DEMO, 'mas/permission', {
      method: 'POST',
      token: await admin(),
      json: { role, description: 'Readers', mas_user_list: true, mas_user_get: true, mas_user_edit: false },
    })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({
      realm: 'demo',
      role,
      description: 'Readers',
      mas_user_list: true,
      mas_user_get: true,
      mas_user_edit: false,
      dashboard_dashboard_access: false,
    })
    expect(body.updated_by).toMatch(/^u/)
  })

  it('refuses unknown permissions and non-boolean flags, field by field, and changes nothing', async () => {
    const role = uniq()
    const token = await admin()
    const body = await expectEnvelope(
      await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role, mas_bogus_thing: true, mas_user_list: 'yes' } }),
      400,
    )
    expect(body.errors.map((e) => [e.field, e.message]).sort()).toEqual([
      ['mas_bogus_thing', 'validation.unknown_permission'],
      ['mas_user_list', 'validation.boolean'],
    ])
    await expectEnvelope(await api(DEMO, `mas/permission/${role}`, { token }), 404, 'not_found')
  })

  it('refuses a malformed name and a duplicate', async () => {
    const token = await admin()
    await expectEnvelope(await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role: 'Bad Name!' } }), 400)
    await expectEnvelope(await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role: 'teacher' } }), 409, 'conflict')
  })

  it('updates only the flags sent, and the change applies to the next request of a session holding it', async () => {
    const token = await admin()
    const role = uniq()
    await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role, dashboard_dashboard_access: true, mas_realm_list: true } })
    const member = await userWith('demo', ['dashboard_dashboard_access'])
    // Give the member this role too, so its permissions add to theirs.
    const { env } = await import('cloudflare:test')
    await env.DB.prepare("INSERT INTO user_role (realm, nick, role, position) VALUES ('demo', ?, ?, 1)").bind(member.nick, role).run()
    expect((await api(DEMO, 'mas/realm', { token: member.token })).status).toBe(200)

    const res = await api(DEMO, `mas/permission/${role}`, { method: 'PUT', token, json: { description: 'No realms', mas_realm_list: false } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ description: 'No realms', mas_realm_list: false, dashboard_dashboard_access: true })
    await expectEnvelope(await api(DEMO, 'mas/realm', { token: member.token }), 403, 'forbidden')
  })

  it('refuses to delete a role in use, with a clear message, and deletes an unused one', async () => {
    const token = await admin()
    // Deleting `teacher` needs every permission it grants: realm root holds them.
    const body = await expectEnvelope(await api(DEMO, 'mas/permission/teacher', { method: 'DELETE', token: await signIn(DEMO, 'demo', 'root') }), 409, 'in_use')
    expect(body.errors[0].message).toContain('held by')
    const role = uniq()
    await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role } })
    expect((await api(DEMO, `mas/permission/${role}`, { method: 'DELETE', token })).status).toBe(204)
    await expectEnvelope(await api(DEMO, `mas/permission/${role}`, { token }), 404)
  })

  it('refuses any change to a role the caller holds, so nobody locks themselves out (or in)', async () => {
    const me = await userWith('demo', [...ADMIN, 'mas_user_list'])
    await expectEnvelope(await api(DEMO, `mas/permission/${me.role}`, { method: 'PUT', token: me.token, json: { mas_role_edit: false } }), 403, 'own_role')
    await expectEnvelope(await api(DEMO, `mas/permission/${me.role}`, { method: 'PUT', token: me.token, json: { mas_user_list: false } }), 403, 'own_role')
    expect(((await (await api(DEMO, `mas/permission/${me.role}`, { token: me.token })).json()) as Record<string, boolean>).mas_role_edit).toBe(true)
  })

  it('reaches other realms only within the caller’s realm tree', async () => {
    const scoped = await userWith('demo', [...ADMIN])
    await expectEnvelope(await api(DEMO, 'mas/permission?realm=escola', { token: scoped.token }), 403, 'forbidden')
    const everywhere = await userWith('demo', [...ADMIN, 'mas_realm_list_all'])
    const res = await api(DEMO, 'mas/permission?realm=escola', { token: everywhere.token })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { items: { realm: string }[] }).items.every((r) => r.realm === 'escola')).toBe(true)
  })
})

describe('role screens', () => {
  const form = (fields: Record<string, string | string[]>) => {
    const f = new FormData()
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) f.append(k, one)
    return f
  }

  it('creates a role from the editor form and returns to the list with a message', async () => {
    const { cookie } = await userWith('demo', [...ADMIN, ...GIVES])
    const role = uniq()
    const res = await call(DEMO, '/realm/role/create', {
      method: 'POST',
      headers: { cookie, origin: `http://${DEMO}` },
      body: form({ intent: 'create', role, description: 'From the screen', permission: ['dashboard_dashboard_access', 'tms_model_list'] }),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/realm/role')
    expect(res.headers.get('set-cookie')).toContain('dash_flash=')
    const edit = await (await call(DEMO, `/realm/role/demo/edit/${role}`, { headers: { cookie } })).text()
    expect(edit).toContain('From the screen')
    const box = (p: string) => new RegExp(`<input[^>]*value="${p}"[^>]*>`).exec(edit)?.[0] ?? ''
    expect(box('tms_model_list')).toContain('checked')
    expect(box('tms_model_create')).not.toContain('checked')
  })

  it('edits a role: unticked permissions are revoked', async () => {
    const { cookie, token } = await userWith('demo', [...ADMIN, ...GIVES])
    const role = uniq()
    await api(DEMO, 'mas/permission', { method: 'POST', token, json: { role, tms_model_list: true, tms_model_get: true } })
    const res = await call(DEMO, `/realm/role/demo/edit/${role}`, {
      method: 'POST',
      headers: { cookie, origin: `http://${DEMO}` },
      body: form({ intent: 'edit', role, description: 'Edited', permission: ['tms_model_get'] }),
    })
    expect(res.status).toBe(302)
    const after = (await (await api(DEMO, `mas/permission/${role}`, { token })).json()) as Record<string, unknown>
    expect(after).toMatchObject({ description: 'Edited', tms_model_list: false, tms_model_get: true })
  })

  it('reports a role in use when deleting it from the list', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const res = await call(DEMO, '/realm/role?index', { method: 'POST', headers: { cookie, origin: `http://${DEMO}` }, body: form({ role: 'teacher' }) })
    expect(res.status).toBe(409)
    expect(await res.text()).toContain('in_use')
  })
})
