import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Channel, ChannelMember } from '#shared/schemas/channel'
import { user } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'

/** Channels (issue 13): every rule of seed 002 §5 and error of §8, through the API. */

const ALL = ['sns_channel_list', 'sns_channel_get', 'sns_channel_create', 'sns_channel_edit', 'sns_channel_delete', 'sns_channel_category_list']

/** A realm of its own (limits and word filter set per test), served at `<code>.localhost`. */
async function freshRealm(values: Record<string, string | number> = {}) {
  const code = `c${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  const host = `${code}.localhost`
  const cols = ['code', 'name', ...Object.keys(values)]
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO realm (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(code, `Realm ${code}`, ...Object.values(values)),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(host, code),
  ])
  const staff = await userWith(code, ALL)
  return { code, host, token: staff.token, me: staff.nick }
}

/** An image stored for `realm` as the upload API would store it, with the given dimensions. */
async function image(realm: string, width: number, height: number) {
  const id = `f${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
  await env.DB.prepare(
    "INSERT INTO file (id, realm, key, name, ext, kind, content_type, size, width, height, uploaded_by, created_at) VALUES (?, ?, ?, 'x.png', 'png', 'image', 'image/png', 100, ?, ?, 'test', ?)",
  )
    .bind(id, realm, `${realm}/${id}.png`, width, height, new Date().toISOString())
    .run()
  return id
}

const count = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .first<{ n: number }>()
  )?.n

