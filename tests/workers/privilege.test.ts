import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import { PERMISSIONS, PLATFORM_PERMISSIONS } from '#shared/schemas/permission'
import { INFRA_FIELDS } from '#shared/schemas/realm-settings'
import type { ImportReport, User } from '#shared/schemas/user'
import { createSession } from '../../worker/db/sessions'
import { DEMO, ESCOLA, api, call, cookieValue, expectEnvelope, signIn, userWith } from './helpers'

/**
 * Issue 11, privilege: nobody grants what they do not hold (roles), nobody writes to a user above them, a realm
 * switch lasts only while it is allowed, a realm's root is not a platform operator, and infra fields need infra.
 */
const DASH = 'dashboard_dashboard_access'
const ROLES = [DASH, 'mas_role_list', 'mas_role_get', 'mas_role_create', 'mas_role_edit', 'mas_role_delete']
const USERS = [DASH, 'mas_user_list', 'mas_user_get', 'mas_user_create', 'mas_user_edit', 'mas_user_delete', 'mas_user_disable', 'mas_user_import']
const SUL = 'demo-sul.localhost'
const uniq = (p = 'r') => `${p}${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`

/** A token of a seeded account without the sign-in form (escola asks for a captcha on every sign-in). */
async function tokenOf(realm: string, nick: string): Promise<string> {
  return (await createSession(env.DB, realm, nick)).token
}
async function permissionsOf(realm: string, role: string): Promise<string[]> {
  const { results } = await env.DB.prepare('SELECT permission FROM role_permission WHERE realm = ? AND role = ? ORDER BY permission')
    .bind(realm, role)
    .all<{ permission: string }>()
  return results.map((r) => r.permission)
}
/** A role of `realm` granting exactly `permissions`, written with plain SQL. */
async function roleWith(realm: string, permissions: readonly string[]): Promise<string> {
  const role = uniq()
  await env.DB.batch([
    env.DB.prepare('INSERT INTO role (realm, role, description) VALUES (?, ?, ?)').bind(realm, role, 'crafted'),
    ...permissions.map((p) => env.DB.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?)').bind(realm, role, p)),
  ])
  return role
}
/** A user of `realm` holding `roles`, written with plain SQL. */
async function member(realm: string, roles: string[]): Promise<string> {
  const nick = `${uniq('t')}@${realm}`
  await env.DB.batch([
    env.DB.prepare('INSERT INTO user (realm, nick, name, email, origin_realm) VALUES (?, ?, ?, ?, ?)').bind(
      realm,
      nick,
      'Alvo',
      `${nick.replace('@', '.')}@example.org`,
      realm,
    ),
    ...roles.map((r, i) => env.DB.prepare('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, ?)').bind(realm, nick, r, i)),
  ])
  return nick
}

