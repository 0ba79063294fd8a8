import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import type { ImportReport, User } from '#shared/schemas/user'
import { DEMO, api, call, expectEnvelope, signIn, userWith } from './helpers'

const DASH = 'dashboard_dashboard_access'
const USERS = [DASH, 'mas_user_list', 'mas_user_get', 'mas_user_create', 'mas_user_edit', 'mas_user_delete', 'mas_user_disable', 'mas_user_import']
const nick = () => `u${crypto.randomUUID().slice(0, 8)}`
/** An administrator who may also give the teacher and manager roles (holds their permissions). */
const manager = () => signIn(DEMO, 'demo', 'root')

describe('user search', () => {
  it('needs at least 3 characters, and finds by nick, name or e-mail with filters and paging', async () => {
    const { token } = await userWith('demo', USERS)
    const short = await expectEnvelope(await api(DEMO, 'mas/user?like=ma', { token }), 400, 'min_search')
    expect(short.errors[0]).toMatchObject({ field: 'like', value: 3, message: 'validation.min_search' })
    // The list's text filters are searches too.
    for (const field of ['nick', 'name', 'email']) {
      const filtered = await expectEnvelope(await api(DEMO, `mas/user?${field}=ma`, { token }), 400, 'min_search')
      expect(filtered.errors[0]).toMatchObject({ field, value: 3 })
    }
    const byName = (await (await api(DEMO, 'mas/user?name=marina', { token })).json()) as ListPage<User>
    expect(byName.items.map((u) => u.nick)).toEqual(['manager@demo'])
    const found = (await (await api(DEMO, 'mas/user?like=marina', { token })).json()) as ListPage<User>
    expect(found.items.map((u) => u.nick)).toEqual(['manager@demo'])
    expect(found.items[0].roles).toEqual(['manager'])
    expect(JSON.stringify(found)).not.toContain('pbkdf2')
    const byRole = (await (await api(DEMO, 'mas/user?role=teacher&limit=100', { token })).json()) as ListPage<User>
    expect(byRole.items.map((u) => u.nick)).toEqual(expect.arrayContaining(['teacher@demo', 'coord@demo-sul']))
    expect(byRole.items.every((u) => u.roles.includes('teacher'))).toBe(true)
    const page = (await (await api(DEMO, 'mas/user?limit=2&offset=1&order=nick', { token })).json()) as ListPage<User>
    expect(page.items).toHaveLength(2)
    expect(page.total).toBeGreaterThan(3)
    const foreign = (await (await api(DEMO, 'mas/user?origin_realm=demo-sul', { token })).json()) as ListPage<User>
    expect(foreign.items.map((u) => u.nick)).toEqual(['coord@demo-sul'])
  })

  it('shows why on the users screen instead of sending a short search or text filter', async () => {
    const { cookie } = await userWith('demo', [DASH, 'mas_user_list'])
    for (const q of ['like=ma', 'name=ma', 'email=ab']) {
      const res = await call(DEMO, `/user?${q}`, { headers: { cookie } })
      expect(res.status, q).toBe(200)
      expect(await res.text()).toMatch(/role="alert">Digite pelo menos 3 caracteres\./)
    }
    const res = await call(DEMO, '/user?name=marina', { headers: { cookie } })
    const page = await res.text()
    expect(page).not.toMatch(/role="alert">Digite pelo menos/)
    expect(page).toContain('manager@demo')
  })
})

