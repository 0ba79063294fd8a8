import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { apiPathOf, permissionOf, screensOf, type PlainEntity } from '#shared/entities/define'
import { PLAIN_ENTITIES } from '#shared/entities/index'
import { ROUTES } from '#shared/manifest'
import { DEMO, ESCOLA, api, call, expectEnvelope, userWith } from './helpers'

/**
 * Every plain-entity declaration (app/shared/entities/) walked through the API the generic machinery mounts for it:
 * list, create, read, update and delete with valid and invalid bodies, permissions, and realm scoping.
 */

/** Per entity: a valid body, a valid change, and an invalid body with the field its error names. */
const EXAMPLES: Record<string, { valid: () => Record<string, unknown>; change: Record<string, unknown>; invalid: [Record<string, unknown>, string][] }> = {
  achievement_objective: {
    valid: () => ({ title: `Média nas redações ${crypto.randomUUID().slice(0, 6)}`, entity: 'essay', criteria: 'all', unit: 'score', percent: 0.7 }),
    change: { percent: 0.8, criteria: 'at_least_one' },
    invalid: [
      [{ title: 'M' }, 'title'],
      [{ title: 'Média', percent: 1.5 }, 'percent'],
      [{ title: 'Média', entity: 'video' }, 'entity'],
    ],
  },
  achievement_track: {
    valid: () => ({ title: `Trilha de leitura ${crypto.randomUUID().slice(0, 6)}`, description: 'Do básico ao avançado', tags: ['leitura'], items: [] }),
    change: { is_public: true, description: 'Mudou' },
    invalid: [
      [{ title: 'T' }, 'title'],
      [{ title: 'Trilha', type: 'model' }, 'type'],
      [{ title: 'Trilha', items: [{ kind: 'lesson', id: 'no-such-lesson' }] }, 'items.0.id'],
    ],
  },
  tms_genre: {
    valid: () => ({ name: `Crônica ${crypto.randomUUID().slice(0, 6)}`, min_words: 100, max_words: 400, description: 'Texto curto' }),
    change: { min_words: 150, max_words: 300, description: 'Mudou' },
    invalid: [
      [{ name: 'C', min_words: 100, max_words: 400 }, 'name'],
      [{ name: 'Crônica', min_words: 400, max_words: 100 }, 'max_words'],
      [{ name: 'Crônica', min_words: 'cem', max_words: 400 }, 'min_words'],
    ],
  },
  metaverse_room: {
    valid: () => ({ name: `Sala ${crypto.randomUUID().slice(0, 6)}`, description: 'Auditório', host: 'meta.example.org', capacity: 30, enabled: true }),
    change: { capacity: 80, enabled: false },
    invalid: [
      [{ name: 'S' }, 'name'],
      [{ name: 'Sala', capacity: 0 }, 'capacity'],
      [{ name: 'Sala', host: 'not a host!' }, 'host'],
    ],
  },
  tms_assessed_skill: {
    valid: () => ({ name: `Coesão ${crypto.randomUUID().slice(0, 6)}`, type: 'skill', weight: 1.5, group_id: null, description: '' }),
    change: { weight: 2.25, description: 'Peso maior' },
    invalid: [
      [{ name: 'Coesão', weight: 101 }, 'weight'],
      [{ name: 'Coesão', type: 'other' }, 'type'],
      [{ name: 'Coesão', group_id: 'no-such-group' }, 'group_id'],
    ],
  },
  channel_category: {
    valid: () => ({ name: `Esportes ${crypto.randomUUID().slice(0, 6)}`, priority: 2, featured: true, active: true, is_primary: false, icon: 'running' }),
    change: { priority: 5, icon: 'tv', featured: false },
    invalid: [
      [{ name: 'E' }, 'name'],
      [{ name: 'Esportes', icon: 'rocket' }, 'icon'],
      [{ name: 'Esportes', priority: -1 }, 'priority'],
    ],
  },
  cgs_agent: {
    valid: () => ({ name: `Agente ${crypto.randomUUID().slice(0, 6)}`, tags: ['ciências'], is_public: true, target_audience: '6º ano' }),
    change: { target_audience: 'Ensino médio', is_public: false },
    invalid: [
      [{ name: 'A' }, 'name'],
      [{ name: 'Agente', tags: ['a', 'A'] }, 'tags'],
    ],
  },
  room_card: {
    valid: () => ({
      type: 'link',
      label: `Biblioteca ${crypto.randomUUID().slice(0, 6)}`,
      url: 'https://lib.example/{realm}?u={nick}',
      icon: '/icons/book.svg',
    }),
    change: { type: 'room', url: '/live/{room}', label_id: 'card.library' },
    invalid: [
      [{ label: 'Card', url: 'https://x.example/{user}' }, 'url'],
      [{ label: 'Card', url: '/only/a/path' }, 'url'],
      [{ label: '', url: 'https://x.example' }, 'label'],
    ],
  },
  csm_category: {
    valid: () => ({ name: `Aulas ao vivo ${crypto.randomUUID().slice(0, 6)}`, description: 'Gravações das aulas', active: true }),
    change: { description: 'Mudou', active: false },
    invalid: [
      [{ name: 'A' }, 'name'],
      [{ name: 'Aulas', active: 'sim' }, 'active'],
      [{ name: 'Aulas', description: 'x'.repeat(501) }, 'description'],
    ],
  },
  tms_category: {
    valid: () => ({ name: `Disciplina ${crypto.randomUUID().slice(0, 6)}`, parent_id: null, required: true, multi_selection: false, embed: false }),
    change: { required: false, show_in_navigation: true },
    invalid: [
      [{ name: 'D' }, 'name'],
      [{ name: 'Disciplina', enabled: 'sim' }, 'enabled'],
      [{ name: 'Disciplina', parent_id: 'no-such-category' }, 'parent_id'],
    ],
  },
}

