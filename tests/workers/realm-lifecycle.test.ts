import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ListPage } from '#shared/schemas/common'
import { purgeDeletedRealms } from '../../worker/db/purge'
import worker from '../../worker/index'
import { DEMO, api, call, cookieValue, expectEnvelope, userWith } from './helpers'

const DASH = 'dashboard_dashboard_access'
const OPERATOR = [DASH, 'mas_realm_list', 'mas_realm_get', 'mas_realm_create', 'mas_realm_edit', 'mas_realm_delete', 'mas_realm_edit_infra']
const DAY = 24 * 3_600_000
const code = () => `t${crypto.randomUUID().slice(0, 7)}`

/** A realm under demo with its own host, a staff member, a room, a stored file and a live session. */
async function tenant(operator: { token: string }) {
  const c = code()
  const host = `${c}.localhost`
  const res = await api(DEMO, 'mas/realm', { method: 'POST', token: operator.token, json: { code: c, name: `Realm ${c}`, parent_code: 'demo', hosts: [host] } })
  expect(res.status, await res.clone().text()).toBe(201)
  const staff = await userWith(c, [DASH, 'mas_realm_get'])
  const now = new Date().toISOString()
  const key = `${c}/2026/01/f${c}.png`
  await env.FILES.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  await env.DB.batch([
    env.DB.prepare("INSERT INTO room (id, realm, name, created_at, updated_at) VALUES (?, ?, '9º C', ?, ?)").bind(`room-${c}`, c, now, now),
    env.DB.prepare('INSERT INTO room_member (realm, room_id, nick, added_at) VALUES (?, ?, ?, ?)').bind(c, `room-${c}`, staff.nick, now),
    env.DB.prepare("INSERT INTO room_category (id, realm, name, created_at, updated_at) VALUES (?, ?, 'Top', ?, ?)").bind(`cat-${c}`, c, now, now),
    env.DB.prepare("INSERT INTO room_category (id, realm, name, parent, created_at, updated_at) VALUES (?, ?, 'Leaf', ?, ?, ?)").bind(
      `leaf-${c}`,
      c,
      `cat-${c}`,
      now,
      now,
    ),
    env.DB.prepare(
      "INSERT INTO file (id, realm, key, name, ext, kind, content_type, size, persist, permanent, uploaded_by, created_at) VALUES (?, ?, ?, 'a.png', 'png', 'image', 'image/png', 4, 1, 1, ?, ?)",
    ).bind(`f${c}`, c, key, staff.nick, now),
  ])
  return { code: c, host, staff, key }
}

const count = async (table: string, column: string, value: string) =>
  (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).bind(value).first<{ n: number }>())!.n
const realmRow = (c: string) =>
  env.DB.prepare('SELECT code, deleted_at, deleted_by FROM realm WHERE code = ?')
    .bind(c)
    .first<{ code: string; deleted_at: string | null; deleted_by: string | null }>()
const audits = async (c: string) =>
  (
    await env.DB.prepare("SELECT realm, actor, action FROM audit_log WHERE entity = 'realm' AND entity_id = ? ORDER BY id")
      .bind(c)
      .all<{ realm: string; actor: string; action: string }>()
  ).results
const remove = (token: string, c: string, body?: unknown) => api(DEMO, `mas/realm/${c}`, { method: 'DELETE', token, json: body })