describe('user create and edit', () => {
  it('creates a user with roles, supervisees and flags, appending the nick suffix; password works at once', async () => {
    const token = await manager()
    const n = nick()
    const res = await api(DEMO, 'mas/user', {
      method: 'POST',
      token,
      json: {
        nick: n,
        name: 'Nova Pessoa',
        email: 'Nova@Demo.edu',
        phone: '+55 11 99999-0000',
        external_id: 'ext-1',
        roles: ['teacher'],
        supervisees: ['student@demo'],
        bot: false,
        invisible: true,
        hd_support: true,
        password: 'senha-forte-1',
      },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const user = (await res.json()) as User
    expect(user).toMatchObject({
      nick: `${n}@demo`,
      origin_realm: 'demo',
      email: 'nova@demo.edu',
      roles: ['teacher'],
      supervisees: ['student@demo'],
      invisible: true,
      hd_support: true,
      disabled: false,
    })
    expect(user).not.toHaveProperty('password_hash')
    expect(await signIn(DEMO, 'demo', n, 'senha-forte-1')).toBeTruthy()
    await expectEnvelope(await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: n, name: 'Again' } }), 409, 'conflict')
    await expectEnvelope(
      await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: nick(), name: 'X', email: 'not-an-email', password: 'short' } }),
      400,
    )
    await expectEnvelope(await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: nick(), name: 'X', roles: ['nope'] } }), 422, 'not_found')
    await expectEnvelope(
      await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: nick(), name: 'X', supervisees: ['ghost@demo'] } }),
      422,
      'not_found',
    )
  })

  it('refuses editing a user whose origin realm is another one', async () => {
    const token = await manager()
    const body = await expectEnvelope(
      await api(DEMO, `mas/user/${encodeURIComponent('coord@demo-sul')}`, { method: 'PUT', token, json: { name: 'Mudado' } }),
      403,
      'origin_realm',
    )
    expect(body.errors[0].value).toBe('demo-sul')
    await expectEnvelope(
      await api(DEMO, `mas/user/${encodeURIComponent('coord@demo-sul')}/disable`, { method: 'PUT', token, json: { disabled: true } }),
      403,
      'origin_realm',
    )
    expect((await api(DEMO, `mas/user/${encodeURIComponent('coord@demo-sul')}`, { token })).status).toBe(200)
  })

  it('gives or removes only roles whose permissions the editor holds, and never their own access', async () => {
    const limited = await userWith('demo', [...USERS, 'mas_role_list'])
    const n = nick()
    await api(DEMO, 'mas/user', { method: 'POST', token: limited.token, json: { nick: n, name: 'Alvo' } })
    await expectEnvelope(await api(DEMO, `mas/user/${n}@demo`, { method: 'PUT', token: limited.token, json: { roles: ['root'] } }), 403, 'escalation')
    const roles = (await (await api(DEMO, 'mas/user/roles', { token: limited.token })).json()) as { items: { role: string; assignable: boolean }[] }
    expect(roles.items.find((r) => r.role === 'root')?.assignable).toBe(false)
    expect(roles.items.find((r) => r.role === 'student')?.assignable).toBe(true)
    expect((await api(DEMO, `mas/user/${n}@demo`, { method: 'PUT', token: limited.token, json: { roles: ['student'] } })).status).toBe(200)
    await expectEnvelope(await api(DEMO, `mas/user/${limited.nick}`, { method: 'PUT', token: limited.token, json: { roles: ['student'] } }), 409, 'lockout')
  })

  it('enforces required active extra fields, keeps inactive ones optional', async () => {
    const fields = await userWith('demo', [DASH, 'mas_extra_field_list', 'mas_extra_field_create', 'mas_extra_field_edit'])
    const key = `k${crypto.randomUUID().slice(0, 6).replace(/-/g, '')}`
    const created = await api(DEMO, 'mas/extra_field', { method: 'POST', token: fields.token, json: { entity: 'user', key, label: 'Turma', required: true } })
    expect(created.status, await created.clone().text()).toBe(201)
    const field = (await created.json()) as { id: string }
    await expectEnvelope(
      await api(DEMO, 'mas/extra_field', { method: 'POST', token: fields.token, json: { entity: 'user', key, label: 'Twin' } }),
      409,
      'conflict',
    )
    const token = await manager()
    const n = nick()
    const missing = await expectEnvelope(await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: n, name: 'Sem turma' } }), 422, 'required')
    expect(missing.errors.map((e) => e.field)).toContain(`extra.${key}`)
    await expectEnvelope(
      await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: n, name: 'Campo estranho', extra: { [key]: '7A', unknown_key: 'x' } } }),
      422,
      'unknown_field',
    )
    const ok = await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: n, name: 'Com turma', extra: { [key]: '7A' } } })
    expect(((await ok.json()) as User).extra).toMatchObject({ [key]: '7A' })
    const form = (await (await api(DEMO, 'mas/extra_field/form/user', { token })).json()) as { items: { key: string }[] }
    expect(form.items.map((f) => f.key)).toContain(key)
    await api(DEMO, `mas/extra_field/${field.id}`, { method: 'PUT', token: fields.token, json: { active: false } })
    expect((await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: nick(), name: 'Agora pode' } })).status).toBe(201)
  })

  it('accepts a profile picture only where the realm allows it, from an uploaded image', async () => {
    const token = await manager()
    const n = `${nick()}@demo`
    await api(DEMO, 'mas/user', { method: 'POST', token, json: { nick: n, name: 'Foto' } })
    const form = new FormData()
    form.set(
      'data',
      new File(
        [
          new Uint8Array([
            0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0, 0, 0, 0, 0,
          ]),
        ],
        'me.png',
      ),
    )
    const file = (await (await api(DEMO, 'mas/file', { method: 'POST', token, body: form })).json()) as { id: string; cdn_full_url: string }
    await expectEnvelope(await api(DEMO, `mas/user/${n}`, { method: 'PUT', token, json: { avatar_file_id: file.id } }), 403, 'disabled')
    await env.DB.prepare("UPDATE realm SET allow_custom_user_profile_picture = 1 WHERE code = 'demo'").run()
    const res = await api(DEMO, `mas/user/${n}`, { method: 'PUT', token, json: { avatar_file_id: file.id } })
    expect(((await res.json()) as User).avatar_url).toBe(file.cdn_full_url)
    expect(await env.DB.prepare('SELECT persist, expires_at FROM file WHERE id = ?').bind(file.id).first()).toEqual({ persist: 1, expires_at: null })
    await env.DB.prepare("UPDATE realm SET allow_custom_user_profile_picture = 0 WHERE code = 'demo'").run()
  })
})