const DECLARATION_FILES = import.meta.glob<PlainEntity>('../../app/shared/entities/*.ts', { eager: true, import: 'default' })

const rowsOf = async (e: PlainEntity, realm: string) =>
  (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${e.table} WHERE ${e.realmColumn} = ?`).bind(realm).first<{ n: number }>())!.n

describe('the plain-entity registry', () => {
  it('lists every declaration file of app/shared/entities/, each with a test example', () => {
    const declared = Object.entries(DECLARATION_FILES).filter(([, d]) => d && typeof d === 'object' && 'api' in d && 'route' in d)
    expect(declared.length).toBeGreaterThan(0)
    for (const [file, d] of declared) expect(PLAIN_ENTITIES, `${file} is not in app/shared/entities/index.ts`).toContain(d)
    for (const e of PLAIN_ENTITIES) expect(EXAMPLES[e.name], `no example for ${e.name}`).toBeDefined()
  })

  it('gives each declaration its manifest routes once (no hand-written twin left behind)', () => {
    for (const e of PLAIN_ENTITIES)
      for (const screen of ['list', 'create', 'edit'])
        expect(ROUTES.filter((r) => r.id === `${e.route.id}.${screen}`).length, `${e.route.id}.${screen}`).toBe(1)
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length)
  })
})

for (const e of PLAIN_ENTITIES) {
  const all = ['list', 'get', 'create', 'edit', 'delete'].map((a) => permissionOf(e, a as 'list'))
  const ex = () => EXAMPLES[e.name]
  const path = (realm: string, id?: string) => `${apiPathOf(e, realm)}${id === undefined ? '' : `/${id}`}`

  describe(`${e.name} (/api/${e.api})`, () => {
    it('creates, reads, lists, searches, updates and deletes inside the realm', async () => {
      const { token, nick } = await userWith('demo', all)
      const body = ex().valid()
      const created = await api(DEMO, path('demo'), { method: 'POST', token, json: body })
      expect(created.status, await created.clone().text()).toBe(201)
      const row = (await created.json()) as Record<string, unknown>
      expect(row).toMatchObject({ ...body, realm: 'demo', ...(e.stamped ? { updated_by: nick } : {}) })
      const id = String(row[e.key])

      const got = await api(DEMO, path('demo', id), { token })
      expect(got.status).toBe(200)
      expect(await got.json()).toMatchObject(body)

      const label = String(body[e.labelField])
      const page = (await (await api(DEMO, `${path('demo')}?like=${encodeURIComponent(label)}`, { token })).json()) as {
        items: Record<string, unknown>[]
        total: number
      }
      expect(page.items.map((r) => r[e.key])).toEqual([id])

      const changed = await api(DEMO, path('demo', id), { method: 'PUT', token, json: { ...body, ...ex().change } })
      expect(changed.status, await changed.clone().text()).toBe(200)
      expect(await changed.json()).toMatchObject(ex().change)
      expect(await (await api(DEMO, path('demo', id), { token })).json()).toMatchObject(ex().change)

      expect((await api(DEMO, path('demo', id), { method: 'DELETE', token })).status).toBe(204)
      await expectEnvelope(await api(DEMO, path('demo', id), { token }), 404, 'not_found')
    })

    it('refuses invalid bodies with the error envelope and stores nothing', async () => {
      const { token } = await userWith('demo', all)
      const before = await rowsOf(e, 'demo')
      for (const [body, field] of ex().invalid) {
        const res = await api(DEMO, path('demo'), { method: 'POST', token, json: body })
        const envelope = await expectEnvelope(res, res.status)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
        expect(
          envelope.errors.map((x) => x.field),
          JSON.stringify(body),
        ).toContain(field)
      }
      expect(await rowsOf(e, 'demo')).toBe(before)
      const created = (await (await api(DEMO, path('demo'), { method: 'POST', token, json: ex().valid() })).json()) as Record<string, unknown>
      const [bad, field] = ex().invalid[0]
      const refused = await api(DEMO, path('demo', String(created[e.key])), { method: 'PUT', token, json: { ...ex().valid(), ...bad } })
      expect((await expectEnvelope(refused, refused.status)).errors.map((x) => x.field)).toContain(field)
      expect(await (await api(DEMO, path('demo', String(created[e.key])), { token })).json()).toMatchObject({ [e.labelField]: created[e.labelField] })
    })

    it('answers 403 without the permission of each action', async () => {
      const { token: owner } = await userWith('demo', all)
      const id = String(
        ((await (await api(DEMO, path('demo'), { method: 'POST', token: owner, json: ex().valid() })).json()) as Record<string, unknown>)[e.key],
      )
      const { token } = await userWith('demo', ['dashboard_dashboard_access'])
      await expectEnvelope(await api(DEMO, path('demo'), { token }), 403)
      await expectEnvelope(await api(DEMO, path('demo', id), { token }), 403)
      await expectEnvelope(await api(DEMO, path('demo'), { method: 'POST', token, json: ex().valid() }), 403)
      await expectEnvelope(await api(DEMO, path('demo', id), { method: 'PUT', token, json: ex().valid() }), 403)
      await expectEnvelope(await api(DEMO, path('demo', id), { method: 'DELETE', token }), 403)
      expect((await api(DEMO, path('demo', id), { token: owner })).status).toBe(200)
    })

    it('keeps each realm to its own rows', async () => {
      const { token: demo } = await userWith('demo', all)
      const { token: escola } = await userWith('escola', all)
      const body = ex().valid()
      const id = String(((await (await api(DEMO, path('demo'), { method: 'POST', token: demo, json: body })).json()) as Record<string, unknown>)[e.key])
      const label = encodeURIComponent(String(body[e.labelField]))
      expect(((await (await api(ESCOLA, `${path('escola')}?like=${label}`, { token: escola })).json()) as { total: number }).total).toBe(0)
      await expectEnvelope(await api(ESCOLA, path('escola', id), { token: escola }), 404, 'not_found')
      await expectEnvelope(await api(ESCOLA, path('escola', id), { method: 'PUT', token: escola, json: ex().valid() }), 404, 'not_found')
      await expectEnvelope(await api(ESCOLA, path('escola', id), { method: 'DELETE', token: escola }), 404, 'not_found')
      expect(await (await api(DEMO, path('demo', id), { token: demo })).json()).toMatchObject(body)
    })

    it('serves its generic console list, create and edit screens behind the same permissions', async () => {
      const { token, cookie } = await userWith('demo', ['dashboard_dashboard_access', ...all])
      const id = String(((await (await api(DEMO, path('demo'), { method: 'POST', token, json: ex().valid() })).json()) as Record<string, unknown>)[e.key])
      const screens = { list: e.route.path, create: `${e.route.path}/create`, edit: `${e.route.path}/edit/${id}` }
      for (const screen of screensOf(e)) {
        const res = await call(DEMO, screens[screen], { headers: { cookie } })
        expect(res.status, screens[screen]).toBe(200)
        expect(await res.text()).toContain(`entity/${e.name}/${screen}`)
      }
      const { cookie: none } = await userWith('demo', ['dashboard_dashboard_access'])
      const denied = await call(DEMO, `${e.route.path}/create`, { headers: { cookie: none }, redirect: 'manual' })
      expect(denied.status).not.toBe(200)
    })
  })
}