describe('platform-level permissions', () => {
  it('are listed in one place, each with its reason, and belong to the catalogue', () => {
    const names = Object.keys(PLATFORM_PERMISSIONS)
    for (const p of ['mas_realm_list_all', 'mas_config_get', 'mas_config_edit', 'mas_realm_edit_infra', 'ledger_transfer_cross_realm'])
      expect(names).toContain(p)
    for (const [p, why] of Object.entries(PLATFORM_PERMISSIONS)) {
      expect((PERMISSIONS as readonly string[]).includes(p), p).toBe(true)
      expect(why?.length ?? 0, p).toBeGreaterThan(10)
    }
  })

  it('are held by nobody in the seeded realms except the platform role of demo', async () => {
    const marks = Object.keys(PLATFORM_PERMISSIONS)
      .map(() => '?')
      .join(', ')
    const { results } = await env.DB.prepare(
      `SELECT DISTINCT realm, role FROM role_permission WHERE permission IN (${marks}) AND role NOT LIKE 'm%' ORDER BY realm, role`,
    )
      .bind(...Object.keys(PLATFORM_PERMISSIONS))
      .all<{ realm: string; role: string }>()
    expect(results).toEqual([{ realm: 'demo', role: 'platform' }])
    expect(await permissionsOf('demo', 'platform')).toEqual([...PERMISSIONS].sort())
    for (const realm of ['demo', 'escola', 'demo-sul', 'demo-norte']) {
      expect(await permissionsOf(realm, 'root')).toEqual(PERMISSIONS.filter((p) => !(p in PLATFORM_PERMISSIONS)).sort())
    }
    const holders = await env.DB.prepare("SELECT realm, nick FROM user_role WHERE role = 'platform'").all()
    expect(holders.results).toEqual([{ realm: 'demo', nick: 'platform@demo' }])
    const root = await env.DB.prepare("SELECT description FROM role WHERE realm = 'escola' AND role = 'root'").first<{ description: string }>()
    expect(root?.description).not.toMatch(/every realm/i)
  })

  it('are stripped from existing roles by migration 0010, except from roles named platform', async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0010_'))
    expect(migration).toBeDefined()
    const realm = uniq('x').slice(0, 9)
    await env.DB.prepare('INSERT INTO realm (code, name) VALUES (?, ?)').bind(realm, 'Old state').run()
    await env.DB.batch(
      ['root', 'platform', 'custom'].flatMap((role) => [
        env.DB.prepare("INSERT INTO role (realm, role, description) VALUES (?, ?, 'Platform root: every permission in every realm.')").bind(realm, role),
        ...PERMISSIONS.map((p) => env.DB.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?)').bind(realm, role, p)),
      ]),
    )
    await env.DB.batch(migration!.queries.map((q) => env.DB.prepare(q)))
    const realmWide = PERMISSIONS.filter((p) => !(p in PLATFORM_PERMISSIONS)).sort()
    expect(await permissionsOf(realm, 'root')).toEqual(realmWide)
    expect(await permissionsOf(realm, 'custom')).toEqual(realmWide)
    expect(await permissionsOf(realm, 'platform')).toEqual([...PERMISSIONS].sort())
    const root = await env.DB.prepare("SELECT description FROM role WHERE realm = ? AND role = 'root'").bind(realm).first<{ description: string }>()
    expect(root?.description).not.toMatch(/every realm/i)
  })
})

