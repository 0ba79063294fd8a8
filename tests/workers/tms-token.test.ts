import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { TaskToken } from '#shared/schemas/tms/token'
import { validQuestion } from '../support/tms-fixtures'
import { room, roomGroup, taskCategory } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'

const PERMS = ['dashboard_dashboard_access', 'tms_model_create', 'tms_task_publish', 'tms_token_generate', 'tms_task_list_by_target']

/** Two rooms of realm demo, a group of both and a task category: built for each test, not the demo seed's. */
async function place() {
  const a = await room('demo', { name: `A ${crypto.randomUUID().slice(0, 6)}` })
  const b = await room('demo', { name: `B ${crypto.randomUUID().slice(0, 6)}` })
  return { a, b, group: await roomGroup('demo', [a.id, b.id]), category: await taskCategory('demo') }
}
let where: Awaited<ReturnType<typeof place>>
beforeEach(async () => {
  where = await place()
})

async function task(token: string, modelExtra: Record<string, unknown>, targets: Record<string, unknown> = { rooms: [where.a.id] }) {
  const m = (await (
    await api(DEMO, 'tms/model', { method: 'POST', token, json: { title: 'Token task', questions: [validQuestion('single')], ...modelExtra } })
  ).json()) as { id: string }
  const res = await api(DEMO, 'tms/task', { method: 'POST', token, json: { model_id: m.id, categories: [where.category.id], ...targets } })
  expect(res.status, await res.clone().text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

type TokenAnswer = { task: { id: string; title: string }; room: { name: string }; tokens: TaskToken[] }

describe('task tokens (/tms/token)', () => {
  it('generates a code for a token task in a room, showing who created it and when; a new code replaces the old', async () => {
    const me = await userWith('demo', PERMS)
    const id = await task(me.token, { token: true })
    const path = `tms/token/task/${id}/room/${encodeURIComponent(where.a.name)}`
    expect(((await (await api(DEMO, path, { token: me.token })).json()) as TokenAnswer).tokens).toEqual([])
    const first = await api(DEMO, path, { method: 'POST', token: me.token, json: {} })
    expect(first.status).toBe(201)
    const one = (await first.json()) as TokenAnswer
    expect(one.tokens).toHaveLength(1)
    expect(one.tokens[0]).toMatchObject({ created_by: me.nick, room_name: where.a.name, task_title: 'Token task', revoked_at: null })
    expect(one.tokens[0].code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/)
    expect(Date.now() - Date.parse(one.tokens[0].created_at)).toBeLessThan(60_000)

    const two = (await (await api(DEMO, path, { method: 'POST', token: me.token, json: {} })).json()) as TokenAnswer
    expect(two.tokens).toHaveLength(2)
    expect(two.tokens.filter((t) => t.revoked_at === null)).toHaveLength(1)
    const listed = (await (await api(DEMO, `tms/token?task_id=${id}`, { token: me.token })).json()) as { items: TaskToken[]; total: number }
    expect(listed.total).toBe(2)
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'tms_token' AND action = 'generate' AND actor = ?")
      .bind(me.nick)
      .first<{ n: number }>()
    expect(audit?.n).toBe(2)
  })

  it('reaches rooms through a group publication', async () => {
    const me = await userWith('demo', PERMS)
    const id = await task(me.token, { token: true }, { publication_type: 'group', groups: [where.group.id] })
    expect((await api(DEMO, `tms/token/task/${id}/room/${encodeURIComponent(where.b.name)}`, { method: 'POST', token: me.token, json: {} })).status).toBe(201)
  })

  it('refuses a task without tokens, a room the task does not reach, and unknown rooms and tasks', async () => {
    const me = await userWith('demo', PERMS)
    const plain = await task(me.token, {})
    await expectEnvelope(
      await api(DEMO, `tms/token/task/${plain}/room/${encodeURIComponent(where.a.name)}`, { method: 'POST', token: me.token, json: {} }),
      422,
      'token_disabled',
    )
    const tokened = await task(me.token, { token: true })
    await expectEnvelope(
      await api(DEMO, `tms/token/task/${tokened}/room/${encodeURIComponent(where.b.name)}`, { method: 'POST', token: me.token, json: {} }),
      422,
      'room_not_target',
    )
    await expectEnvelope(await api(DEMO, `tms/token/task/${tokened}/room/Nowhere`, { token: me.token }), 404, 'not_found')
    await expectEnvelope(await api(DEMO, `tms/token/task/nope/room/${encodeURIComponent(where.a.name)}`, { token: me.token }), 404, 'not_found')
  })

  it('needs tms_token_generate and one of the task list permissions', async () => {
    const without = await userWith('demo', ['dashboard_dashboard_access', 'tms_token_generate'])
    await expectEnvelope(await api(DEMO, 'tms/token', { token: without.token }), 403, 'forbidden')
    const other = await userWith('demo', ['dashboard_dashboard_access', 'tms_task_list_others'])
    await expectEnvelope(await api(DEMO, 'tms/token', { token: other.token }), 403, 'forbidden')
  })
})