describe('deleting a realm', () => {
  it('asks for the realm code as confirmation and changes nothing without it', async () => {
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    await expectEnvelope(await remove(operator.token, t.code), 400)
    await expectEnvelope(await remove(operator.token, t.code, {}), 400)
    const wrong = await expectEnvelope(await remove(operator.token, t.code, { confirm: 'demo' }), 422, 'confirm')
    expect(wrong.errors[0]).toMatchObject({ field: 'confirm', value: 'demo' })
    expect(await realmRow(t.code)).toMatchObject({ deleted_at: null })
    expect((await audits(t.code)).map((a) => a.action)).toEqual(['create'])
  })

  it('needs mas_realm_delete and keeps refusing the own realm and a realm with child realms', async () => {
    const editor = await userWith(
      'demo',
      OPERATOR.filter((p) => p !== 'mas_realm_delete'),
    )
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    await expectEnvelope(await remove(editor.token, t.code, { confirm: t.code }), 403, 'forbidden')
    await expectEnvelope(await remove(operator.token, 'demo', { confirm: 'demo' }), 409, 'conflict')
    const child = code()
    expect((await api(DEMO, 'mas/realm', { method: 'POST', token: operator.token, json: { code: child, name: 'Child', parent_code: t.code } })).status).toBe(
      201,
    )
    await expectEnvelope(await remove(operator.token, t.code, { confirm: t.code }), 409, 'conflict')
    expect(await realmRow(t.code)).toMatchObject({ deleted_at: null })
  })

  it('hides the realm everywhere but keeps its users, rooms, sessions and files, with an audit record', async () => {
    const operator = await userWith('demo', [...OPERATOR, 'mas_realm_list_all'])
    const t = await tenant(operator)
    expect((await api(t.host, 'mas/session', { token: t.staff.token })).status).toBe(200)

    const res = await remove(operator.token, t.code, { confirm: t.code })
    expect(res.status, await res.clone().text()).toBe(200)
    const answer = (await res.json()) as { code: string; deleted_at: string; deleted_by: string; purge_after: string }
    expect(answer).toMatchObject({ code: t.code, deleted_by: operator.nick })
    expect(Date.parse(answer.purge_after) - Date.parse(answer.deleted_at)).toBe(30 * DAY)
    expect(await realmRow(t.code)).toMatchObject({ deleted_by: operator.nick })
    expect(await audits(t.code)).toEqual([
      { realm: 'demo', actor: operator.nick, action: 'create' },
      { realm: 'demo', actor: operator.nick, action: 'delete' },
    ])
    // Nothing is cascaded away.
    expect(await count('user', 'realm', t.code)).toBe(1)
    expect(await count('room', 'realm', t.code)).toBe(1)
    expect(await count('session', 'realm', t.code)).toBe(1)
    expect(await count('realm_host', 'realm', t.code)).toBe(1)
    expect(await env.FILES.head(t.key)).not.toBeNull()

    // Gone from lists, reads, the public configuration, the host, sign-in, the realm switch and its sessions.
    const list = (await (await api(DEMO, 'mas/realm?limit=1000', { token: operator.token })).json()) as ListPage<{ code: string }>
    expect(list.items.map((r) => r.code)).not.toContain(t.code)
    await expectEnvelope(await api(DEMO, `mas/realm/${t.code}`, { token: operator.token }), 404)
    await expectEnvelope(await api(DEMO, `mas/realm/${t.code}`, { method: 'PUT', token: operator.token, json: { name: 'Back from the dead' } }), 404)
    await expectEnvelope(await call(DEMO, `/api/mas/realm/${t.code}/config`), 404)
    await expectEnvelope(await call(t.host, `/api/mas/realm/${t.code}/config`), 404, 'realm_deleted')
    expect((await call(t.host, '/')).status).toBe(404)
    expect((await call(t.host, `/files/${t.key}`)).status).toBe(404)
    await expectEnvelope(
      await call('localhost', '/api/device', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ realm: t.code, nick: t.staff.nick, password: 'x-y-z-w' }),
      }),
      404,
    )
    await expectEnvelope(await call('localhost', '/api/mas/session', { headers: { 'x-api-key': t.staff.token } }), 401)
    await expectEnvelope(await api(DEMO, `mas/realm/demo/change`, { method: 'PUT', token: operator.token, json: { leaf_realm: t.code } }), 404)
    await expectEnvelope(
      await api(DEMO, `mas/realm/${t.code}/word_filter`, { token: (await userWith('demo', [DASH, 'mas_word_filter_get', 'mas_realm_list_all'])).token }),
      404,
    )
    await expectEnvelope(
      await api(DEMO, `mas/permission?realm=${t.code}`, { token: (await userWith('demo', [DASH, 'mas_role_list', 'mas_realm_list_all'])).token }),
      403,
    )
    // The chooser of a multi-realm host does not take it either.
    const page = await call('localhost', '/', { headers: { cookie: `dash_realm=${cookieValue(t.code)}` } })
    expect(await page.text()).not.toContain(`Realm ${t.code}`)
  })

  it('keeps the hosts of a deleted realm reserved, so a restore brings it back on them', async () => {
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    expect((await remove(operator.token, t.code, { confirm: t.code })).status).toBe(200)
    const other = code()
    const taken = await expectEnvelope(
      await api(DEMO, 'mas/realm', { method: 'POST', token: operator.token, json: { code: other, name: 'Squatter', parent_code: 'demo', hosts: [t.host] } }),
      409,
      'conflict',
    )
    expect(taken.errors[0]).toMatchObject({ field: 'hosts', value: t.host })
  })
})