describe('grant ceiling (roles)', () => {
  it('refuses the escalation of the issue: a child realm’s admin giving its own role mas_realm_list_all', async () => {
    const sul = await signIn(SUL, 'demo-sul', 'admin')
    const before = await permissionsOf('demo-sul', 'admin')
    const body = await expectEnvelope(
      await api(SUL, 'mas/permission/admin', { method: 'PUT', token: sul, json: { mas_realm_list_all: true } }),
      403,
      'grant_ceiling',
    )
    expect(body.errors[0]).toMatchObject({ field: 'mas_realm_list_all', value: 'mas_realm_list_all' })
    expect(await permissionsOf('demo-sul', 'admin')).toEqual(before)
    await expectEnvelope(await api(SUL, 'mas/realm/demo-sul/change', { method: 'PUT', token: sul, json: { leaf_realm: 'escola' } }), 403, 'forbidden')
  })

  it('creates a role only with permissions the editor holds', async () => {
    const editor = await userWith('demo', [...ROLES, 'tms_model_list'])
    const role = uniq()
    const refused = await expectEnvelope(
      await api(DEMO, 'mas/permission', { method: 'POST', token: editor.token, json: { role, tms_model_list: true, tms_model_delete: true } }),
      403,
      'grant_ceiling',
    )
    expect(refused.errors[0]).toMatchObject({ field: 'tms_model_delete', value: 'tms_model_delete' })
    expect(await env.DB.prepare('SELECT role FROM role WHERE realm = ? AND role = ?').bind('demo', role).first()).toBeNull()
    // Platform permissions follow the same rule.
    await expectEnvelope(
      await api(DEMO, 'mas/permission', { method: 'POST', token: editor.token, json: { role, mas_config_edit: true } }),
      403,
      'grant_ceiling',
    )
    // A permission left off needs no holding; one held can be given.
    const ok = await api(DEMO, 'mas/permission', { method: 'POST', token: editor.token, json: { role, tms_model_list: true, tms_model_delete: false } })
    expect(ok.status, await ok.clone().text()).toBe(201)
  })

  it('edits only the permissions the editor holds, on or off; unchanged flags and the description pass', async () => {
    const editor = await userWith('demo', [...ROLES, 'tms_model_list'])
    const target = await roleWith('demo', ['tms_model_list', 'tms_model_delete'])
    const off = await expectEnvelope(
      await api(DEMO, `mas/permission/${target}`, { method: 'PUT', token: editor.token, json: { tms_model_delete: false } }),
      403,
      'grant_ceiling',
    )
    expect(off.errors[0]).toMatchObject({ field: 'tms_model_delete', value: 'tms_model_delete' })
    await expectEnvelope(
      await api(DEMO, `mas/permission/${target}`, { method: 'PUT', token: editor.token, json: { mas_realm_list_all: true } }),
      403,
      'grant_ceiling',
    )
    expect(await permissionsOf('demo', target)).toEqual(['tms_model_delete', 'tms_model_list'])
    // The whole map as the editor screen sends it, with the flags it cannot change left as they are.
    const whole = Object.fromEntries(PERMISSIONS.map((p) => [p, p === 'tms_model_delete']))
    const res = await api(DEMO, `mas/permission/${target}`, { method: 'PUT', token: editor.token, json: { ...whole, description: 'Só apagar' } })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await permissionsOf('demo', target)).toEqual(['tms_model_delete'])
  })

  it('refuses to delete a role granting what the editor does not hold', async () => {
    const editor = await userWith('demo', ROLES)
    const target = await roleWith('demo', ['mas_realm_list_all'])
    await expectEnvelope(await api(DEMO, `mas/permission/${target}`, { method: 'DELETE', token: editor.token }), 403, 'grant_ceiling')
    const mine = await roleWith('demo', ['mas_role_list'])
    expect((await api(DEMO, `mas/permission/${mine}`, { method: 'DELETE', token: editor.token })).status).toBe(204)
  })

  it('never lets the editor change or delete a role it holds itself', async () => {
    const editor = await userWith('demo', [...ROLES, 'mas_user_list'])
    const edit = await expectEnvelope(
      await api(DEMO, `mas/permission/${editor.role}`, { method: 'PUT', token: editor.token, json: { description: 'Mine' } }),
      403,
      'own_role',
    )
    expect(edit.errors[0]).toMatchObject({ field: 'role', value: editor.role })
    await expectEnvelope(
      await api(DEMO, `mas/permission/${editor.role}`, { method: 'PUT', token: editor.token, json: { mas_user_list: false } }),
      403,
      'own_role',
    )
    await expectEnvelope(await api(DEMO, `mas/permission/${editor.role}`, { method: 'DELETE', token: editor.token }), 403, 'own_role')
    // A role of the same name in another realm of the tree is another role.
    const root = await signIn(DEMO, 'demo', 'root')
    const res = await api(DEMO, 'mas/permission/root?realm=demo-norte', { method: 'PUT', token: root, json: { description: 'Raiz do Norte' } })
    expect(res.status, await res.clone().text()).toBe(200)
  })

  it('role screen: offers only what the editor holds, and saving leaves the rest of the role as it was', async () => {
    const editor = await userWith('demo', [...ROLES, 'tms_model_list', 'tms_model_get'])
    const target = await roleWith('demo', ['tms_model_list', 'tms_model_delete'])
    const page = await (await call(DEMO, `/realm/role/demo/edit/${target}`, { headers: { cookie: editor.cookie } })).text()
    const box = (p: string) => new RegExp(`<input[^>]*value="${p}"[^>]*>`).exec(page)?.[0] ?? null
    expect(box('tms_model_list')).toContain('checked')
    expect(box('tms_model_get')).not.toBeNull()
    // Beyond the editor: listed apart, read-only, never a checkbox.
    expect(box('tms_model_delete')).toBeNull()
    expect(box('mas_realm_list_all')).toBeNull()
    expect(page).toContain('<code class="hint">tms_model_delete</code>')
    const form = new FormData()
    for (const [k, v] of [
      ['intent', 'edit'],
      ['role', target],
      ['description', 'Pela tela'],
      ['permission', 'tms_model_get'],
    ])
      form.append(k, v)
    const res = await call(DEMO, `/realm/role/demo/edit/${target}`, {
      method: 'POST',
      headers: { cookie: editor.cookie, origin: `http://${DEMO}` },
      body: form,
    })
    expect(res.status, await res.clone().text()).toBe(302)
    expect(await permissionsOf('demo', target)).toEqual(['tms_model_delete', 'tms_model_get'])
    // The editor's own role opens read-only.
    const own = await (await call(DEMO, `/realm/role/demo/edit/${editor.role}`, { headers: { cookie: editor.cookie } })).text()
    expect(own).toContain('Você tem este perfil, então não pode alterá-lo.')
  })

  it('copies no platform permission, and not the platform role, into a new realm', async () => {
    const platform = await signIn(DEMO, 'demo', 'platform')
    const code = uniq('n').slice(0, 9)
    const res = await api(DEMO, 'mas/realm', {
      method: 'POST',
      token: platform,
      json: { code, name: 'Nova Rede', parent_code: 'demo', admin: { nick: 'chefe', name: 'Chefe', password: 'uma-senha-boa', role: 'root' } },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const marks = Object.keys(PLATFORM_PERMISSIONS)
      .map(() => '?')
      .join(', ')
    const leaked = await env.DB.prepare(`SELECT role, permission FROM role_permission WHERE realm = ? AND permission IN (${marks})`)
      .bind(code, ...Object.keys(PLATFORM_PERMISSIONS))
      .all()
    expect(leaked.results).toEqual([])
    expect(await env.DB.prepare("SELECT role FROM role WHERE realm = ? AND role = 'platform'").bind(code).first()).toBeNull()
    expect(await permissionsOf(code, 'root')).toEqual(await permissionsOf('demo', 'root'))
    await expectEnvelope(
      await api(DEMO, 'mas/realm', {
        method: 'POST',
        token: platform,
        json: {
          code: uniq('n').slice(0, 9),
          name: 'Outra',
          parent_code: 'demo',
          admin: { nick: 'chefe', name: 'Chefe', password: 'uma-senha-boa', role: 'platform' },
        },
      }),
      422,
      'not_found',
    )
  })
})

describe('user ceiling', () => {
  it('keeps escola’s admin away from escola’s root: no password, e-mail, disable, delete or import', async () => {
    const coord = await tokenOf('escola', 'coordenadora@escola')
    const before = await env.DB.prepare("SELECT email, password_hash, disabled FROM user WHERE realm = 'escola' AND nick = 'root@escola'").first()
    const target = 'mas/user/root%40escola'
    const pw = await expectEnvelope(await api(ESCOLA, target, { method: 'PUT', token: coord, json: { password: 'tomada-de-conta' } }), 403, 'root_only')
    expect(pw.errors[0]).toMatchObject({ field: 'roles', value: 'root' })
    await expectEnvelope(await api(ESCOLA, target, { method: 'PUT', token: coord, json: { email: 'coord@evil.example' } }), 403, 'root_only')
    await expectEnvelope(await api(ESCOLA, `${target}/disable`, { method: 'PUT', token: coord, json: { disabled: true } }), 403, 'root_only')
    await expectEnvelope(await api(ESCOLA, target, { method: 'DELETE', token: coord }), 403, 'root_only')
    const report = (await (
      await api(ESCOLA, 'mas/user/import', { method: 'POST', token: coord, json: { csv: 'nick,email\nroot@escola,coord@evil.example\n' } })
    ).json()) as ImportReport
    expect(report).toMatchObject({ updated: 0, refused: 1 })
    expect(report.rows[0].errors[0]).toMatchObject({ field: 'roles', cause: 'root_only' })
    expect(await env.DB.prepare("SELECT email, password_hash, disabled FROM user WHERE realm = 'escola' AND nick = 'root@escola'").first()).toEqual(before)
    // Root edits root; the coordinator still edits those below her.
    const root = await tokenOf('escola', 'root@escola')
    expect((await api(ESCOLA, 'mas/user/gestora%40escola', { method: 'PUT', token: coord, json: { phone: '+55 11 3333-4444' } })).status).toBe(200)
    const other = await member('escola', ['root'])
    expect((await api(ESCOLA, `mas/user/${encodeURIComponent(other)}`, { method: 'PUT', token: root, json: { name: 'Outra Raiz' } })).status).toBe(200)
  })

  it('refuses any write to a user holding a permission the editor lacks, naming it', async () => {
    const editor = await userWith('demo', USERS)
    const above = await member('demo', [await roleWith('demo', [DASH, 'mas_user_list', 'tms_model_delete'])])
    const path = `mas/user/${encodeURIComponent(above)}`
    for (const [method, suffix, json] of [
      ['PUT', '', { name: 'Renamed' }],
      ['PUT', '', { email: 'taken@evil.example' }],
      ['PUT', '', { password: 'outra-senha-1' }],
      ['PUT', '/disable', { disabled: true }],
      ['DELETE', '', undefined],
    ] as const) {
      const body = await expectEnvelope(await api(DEMO, path + suffix, { method, token: editor.token, json }), 403, 'user_ceiling')
      expect(body.errors[0], `${method} ${suffix} ${JSON.stringify(json)}`).toMatchObject({ field: 'nick', value: 'tms_model_delete' })
    }
    const csv = `nick,name\n${above},Imported\n`
    const report = (await (await api(DEMO, 'mas/user/import', { method: 'POST', token: editor.token, json: { csv } })).json()) as ImportReport
    expect(report.rows[0]).toMatchObject({ status: 'refused' })
    expect(report.rows[0].errors[0]).toMatchObject({ cause: 'user_ceiling' })
    expect(await env.DB.prepare('SELECT name, disabled FROM user WHERE realm = ? AND nick = ?').bind('demo', above).first()).toEqual({
      name: 'Alvo',
      disabled: 0,
    })
    // The user is still listed and readable, and the answer says why it cannot be changed.
    const read = (await (await api(DEMO, path, { token: editor.token })).json()) as User
    expect(read.ceiling).toMatchObject({ cause: 'user_ceiling', value: 'tms_model_delete' })
    // A user whose permissions are a subset of the editor's is editable.
    const below = await member('demo', [await roleWith('demo', [DASH, 'mas_user_list'])])
    expect((await api(DEMO, `mas/user/${encodeURIComponent(below)}`, { method: 'PUT', token: editor.token, json: { name: 'Renomeado' } })).status).toBe(200)
    expect(((await (await api(DEMO, `mas/user/${encodeURIComponent(below)}`, { token: editor.token })).json()) as User).ceiling).toBeNull()
  })

  it('gives the root role only to a holder of root (admin grants the same permissions, not the same station)', async () => {
    const coord = await tokenOf('escola', 'coordenadora@escola')
    const created = await expectEnvelope(
      await api(ESCOLA, 'mas/user', { method: 'POST', token: coord, json: { nick: uniq('n'), name: 'Nova Raiz', roles: ['root'], password: 'senha-da-raiz' } }),
      403,
      'root_only',
    )
    expect(created.errors[0]).toMatchObject({ field: 'roles', value: 'root' })
    const gestora = 'mas/user/gestora%40escola'
    await expectEnvelope(await api(ESCOLA, gestora, { method: 'PUT', token: coord, json: { roles: ['manager', 'root'] } }), 403, 'root_only')
    const roles = (await (await api(ESCOLA, 'mas/user/roles', { token: coord })).json()) as { items: { role: string; assignable: boolean }[] }
    expect(roles.items.find((r) => r.role === 'root')?.assignable).toBe(false)
    expect(roles.items.find((r) => r.role === 'admin')?.assignable).toBe(true)
    const report = (await (
      await api(ESCOLA, 'mas/user/import', { method: 'POST', token: coord, json: { csv: `nick,name,roles\n${uniq('n')},Raiz Importada,root\n` } })
    ).json()) as ImportReport
    expect(report.rows[0].errors[0]).toMatchObject({ cause: 'root_only' })
    const root = await tokenOf('escola', 'root@escola')
    expect((await api(ESCOLA, 'mas/user', { method: 'POST', token: root, json: { nick: uniq('n'), name: 'Vice Raiz', roles: ['root'] } })).status).toBe(201)
  })

  it('lets users change their own name and password, never their own roles upwards', async () => {
    const me = await userWith('demo', [...USERS, 'tms_model_list'])
    const path = `mas/user/${encodeURIComponent(me.nick)}`
    expect((await api(DEMO, path, { method: 'PUT', token: me.token, json: { name: 'Eu Mesmo', password: 'minha-senha-nova' } })).status).toBe(200)
    await expectEnvelope(await api(DEMO, path, { method: 'PUT', token: me.token, json: { roles: [me.role, 'root'] } }), 403, 'escalation')
  })

  it('shows on the user edit screen that the user is above the editor', async () => {
    const token = await tokenOf('escola', 'coordenadora@escola')
    const res = await call(ESCOLA, '/user/edit/root@escola', { headers: { cookie: `dash_session=${cookieValue(token)}` } })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('Somente quem tem o perfil root pode alterar esta conta.')
  })
})

describe('realm-switched sessions', () => {
  it('end when the permission that allowed the switch is revoked, and stay ended', async () => {
    const switcher = await userWith('demo', [DASH, 'mas_realm_list'])
    const res = await api(DEMO, 'mas/realm/demo/change', { method: 'PUT', token: switcher.token, json: { leaf_realm: 'demo-sul' } })
    expect(res.status, await res.clone().text()).toBe(200)
    const switched = ((await res.json()) as { auth_token: string }).auth_token
    expect((await api(SUL, 'mas/session', { token: switched })).status).toBe(200)
    await env.DB.prepare("DELETE FROM role_permission WHERE realm = 'demo' AND role = ? AND permission = 'mas_realm_list'").bind(switcher.role).run()
    await expectEnvelope(await api(SUL, 'mas/session', { token: switched }), 401, 'unauthorized')
    await env.DB.prepare("INSERT INTO role_permission (realm, role, permission) VALUES ('demo', ?, 'mas_realm_list')").bind(switcher.role).run()
    await expectEnvelope(await api(SUL, 'mas/session', { token: switched }), 401, 'unauthorized')
    const row = await env.DB.prepare('SELECT revoked_at FROM session WHERE nick = ? AND active_realm = ?')
      .bind(switcher.nick, 'demo-sul')
      .first<{ revoked_at: string | null }>()
    expect(row?.revoked_at).toBeTruthy()
  })

  it('end when the acting realm leaves the home realm’s tree without mas_realm_list_all', async () => {
    const role = await roleWith('demo', [DASH, 'mas_realm_list', 'mas_realm_list_all'])
    const nick = await member('demo', [role])
    const token = await tokenOf('demo', nick)
    const res = await api(DEMO, 'mas/realm/demo/change', { method: 'PUT', token, json: { leaf_realm: 'escola' } })
    expect(res.status, await res.clone().text()).toBe(200)
    const switched = ((await res.json()) as { auth_token: string }).auth_token
    expect((await api(ESCOLA, 'mas/session', { token: switched })).status).toBe(200)
    await env.DB.prepare("DELETE FROM role_permission WHERE realm = 'demo' AND role = ? AND permission = 'mas_realm_list_all'").bind(role).run()
    await expectEnvelope(await api(ESCOLA, 'mas/session', { token: switched }), 401, 'unauthorized')
  })
})

describe('a realm’s root is not a platform operator', () => {
  it('root@escola cannot list, switch to or administer demo', async () => {
    const root = await tokenOf('escola', 'root@escola')
    const list = (await (await api(ESCOLA, 'mas/realm?limit=1000', { token: root })).json()) as ListPage<{ code: string }>
    expect(list.items.map((r) => r.code)).toEqual(['escola'])
    await expectEnvelope(await api(ESCOLA, 'mas/realm/escola/change', { method: 'PUT', token: root, json: { leaf_realm: 'demo' } }), 403, 'forbidden')
    await expectEnvelope(await api(ESCOLA, 'mas/permission?realm=demo', { token: root }), 403, 'forbidden')
    await expectEnvelope(await api(ESCOLA, 'mas/realm/demo', { method: 'PUT', token: root, json: { name: 'Tomado' } }), 404)
  })

  it('root@demo administers its tree; platform@demo reaches every realm', async () => {
    const root = await signIn(DEMO, 'demo', 'root')
    const list = (await (await api(DEMO, 'mas/realm?limit=1000', { token: root })).json()) as ListPage<{ code: string }>
    const codes = list.items.map((r) => r.code)
    expect(codes).toEqual(expect.arrayContaining(['demo', 'demo-sul', 'demo-norte']))
    expect(codes).not.toContain('escola')
    const sul = await api(DEMO, 'mas/realm/demo/change', { method: 'PUT', token: root, json: { leaf_realm: 'demo-sul' } })
    expect(sul.status).toBe(200)
    const inSul = ((await sul.json()) as { auth_token: string }).auth_token
    expect((await api(SUL, 'mas/user/admin%40demo-sul', { method: 'PUT', token: inSul, json: { phone: '+55 51 3333-0000' } })).status).toBe(200)

    const platform = await signIn(DEMO, 'demo', 'platform')
    const all = (await (await api(DEMO, 'mas/realm?limit=1000', { token: platform })).json()) as ListPage<{ code: string }>
    expect(all.items.map((r) => r.code)).toEqual(expect.arrayContaining(['demo', 'escola', 'demo-sul']))
    const there = await api(DEMO, 'mas/realm/demo/change', { method: 'PUT', token: platform, json: { leaf_realm: 'escola' } })
    expect(there.status).toBe(200)
    const inEscola = ((await there.json()) as { auth_token: string }).auth_token
    // A platform operator may edit a realm's root account.
    expect((await api(ESCOLA, 'mas/user/root%40escola', { method: 'PUT', token: inEscola, json: { phone: '+55 11 2222-0000' } })).status).toBe(200)
  })
})

describe('infra and development fields', () => {
  it('cover servers, storage, hosts, the development flag and the sign-in secret', () => {
    for (const f of [
      'development',
      'hosts',
      'irm_servers',
      'room_servers',
      'api_endpoint',
      'base_url',
      'dashboard_url',
      'files_base_url',
      'storage_bucket',
      'storage_credential_key',
      'employee_token_secret',
    ]) {
      expect(INFRA_FIELDS, f).toContain(f)
    }
  })

  it('change only with mas_realm_edit_infra, on create and on update', async () => {
    const admin = await userWith('demo', [DASH, 'mas_realm_list', 'mas_realm_get', 'mas_realm_create', 'mas_realm_edit'])
    const code = uniq('i').slice(0, 9)
    const create = await expectEnvelope(
      await api(DEMO, 'mas/realm', { method: 'POST', token: admin.token, json: { code, name: 'Dev', development: true } }),
      403,
      'forbidden',
    )
    expect(create.errors[0]).toMatchObject({ field: 'development', value: 'mas_realm_edit_infra' })
    expect((await api(DEMO, 'mas/realm', { method: 'POST', token: admin.token, json: { code, name: 'Dev' } })).status).toBe(201)
    for (const json of [
      { development: true },
      { employee_token_secret: 'um-segredo-novo' },
      { irm_servers: ['irm.example.org'] },
      { storage_credential_key: 'AKIA-123' },
    ]) {
      const body = await expectEnvelope(await api(DEMO, `mas/realm/${code}`, { method: 'PUT', token: admin.token, json }), 403, 'forbidden')
      expect(body.errors[0]).toMatchObject({ field: Object.keys(json)[0], value: 'mas_realm_edit_infra' })
    }
    expect(await env.DB.prepare('SELECT development, employee_token_secret FROM realm WHERE code = ?').bind(code).first()).toEqual({
      development: 0,
      employee_token_secret: '',
    })
    const platform = await signIn(DEMO, 'demo', 'platform')
    expect((await api(DEMO, `mas/realm/${code}`, { method: 'PUT', token: platform, json: { development: true } })).status).toBe(200)
  })
})

describe('npm run platform:grant (out-of-band bootstrap of a platform operator)', () => {
  it('creates the platform role where missing, gives it to the user once, and refuses bad names', async () => {
    const { findUserSql, grantSql, parseGrant } = await import('../../worker/lib/platform-grant')
    const nick = await member('escola', ['manager'])
    const grant = parseGrant('escola', nick.replace('@escola', ''))
    expect(await env.DB.prepare(findUserSql(grant)).all()).toMatchObject({ results: [{ nick }] })
    for (let i = 0; i < 2; i++) for (const sql of grantSql(grant)) await env.DB.prepare(sql).run()
    expect(await permissionsOf('escola', 'platform')).toEqual([...PERMISSIONS].sort())
    const roles = await env.DB.prepare('SELECT role, position FROM user_role WHERE realm = ? AND nick = ? ORDER BY position').bind('escola', nick).all()
    expect(roles.results).toEqual([
      { role: 'manager', position: 0 },
      { role: 'platform', position: 1 },
    ])
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE realm = 'escola' AND actor = 'platform:grant' AND entity_id = ?")
      .bind(nick)
      .first<{ n: number }>()
    expect(audit?.n).toBe(1)
    // Now a platform operator: reaches demo from escola.
    const token = await tokenOf('escola', nick)
    expect((await api(ESCOLA, 'mas/realm/escola/change', { method: 'PUT', token, json: { leaf_realm: 'demo' } })).status).toBe(200)
    expect(() => parseGrant('escola', "x' OR 1=1 --")).toThrow()
    expect(() => parseGrant("demo'; DROP TABLE user; --", 'root')).toThrow()
    expect((await env.DB.prepare(findUserSql(parseGrant('escola', 'ninguem'))).all()).results).toEqual([])
  })
})