describe('channels', () => {
  it('creates a channel with its members, modes and Djinni defaults; lists, reads, updates and deletes it', async () => {
    const { code, host, token, me } = await freshRealm()
    const op = await user(code)
    const res = await api(host, 'channel', {
      method: 'POST',
      token,
      json: {
        name: 'Aula ao vivo',
        members: [
          { nick: me, permission: 'owner' },
          { nick: op.login, permission: 'operator' },
        ],
        password: 'segredo1',
      },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const ch = (await res.json()) as Channel & { password_hash?: string }
    expect(ch).toMatchObject({ name: 'Aula ao vivo', owner: me, member_count: 2, has_password: true, category_id: null })
    expect(ch.password_hash).toBeUndefined()
    expect(ch.modes).toMatchObject({ moderated_chat: false, show_user_list: true, template: 'conference', user_limit: 0 })
    expect(ch.djinni).toMatchObject({ interaction: 'all', pitch: 0, tempo: 1, rate: 1 })
    const list = (await (await api(host, 'channel?like=vivo', { token })).json()) as { items: Channel[]; total: number }
    expect(list.items.map((c) => c.id)).toEqual([ch.id])
    const members = (await (await api(host, `channel/${ch.id}/member`, { token })).json()) as { items: ChannelMember[] }
    // The suffix-less login was stored as the user's nick; the owner first.
    expect(members.items.map((m) => [m.nick, m.permission])).toEqual([
      [me, 'owner'],
      [op.nick, 'operator'],
    ])
    const put = await api(host, `channel/${ch.id}`, {
      method: 'PUT',
      token,
      json: { name: 'Aula ao vivo 2', modes: { moderated_chat: true, user_limit: 50 }, djinni: { pitch: -7.8, tempo: 0.05, rate: 4 }, password_remove: true },
    })
    expect(put.status, await put.clone().text()).toBe(200)
    const changed = (await put.json()) as Channel
    expect(changed).toMatchObject({ name: 'Aula ao vivo 2', has_password: false, member_count: 2, owner: me })
    expect(changed.modes).toMatchObject({ moderated_chat: true, user_limit: 50, show_banner: true })
    expect(changed.djinni).toMatchObject({ pitch: -7.8, tempo: 0.05, rate: 4 })
    expect((await api(host, `channel/${ch.id}`, { method: 'DELETE', token })).status).toBe(204)
    expect(await count('SELECT COUNT(*) AS n FROM channel_member WHERE channel_id = ?', ch.id)).toBe(0)
  })

  it('refuses no owner and more than one owner, each with its own error, and creates nothing', async () => {
    const { code, host, token, me } = await freshRealm()
    const other = await user(code)
    const none = await expectEnvelope(
      await api(host, 'channel', { method: 'POST', token, json: { name: 'Sem dono', members: [{ nick: me, permission: 'admin' }] } }),
      422,
      'no_owner',
    )
    expect(none.errors[0]).toMatchObject({ field: 'members', message: 'validation.channel.no_owner' })
    const two = await expectEnvelope(
      await api(host, 'channel', {
        method: 'POST',
        token,
        json: {
          name: 'Dois donos',
          members: [
            { nick: me, permission: 'owner' },
            { nick: other.nick, permission: 'owner' },
          ],
        },
      }),
      422,
      'more_than_one_owner',
    )
    expect(two.errors[0]).toMatchObject({ field: 'members', message: 'validation.channel.many_owners', value: 2 })
    await expectEnvelope(await api(host, 'channel', { method: 'POST', token, json: { name: 'Vazio', members: [] } }), 422, 'no_owner')
    expect(await count('SELECT COUNT(*) AS n FROM channel WHERE realm = ?', code)).toBe(0)
  })

  it('refuses a member nick that is not a user of the realm, naming it', async () => {
    const { code, host, token, me } = await freshRealm()
    const elsewhere = await freshRealm()
    const foreign = await user(elsewhere.code)
    const res = await expectEnvelope(
      await api(host, 'channel', {
        method: 'POST',
        token,
        json: {
          name: 'Canal',
          members: [
            { nick: me, permission: 'owner' },
            { nick: 'ninguem', permission: 'operator' },
            { nick: foreign.nick, permission: 'mobile' },
          ],
        },
      }),
      422,
      'member_not_found',
    )
    expect(res.errors.map((e) => [e.field, e.value])).toEqual([
      ['members.1.nick', 'ninguem'],
      ['members.2.nick', foreign.nick],
    ])
    expect(await count('SELECT COUNT(*) AS n FROM channel WHERE realm = ?', code)).toBe(0)
  })

  it('adds, changes, searches and removes members keeping exactly one owner; hands ownership over', async () => {
    const { code, host, token, me } = await freshRealm()
    const ana = await user(code, { name: 'Ana Souza' })
    const bia = await user(code, { name: 'Bia Lima' })
    const ch = (await (
      await api(host, 'channel', { method: 'POST', token, json: { name: 'Membros', members: [{ nick: me, permission: 'owner' }] } })
    ).json()) as Channel
    const member = (nick: string) => `channel/${ch.id}/member/${encodeURIComponent(nick)}`
    expect((await api(host, `channel/${ch.id}/member`, { method: 'POST', token, json: { nick: ana.login, permission: 'operator' } })).status).toBe(201)
    await expectEnvelope(
      await api(host, `channel/${ch.id}/member`, { method: 'POST', token, json: { nick: bia.nick, permission: 'owner' } }),
      422,
      'more_than_one_owner',
    )
    await expectEnvelope(
      await api(host, `channel/${ch.id}/member`, { method: 'POST', token, json: { nick: 'fantasma', permission: 'mobile' } }),
      422,
      'member_not_found',
    )
    await expectEnvelope(await api(host, `channel/${ch.id}/member`, { method: 'POST', token, json: { nick: ana.nick, permission: 'mobile' } }), 409, 'conflict')
    expect((await api(host, `channel/${ch.id}/member`, { method: 'POST', token, json: { nick: bia.nick, permission: 'banned' } })).status).toBe(201)
    // The owner cannot be demoted or removed; nobody else becomes a second owner.
    await expectEnvelope(await api(host, member(me), { method: 'PUT', token, json: { permission: 'admin' } }), 422, 'no_owner')
    await expectEnvelope(await api(host, member(me), { method: 'DELETE', token }), 422, 'no_owner')
    await expectEnvelope(await api(host, member(ana.nick), { method: 'PUT', token, json: { permission: 'owner' } }), 422, 'more_than_one_owner')
    await expectEnvelope(await api(host, member('fantasma'), { method: 'PUT', token, json: { permission: 'admin' } }), 404, 'member_not_found')
    expect((await api(host, member(ana.nick), { method: 'PUT', token, json: { permission: 'recorder' } })).status).toBe(200)
    const found = (await (await api(host, `channel/${ch.id}/member?like=souza`, { token })).json()) as { items: ChannelMember[] }
    expect(found.items.map((m) => [m.nick, m.permission])).toEqual([[ana.nick, 'recorder']])
    const banned = (await (await api(host, `channel/${ch.id}/member?permission=banned`, { token })).json()) as { items: ChannelMember[] }
    expect(banned.items.map((m) => m.nick)).toEqual([bia.nick])
    expect((await api(host, member(bia.nick), { method: 'DELETE', token })).status).toBe(204)
    const handed = await api(host, `channel/${ch.id}/owner`, { method: 'POST', token, json: { nick: ana.nick, previous: 'operator' } })
    expect(handed.status, await handed.clone().text()).toBe(200)
    const after = (await (await api(host, `channel/${ch.id}/member`, { token })).json()) as { items: ChannelMember[] }
    expect(after.items.map((m) => [m.nick, m.permission])).toEqual([
      [ana.nick, 'owner'],
      [me, 'operator'],
    ])
    const row = (await (await api(host, `channel/${ch.id}`, { token })).json()) as Channel
    expect(row).toMatchObject({ owner: ana.nick, member_count: 2 })
    // Replacing the member list keeps the rule too.
    await expectEnvelope(
      await api(host, `channel/${ch.id}`, { method: 'PUT', token, json: { name: 'Membros', members: [{ nick: me, permission: 'operator' }] } }),
      422,
      'no_owner',
    )
    expect(await count("SELECT COUNT(*) AS n FROM channel_member WHERE channel_id = ? AND permission = 'owner'", ch.id)).toBe(1)
  })

  it('refuses to delete the user who owns a channel, naming the channel, until the ownership is handed over', async () => {
    const { code, host, token, me } = await freshRealm()
    const admin = await userWith(code, ['mas_user_delete'])
    const ana = await user(code, { name: 'Ana Dona' })
    const ch = (await (
      await api(host, 'channel', {
        method: 'POST',
        token,
        json: {
          name: 'Da Ana',
          members: [
            { nick: ana.nick, permission: 'owner' },
            { nick: me, permission: 'admin' },
          ],
        },
      })
    ).json()) as Channel
    const refused = await expectEnvelope(await api(host, `mas/user/${encodeURIComponent(ana.nick)}`, { method: 'DELETE', token: admin.token }), 409, 'in_use')
    expect(refused.errors[0]).toMatchObject({ field: 'nick', value: 'Da Ana', message: 'channel.owner_cannot_be_deleted' })
    expect(await count('SELECT COUNT(*) AS n FROM user WHERE realm = ? AND nick = ?', code, ana.nick)).toBe(1)
    expect((await api(host, `channel/${ch.id}/owner`, { method: 'POST', token, json: { nick: me, previous: 'admin' } })).status).toBe(200)
    expect((await api(host, `mas/user/${encodeURIComponent(ana.nick)}`, { method: 'DELETE', token: admin.token })).status).toBe(204)
    const row = (await (await api(host, `channel/${ch.id}`, { token })).json()) as Channel
    expect(row).toMatchObject({ owner: me, member_count: 1 })
  })

  it("applies the realm's word filter: a filtered channel name is refused, welcome messages are stored masked", async () => {
    const { code, host, token, me } = await freshRealm()
    await env.DB.prepare("INSERT INTO realm_word_filter (realm, sentence) VALUES (?, 'palavrão')").bind(code).run()
    const owner = [{ nick: me, permission: 'owner' }]
    const refused = await expectEnvelope(
      await api(host, 'channel', { method: 'POST', token, json: { name: 'Canal do Palavrão', members: owner } }),
      422,
      'word_filter',
    )
    expect(refused.errors[0].field).toBe('name')
    const res = await api(host, 'channel', {
      method: 'POST',
      token,
      json: {
        name: 'Canal limpo',
        members: owner,
        welcome: [
          { language: 'pt-BR', message: 'Sem palavrão aqui' },
          { language: 'en-US', message: 'Welcome' },
        ],
      },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const ch = (await res.json()) as Channel
    expect(ch.welcome).toEqual([
      { language: 'pt-BR', message: 'Sem ******** aqui' },
      { language: 'en-US', message: 'Welcome' },
    ])
    // Links: with the realm's link rule on, a link outside the exemption domains is masked, one inside is kept.
    await env.DB.batch([
      env.DB.prepare('UPDATE realm SET word_filter_links = 1 WHERE code = ?').bind(code),
      env.DB.prepare("INSERT INTO realm_exemption_domain (realm, domain) VALUES (?, 'escola.edu')").bind(code),
    ])
    const linked = await api(host, `channel/${ch.id}`, {
      method: 'PUT',
      token,
      json: { name: 'Canal limpo', welcome: [{ language: 'pt-BR', message: 'Veja https://aula.escola.edu/x e https://spam.example/y' }] },
    })
    expect(linked.status, await linked.clone().text()).toBe(200)
    expect(((await linked.json()) as Channel).welcome[0].message).toBe('Veja https://aula.escola.edu/x e ' + '*'.repeat('https://spam.example/y'.length))
    // One welcome message per language.
    await expectEnvelope(
      await api(host, 'channel', {
        method: 'POST',
        token,
        json: {
          name: 'Outro',
          members: owner,
          welcome: [
            { language: 'pt-BR', message: 'Oi' },
            { language: 'pt-BR', message: 'Olá' },
          ],
        },
      }),
      400,
    )
  })

  it('checks the category, banner and avatar against the realm and the image sizes', async () => {
    const { code, host, token, me } = await freshRealm()
    const other = await freshRealm()
    const owner = [{ nick: me, permission: 'owner' }]
    const cat = (await (
      await api(host, 'channel/category', {
        method: 'POST',
        token: (await userWith(code, ['sns_channel_category_create'])).token,
        json: { name: 'Esportes', icon: 'running' },
      })
    ).json()) as { id: string }
    const foreignCat = (await (
      await api(other.host, 'channel/category', {
        method: 'POST',
        token: (await userWith(other.code, ['sns_channel_category_create'])).token,
        json: { name: 'Deles' },
      })
    ).json()) as { id: string }
    await expectEnvelope(
      await api(host, 'channel', { method: 'POST', token, json: { name: 'C1', members: owner, category_id: foreignCat.id } }),
      422,
      'not_found',
    )
    await expectEnvelope(
      await api(host, 'channel', { method: 'POST', token, json: { name: 'C1', members: owner, banner_file_id: await image(code, 800, 200) } }),
      422,
      'dimensions',
    )
    await expectEnvelope(
      await api(host, 'channel', { method: 'POST', token, json: { name: 'C1', members: owner, avatar_file_id: await image(code, 300, 200) } }),
      422,
      'dimensions',
    )
    await expectEnvelope(
      await api(host, 'channel', { method: 'POST', token, json: { name: 'C1', members: owner, avatar_file_id: await image(other.code, 256, 256) } }),
      422,
      'not_found',
    )
    const banner = await image(code, 1600, 400)
    const res = await api(host, 'channel', {
      method: 'POST',
      token,
      json: { name: 'C1', members: owner, category_id: cat.id, banner_file_id: banner, avatar_file_id: await image(code, 256, 256) },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const ch = (await res.json()) as Channel
    expect(ch.category_id).toBe(cat.id)
    expect(ch.banner_url).toContain(`${banner}.png`)
    expect(await count('SELECT persist AS n FROM file WHERE id = ?', banner)).toBe(1)
    // A category in use cannot be deleted.
    const del = await api(host, `channel/category/${cat.id}`, { method: 'DELETE', token: (await userWith(code, ['sns_channel_category_delete'])).token })
    await expectEnvelope(del, 409, 'in_use')
    // The same name twice is a conflict (case does not count).
    await expectEnvelope(await api(host, 'channel', { method: 'POST', token, json: { name: 'c1', members: owner } }), 409, 'conflict')
  })

  it("enforces the realm's users per room on the members of a channel", async () => {
    const { code, host, token, me } = await freshRealm({ max_users_per_room: 2 })
    const [a, b] = [await user(code), await user(code)]
    await expectEnvelope(
      await api(host, 'channel', {
        method: 'POST',
        token,
        json: {
          name: 'Cheio',
          members: [
            { nick: me, permission: 'owner' },
            { nick: a.nick, permission: 'mobile' },
            { nick: b.nick, permission: 'mobile' },
          ],
        },
      }),
      422,
      'limit',
    )
    const ch = (await (
      await api(host, 'channel', {
        method: 'POST',
        token,
        json: {
          name: 'Cheio',
          members: [
            { nick: me, permission: 'owner' },
            { nick: a.nick, permission: 'mobile' },
          ],
        },
      })
    ).json()) as Channel
    const refused = await expectEnvelope(
      await api(host, `channel/${ch.id}/member`, { method: 'POST', token, json: { nick: b.nick, permission: 'mobile' } }),
      422,
      'limit',
    )
    expect(refused.errors[0]).toMatchObject({ message: 'validation.channel.max_members', value: 2 })
  })

  it('validates modes and the Djinni ranges (seed 000 §9) with the envelope, changing nothing', async () => {
    const { code, host, token, me } = await freshRealm()
    const body = (over: Record<string, unknown>) => ({ name: 'Djinni', members: [{ nick: me, permission: 'owner' }], ...over })
    const cases: [Record<string, unknown>, string][] = [
      [{ djinni: { pitch: 0.3 } }, 'djinni.pitch'],
      [{ djinni: { pitch: 8.2 } }, 'djinni.pitch'],
      [{ djinni: { tempo: 0 } }, 'djinni.tempo'],
      [{ djinni: { rate: 0.07 } }, 'djinni.rate'],
      [{ djinni: { voice_type: 5 } }, 'djinni.voice_type'],
      [{ djinni: { interaction: 'video' } }, 'djinni.interaction'],
      [{ modes: { user_limit: -1 } }, 'modes.user_limit'],
      [{ modes: { audio_only: true, text_only: true } }, 'modes'],
      [{ modes: { template: 'other' } }, 'modes.template'],
      [{ extra: { 'Bad Key': 'x' } }, 'extra'],
      [{ password: 'abc' }, 'password'],
    ]
    for (const [over, field] of cases) {
      const res = await expectEnvelope(await api(host, 'channel', { method: 'POST', token, json: body(over) }), 400)
      expect(
        res.errors.map((e) => e.field).some((f) => f.startsWith(field)),
        `${JSON.stringify(over)} → ${JSON.stringify(res.errors)}`,
      ).toBe(true)
    }
    expect(await count('SELECT COUNT(*) AS n FROM channel WHERE realm = ?', code)).toBe(0)
    expect((await api(host, 'channel', { method: 'POST', token, json: body({ djinni: { pitch: -8, tempo: 4, rate: 0.05, voice_type: 4 } }) })).status).toBe(201)
  })

  it('keeps channels inside their realm and behind their permissions', async () => {
    const { host, token, me } = await freshRealm()
    const other = await freshRealm()
    const ch = (await (
      await api(host, 'channel', { method: 'POST', token, json: { name: 'Meu', members: [{ nick: me, permission: 'owner' }] } })
    ).json()) as Channel
    await expectEnvelope(await api(other.host, `channel/${ch.id}`, { token: other.token }), 404, 'not_found')
    await expectEnvelope(await api(other.host, `channel/${ch.id}/member`, { token: other.token }), 404, 'not_found')
    const reader = await userWith(other.code, ['sns_channel_list'])
    await expectEnvelope(await api(other.host, 'channel', { method: 'POST', token: reader.token, json: { name: 'X', members: [] } }), 403)
    const { cookie } = await userWith(other.code, ['dashboard_dashboard_access', ...ALL])
    const mine = (await (
      await api(other.host, 'channel', { method: 'POST', token: other.token, json: { name: 'Deles', members: [{ nick: other.me, permission: 'owner' }] } })
    ).json()) as Channel
    for (const path of ['/channel', '/channel/create', `/channel/edit/${mine.id}`, `/channel/edit/${mine.id}?q=zz`])
      expect((await call(other.host, path, { headers: { cookie } })).status, path).toBe(200)
    // The Djinni's decimals show as typed in the page's language (pt-BR: a comma).
    const tuned = (await (
      await api(other.host, 'channel', {
        method: 'POST',
        token: other.token,
        json: { name: 'Afinado', members: [{ nick: other.me, permission: 'owner' }], djinni: { pitch: -0.4, tempo: 1.25 } },
      })
    ).json()) as Channel
    const html = await (await call(other.host, `/channel/edit/${tuned.id}`, { headers: { cookie } })).text()
    expect(html).toMatch(/name="djinni\.pitch"[^>]*value="-0,4"|value="-0,4"[^>]*name="djinni\.pitch"/)
    expect(html).toMatch(/name="djinni\.tempo"[^>]*value="1,25"|value="1,25"[^>]*name="djinni\.tempo"/)
    // Another realm's channel is not found on the edit screen either.
    expect((await call(other.host, `/channel/edit/${ch.id}`, { headers: { cookie } })).status).toBe(404)
  })
})