describe('the deleted realms and their restore', () => {
  it('lists the deleted realms of the caller’s tree, and restores one within 30 days with an audit record', async () => {
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    expect((await remove(operator.token, t.code, { confirm: t.code })).status).toBe(200)
    const deleted = (await (await api(DEMO, 'mas/realm?deleted=true&limit=1000', { token: operator.token })).json()) as ListPage<{
      code: string
      deleted_at: string
      deleted_by: string
    }>
    expect(deleted.items.find((r) => r.code === t.code)).toMatchObject({ deleted_by: operator.nick })
    expect(deleted.items.every((r) => r.deleted_at)).toBe(true)
    // Outside the caller's tree, a deleted realm is not seen (demo-sul's administrator sees only demo-sul).
    const sul = await userWith('demo-sul', OPERATOR)
    const theirs = (await (await api('demo-sul.localhost', 'mas/realm?deleted=true', { token: sul.token })).json()) as ListPage<{ code: string }>
    expect(theirs.items.map((r) => r.code)).not.toContain(t.code)
    await expectEnvelope(await api('demo-sul.localhost', `mas/realm/${t.code}/restore`, { method: 'POST', token: sul.token }), 404)

    const res = await api(DEMO, `mas/realm/${t.code}/restore`, { method: 'POST', token: operator.token })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toMatchObject({ code: t.code, deleted_at: null })
    expect(await realmRow(t.code)).toMatchObject({ deleted_at: null, deleted_by: null })
    expect((await audits(t.code)).map((a) => a.action)).toEqual(['create', 'delete', 'restore'])
    // Back on its host with its sessions.
    expect(await (await call(t.host, `/api/mas/realm/${t.code}/config`)).json()).toMatchObject({ realm: t.code })
    expect((await api(t.host, 'mas/session', { token: t.staff.token })).status).toBe(200)
    // Restoring a live realm is refused.
    await expectEnvelope(await api(DEMO, `mas/realm/${t.code}/restore`, { method: 'POST', token: operator.token }), 404)
  })

  it('needs mas_realm_delete to restore, and refuses after 30 days or under a deleted parent', async () => {
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    expect((await remove(operator.token, t.code, { confirm: t.code })).status).toBe(200)
    const editor = await userWith(
      'demo',
      OPERATOR.filter((p) => p !== 'mas_realm_delete'),
    )
    await expectEnvelope(await api(DEMO, `mas/realm/${t.code}/restore`, { method: 'POST', token: editor.token }), 403)
    await env.DB.prepare('UPDATE realm SET deleted_at = ? WHERE code = ?')
      .bind(new Date(Date.now() - 31 * DAY).toISOString(), t.code)
      .run()
    await expectEnvelope(await api(DEMO, `mas/realm/${t.code}/restore`, { method: 'POST', token: operator.token }), 410, 'restore_expired')

    const parent = await tenant(operator)
    const child = code()
    expect(
      (await api(DEMO, 'mas/realm', { method: 'POST', token: operator.token, json: { code: child, name: 'Child', parent_code: parent.code } })).status,
    ).toBe(201)
    expect((await remove(operator.token, child, { confirm: child })).status).toBe(200)
    // A deleted child does not hold its parent back; restoring the child then waits for the parent.
    expect((await remove(operator.token, parent.code, { confirm: parent.code })).status).toBe(200)
    await expectEnvelope(await api(DEMO, `mas/realm/${child}/restore`, { method: 'POST', token: operator.token }), 409, 'parent_deleted')
    expect((await api(DEMO, `mas/realm/${parent.code}/restore`, { method: 'POST', token: operator.token })).status).toBe(200)
    expect((await api(DEMO, `mas/realm/${child}/restore`, { method: 'POST', token: operator.token })).status).toBe(200)
  })
})

describe('the realm list screen', () => {
  const post = (cookie: string, fields: Record<string, string>) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) form.set(k, v)
    return call(DEMO, '/realm?index', { method: 'POST', body: form, headers: { cookie, origin: `http://${DEMO}` } })
  }

  it('deletes with the typed code, shows the realm under the deleted realms, and restores it', async () => {
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    const wrong = await post(operator.cookie, { intent: 'delete', code: t.code, confirm: 'oops' })
    expect(wrong.status).toBe(422)
    expect(await wrong.text()).toContain('validation.realm_confirm')
    expect(await realmRow(t.code)).toMatchObject({ deleted_at: null })
    expect((await post(operator.cookie, { intent: 'delete', code: t.code })).status).toBe(400)

    expect((await post(operator.cookie, { intent: 'delete', code: t.code, confirm: t.code })).status).toBe(200)
    expect(await realmRow(t.code)).toMatchObject({ deleted_by: operator.nick })
    const live = await (await call(DEMO, '/realm?limit=100', { headers: { cookie: operator.cookie } })).text()
    expect(live).not.toContain(`Realm ${t.code}`)
    const deleted = await (await call(DEMO, '/realm?view=deleted&limit=100', { headers: { cookie: operator.cookie } })).text()
    expect(deleted).toContain(`Realm ${t.code}`)

    expect((await post(operator.cookie, { intent: 'restore', code: t.code })).status).toBe(200)
    expect(await realmRow(t.code)).toMatchObject({ deleted_at: null })
  })
})