describe('disabling a user', () => {
  it('ends all their sessions at once, and they cannot sign in until enabled again', async () => {
    const admin = await manager()
    const n = nick()
    await api(DEMO, 'mas/user', { method: 'POST', token: admin, json: { nick: n, name: 'Sessões', roles: ['teacher'], password: 'senha-forte-2' } })
    const one = await signIn(DEMO, 'demo', n, 'senha-forte-2')
    const two = await signIn(DEMO, 'demo', n, 'senha-forte-2')
    expect((await api(DEMO, 'mas/session', { token: one })).status).toBe(200)
    const res = await api(DEMO, `mas/user/${n}@demo/disable`, { method: 'PUT', token: admin, json: { disabled: true } })
    expect(((await res.json()) as User).disabled).toBe(true)
    for (const token of [one, two]) await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401)
    const open = await env.DB.prepare('SELECT COUNT(*) AS n FROM session WHERE realm = ? AND nick = ? AND revoked_at IS NULL')
      .bind('demo', `${n}@demo`)
      .first<{ n: number }>()
    expect(open?.n).toBe(0)
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: n, password: 'senha-forte-2' } }), 401, 'credentials')
    await api(DEMO, `mas/user/${n}@demo/disable`, { method: 'PUT', token: admin, json: { disabled: false } })
    expect(await signIn(DEMO, 'demo', n, 'senha-forte-2')).toBeTruthy()
    const self = await userWith('demo', USERS)
    await expectEnvelope(await api(DEMO, `mas/user/${self.nick}/disable`, { method: 'PUT', token: self.token, json: { disabled: true } }), 409, 'lockout')
  })

  it('also ends the console session: the next page shows the sign-in screen', async () => {
    const admin = await manager()
    const target = await userWith('demo', [DASH, 'mas_user_list'])
    expect((await call(DEMO, '/user', { headers: { cookie: target.cookie } })).status).toBe(200)
    await api(DEMO, `mas/user/${target.nick}/disable`, { method: 'PUT', token: admin, json: { disabled: true } })
    const sent = await call(DEMO, '/user', { headers: { cookie: target.cookie } })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe('/login?redirectTo=%2Fuser')
  })
})

