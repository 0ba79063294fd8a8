import { describe, expect, it } from 'vitest'
import { verifyTicket } from '../../party/ticket'
import { DEMO, api, call, consoleSignIn, expectEnvelope, userWith } from './helpers'

/**
 * The participant view's own sign-in (issue 13, `/live/{channelId}`): the mobile-web sign-in (username and password,
 * a session in its own cookie) and the channel ticket minted with that session, so a student member of a members-only
 * channel joins from a browser with their permission; the console session keeps its precedence.
 */

const STAFF = ['sns_channel_list', 'sns_channel_get', 'sns_channel_create', 'sns_channel_edit']
const SECRET = 'test-party-secret'

async function channel(modes: Record<string, unknown>, members: { nick: string; permission: string }[] = []) {
  const staff = await userWith('demo', STAFF)
  const res = await api(DEMO, 'channel', {
    method: 'POST',
    token: staff.token,
    json: { name: `Aula ${crypto.randomUUID().slice(0, 8)}`, modes, members: [{ nick: staff.nick, permission: 'owner' }, ...members] },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

const form = (fields: Record<string, string>) => {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.set(k, v)
  return body
}
const post = (path: string, fields: Record<string, string>, cookie = '') =>
  call(DEMO, path, { method: 'POST', body: form(fields), headers: { origin: `http://${DEMO}`, cookie } })
const ticket = (id: string, cookie = '') => call(DEMO, `/party/ticket?party=channel&room=${id}`, { headers: cookie ? { cookie } : {} })

/** Signs the demo student in on the participant view; the mobile-web session cookie. */
async function studentSignIn(id: string): Promise<string> {
  const res = await post(`/live/${id}?intent=signin`, { nick: 'student', password: 'demo1234' })
  expect(res.status, await res.clone().text()).toBe(302)
  expect(res.headers.get('location')).toBe(`/live/${id}`)
  const cookie = /dash_mobile=[^;]+/.exec(res.headers.get('set-cookie') ?? '')
  expect(cookie).not.toBeNull()
  return cookie![0]
}

describe('participant view sign-in', () => {
  it('offers the username sign-in to a visitor, refuses a wrong password with its message and sets no session', async () => {
    const id = await channel({ invite_only: true }, [{ nick: 'student', permission: 'mobile' }])
    const page = await (await call(DEMO, `/live/${id}`)).text()
    expect(page).toContain('id="mobile-nick"')
    expect(page).toContain(`action="/live/${id}?intent=signin"`)
    expect(page).toContain(`/login?redirectTo=${encodeURIComponent(`/live/${id}`)}`)

    const wrong = await post(`/live/${id}?intent=signin`, { nick: 'student', password: 'senha-errada' })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('Usuário ou senha incorretos.')
    expect(wrong.headers.get('set-cookie') ?? '').not.toContain('dash_mobile')

    const empty = await post(`/live/${id}?intent=signin`, { nick: '', password: '' })
    expect(empty.status).toBe(400)
    expect(await post(`/live/${id}?intent=nothing`, {})).toHaveProperty('status', 400)
  })

  it('a student member of an invite-only channel gets a ticket with their permission through the mobile session', async () => {
    const id = await channel({ invite_only: true }, [{ nick: 'student', permission: 'operator' }])
    expect((await ticket(id)).status).toBe(401)
    const cookie = await studentSignIn(id)
    const page = await (await call(DEMO, `/live/${id}`, { headers: { cookie } })).text()
    expect(page).toContain('Conectado como Ana Costa')
    expect(page).not.toContain('id="mobile-nick"')

    const res = await ticket(id, cookie)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { ticket: string; role: string; room: string }
    expect(body).toMatchObject({ role: 'operator', room: id })
    expect(await verifyTicket(SECRET, body.ticket, 'channel', id)).toMatchObject({ realm: 'demo', nick: 'student@demo', role: 'operator' })
  })

  it('refuses a student who is not a member of a private or invite-only channel with the reason; a public one admits them', async () => {
    const cookie = await studentSignIn(await channel({}))
    for (const mode of ['private', 'invite_only']) await expectEnvelope(await ticket(await channel({ [mode]: true }), cookie), 403, 'members_only')
    const open = (await (await ticket(await channel({}), cookie)).json()) as { role: string }
    expect(open.role).toBe('participant')
  })

  it('signs out: the cookie is cleared and the session ended, so its ticket is refused', async () => {
    const id = await channel({ invite_only: true }, [{ nick: 'student', permission: 'mobile' }])
    const cookie = await studentSignIn(id)
    const out = await post(`/live/${id}?intent=signout`, {}, cookie)
    expect(out.status).toBe(302)
    expect(out.headers.get('location')).toBe(`/live/${id}`)
    expect(out.headers.get('set-cookie')).toMatch(/dash_mobile=;.*Max-Age=0/)
    expect((await ticket(id, cookie)).status).toBe(401)
    // The page clears a cookie whose session is over, and offers the sign-in again.
    const page = await call(DEMO, `/live/${id}`, { headers: { cookie } })
    expect(page.headers.get('set-cookie')).toMatch(/dash_mobile=;.*Max-Age=0/)
    expect(await page.text()).toContain('id="mobile-nick"')
  })

  it('the console session comes first when the browser holds both', async () => {
    const id = await channel({ invite_only: true }, [{ nick: 'student', permission: 'mobile' }])
    const both = `${await studentSignIn(id)}; ${await consoleSignIn(DEMO, 'root')}`
    const body = (await (await ticket(id, both)).json()) as { ticket: string; role: string }
    // root edits channels: the console's admin, not the student's `mobile`.
    expect(body.role).toBe('admin')
    expect(await (await call(DEMO, `/live/${id}`, { headers: { cookie: both } })).text()).not.toContain('id="mobile-nick"')
  })
})