describe('the scheduled purge', () => {
  async function runScheduled() {
    const ctx = createExecutionContext()
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '17 * * * *' }), env, ctx)
    await waitOnExecutionContext(ctx)
  }

  it('removes realms deleted more than 30 days ago, table by table and their files, and leaves recent ones alone', async () => {
    const operator = await userWith('demo', OPERATOR)
    const old = await tenant(operator)
    const recent = await tenant(operator)
    // More rows than one batch in a table, and a switched session of another realm's user acting in the old realm.
    await env.DB.prepare(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) INSERT INTO outbox (realm, to_address, subject, text, created_at) SELECT ?, 'a@b.c', 's', 't', '2026-01-01T00:00:00Z' FROM n",
    )
      .bind(old.code)
      .run()
    expect(await count('outbox', 'realm', old.code)).toBe(1200)
    const visitor = await userWith('demo', [DASH])
    await env.DB.prepare(
      "INSERT INTO session (token_hash, realm, nick, device_id, created_at, last_seen_at, expires_at, active_realm) VALUES (?, 'demo', ?, 'd', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2099-01-01T00:00:00Z', ?)",
    )
      .bind(`switched-${old.code}`, visitor.nick, old.code)
      .run()
    for (const t of [old, recent]) expect((await remove(operator.token, t.code, { confirm: t.code })).status).toBe(200)
    await env.DB.prepare('UPDATE realm SET deleted_at = ? WHERE code = ?')
      .bind(new Date(Date.now() - 31 * DAY).toISOString(), old.code)
      .run()
    await env.DB.prepare('UPDATE realm SET deleted_at = ? WHERE code = ?')
      .bind(new Date(Date.now() - 1 * DAY).toISOString(), recent.code)
      .run()

    await runScheduled()

    expect(await realmRow(old.code)).toBeNull()
    const tables = (
      await env.DB.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
      ).all<{ name: string }>()
    ).results
    const left: string[] = []
    for (const { name } of tables) {
      const cols = (await env.DB.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>()).results.map((c) => c.name)
      for (const col of cols.filter((c) => c === 'realm' || c === 'active_realm' || c === 'user_realm')) {
        if (['ledger_account', 'ledger_entry', 'ledger_transaction'].includes(name)) continue
        if ((await count(name, col, old.code)) > 0) left.push(`${name}.${col}`)
      }
    }
    expect(left).toEqual([])
    expect(await count('audit_log', 'realm', old.code)).toBe(0)
    expect(await env.FILES.head(old.key)).toBeNull()
    expect(await env.DB.prepare('SELECT 1 FROM session WHERE token_hash = ?').bind(`switched-${old.code}`).first()).toBeNull()
    const purge = await env.DB.prepare("SELECT realm, actor, action FROM audit_log WHERE entity = 'realm' AND entity_id = ? AND action = 'purge'")
      .bind(old.code)
      .first()
    expect(purge).toMatchObject({ realm: 'demo', actor: 'system:purge' })
    // The host is free again once the realm is gone.
    expect(await count('realm_host', 'host', old.host)).toBe(0)

    // The realm deleted a day ago is untouched.
    expect(await realmRow(recent.code)).toMatchObject({ code: recent.code })
    expect(await count('user', 'realm', recent.code)).toBe(1)
    expect(await count('room', 'realm', recent.code)).toBe(1)
    expect(await count('room_category', 'realm', recent.code)).toBe(2)
    expect(await count('realm_host', 'realm', recent.code)).toBe(1)
    expect(await env.FILES.head(recent.key)).not.toBeNull()
    // Live realms are untouched too.
    expect(await count('user', 'realm', 'demo')).toBeGreaterThan(3)
  })

  it('stops when its budget of calls is spent and finishes in a later run', async () => {
    const operator = await userWith('demo', OPERATOR)
    const t = await tenant(operator)
    expect((await remove(operator.token, t.code, { confirm: t.code })).status).toBe(200)
    await env.DB.prepare('UPDATE realm SET deleted_at = ? WHERE code = ?')
      .bind(new Date(Date.now() - 40 * DAY).toISOString(), t.code)
      .run()
    const first = await purgeDeletedRealms(env, new Date(), 8)
    expect(first.pending).toContain(t.code)
    expect(first.purged).not.toContain(t.code)
    expect(await realmRow(t.code)).not.toBeNull()
    expect(await env.FILES.head(t.key)).toBeNull()
    const second = await purgeDeletedRealms(env)
    expect(second.purged).toContain(t.code)
    expect(await realmRow(t.code)).toBeNull()
    expect(await count('user', 'realm', t.code)).toBe(0)
  })
})