describe('CSV import', () => {
  const importCsv = async (token: string, csv: string, dry_run = false) => {
    const res = await api(DEMO, 'mas/user/import', { method: 'POST', token, json: { csv, dry_run } })
    expect(res.status, await res.clone().text()).toBe(200)
    return (await res.json()) as ImportReport
  }

  it('creates, updates or refuses each row whole, with a per-row report', async () => {
    const token = await manager()
    const [a, b, c] = [nick(), nick(), nick()]
    const csv = [
      'nick;name;email;roles;supervisees;bot',
      `${a};Aluno A;a@demo.edu;student;;não`,
      `${b};"Professor; B";b@demo.edu;teacher|manager;${a}@demo;sim`,
      `${c};Sem e-mail válido;isto-nao-e-email;student;;`,
      `teacher;Paulo Lima Atualizado;;;;`,
      `${a};Repetido;;;;`,
      `coord@demo-sul;Outro domínio;;;;`,
      `${nick()};Papel inexistente;;fantasma;;`,
    ].join('\r\n')
    const dry = await importCsv(token, csv, true)
    expect(dry).toMatchObject({ dry_run: true, created: 2, updated: 1, refused: 4 })
    expect(await env.DB.prepare('SELECT 1 FROM user WHERE realm = ? AND nick = ?').bind('demo', `${a}@demo`).first()).toBeNull()

    const report = await importCsv(token, csv)
    expect(report.rows.map((r) => [r.line, r.status])).toEqual([
      [2, 'created'],
      [3, 'created'],
      [4, 'refused'],
      [5, 'updated'],
      [6, 'refused'],
      [7, 'refused'],
      [8, 'refused'],
    ])
    expect(report.rows[2].errors[0]).toMatchObject({ field: 'email', message: 'validation.email' })
    expect(report.rows[4].errors[0].cause).toBe('duplicate')
    expect(report.rows[5].errors[0].cause).toBe('origin_realm')
    expect(report.rows[6].errors[0]).toMatchObject({ field: 'roles', cause: 'not_found' })
    const created = (await (await api(DEMO, `mas/user/${b}@demo`, { token })).json()) as User
    expect(created).toMatchObject({ name: 'Professor; B', roles: ['teacher', 'manager'], supervisees: [`${a}@demo`], bot: true })
    // A refused row leaves nothing behind: no user, no roles, no audit record.
    expect(await env.DB.prepare('SELECT 1 FROM user WHERE realm = ? AND nick = ?').bind('demo', `${c}@demo`).first()).toBeNull()
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'user' AND entity_id = ?").bind(`${c}@demo`).first()).toEqual({ n: 0 })
    const teacher = (await (await api(DEMO, 'mas/user/teacher@demo', { token })).json()) as User
    expect(teacher).toMatchObject({ name: 'Paulo Lima Atualizado', email: 'paulo@demo.edu', roles: ['teacher'] })
  })

  it('refuses a file with unknown columns or without nicks, importing nothing', async () => {
    const token = await manager()
    await expectEnvelope(await api(DEMO, 'mas/user/import', { method: 'POST', token, json: { csv: `nick,name,password\n${nick()},X,secret` } }), 400, 'invalid')
    await expectEnvelope(await api(DEMO, 'mas/user/import', { method: 'POST', token, json: { csv: 'name\nX' } }), 400, 'invalid')
  })
})
