import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { randomToken, sha256Hex } from '../../worker/lib/crypto'
import { DEMO, ESCOLA, api, expectEnvelope, signIn } from './helpers'

const change = (host: string, token: string, from: string, leaf: string, headers: Record<string, string> = {}, extra: Record<string, string> = {}) =>
  api(host, `mas/realm/${from}/change`, { method: 'PUT', token, json: { leaf_realm: leaf, ...extra }, headers })

const handover = (host: string, leg: 'bind' | 'confirm' | 'claim', json: Record<string, unknown>) =>
  api(host, `mas/session/handover/${leg}`, { method: 'POST', json })

/** A switch from demo's host to escola's, started with a state kept by the starting browser (as the console does). */
async function startSwitch() {
  const state = randomToken(32)
  const token = await signIn(DEMO, 'demo', 'platform')
  const switched = (await (await change(DEMO, token, 'demo', 'escola', {}, { handover_state: await sha256Hex(state) })).json()) as Switched
  return { state, switched, code: switched.handover_code! }
}

/** A nonce as the target host makes one, with its hash. */
async function newNonce() {
  const nonce = randomToken(32)
  return { nonce, nonce_hash: await sha256Hex(nonce) }
}

type Switched = {
  auth_token: string
  realm: string
  nick: string
  origin_realm: string
  home_url: string | null
  handover_code: string | null
  config: { realm: string; name: string }
}

describe('PUT /mas/realm/{realm}/change', () => {
  it('gives a user with mas_realm_list_all a token bound to the target realm, and revokes the old one', async () => {
    // Reaching a realm outside one's own tree takes a platform operator (a realm's root stays in its tree).
    const token = await signIn(DEMO, 'demo', 'platform')
    const res = await change(DEMO, token, 'demo', 'escola')
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as Switched
    expect(body).toMatchObject({
      realm: 'escola',
      nick: 'platform@demo',
      origin_realm: 'demo',
      home_url: 'http://escola.localhost/',
      config: { realm: 'escola', name: 'Escola Estadual Modelo' },
    })
    await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401, 'unauthorized')
    // The new token acts in escola only; the user keeps their own roles and shows their home realm as origin.
    const me = (await (await api(ESCOLA, 'mas/session', { token: body.auth_token })).json()) as {
      realm: string
      origin_realm: string
      role: string
      permissions: Record<string, boolean>
    }
    expect(me).toMatchObject({ realm: 'escola', origin_realm: 'demo', role: 'platform' })
    expect(me.permissions.mas_realm_list_all).toBe(true)
    await expectEnvelope(await api(DEMO, 'mas/session', { token: body.auth_token }), 401, 'realm')
    // Lists are scoped to the realm the token acts in.
    const roles = await api(ESCOLA, 'mas/permission/manager', { token: body.auth_token })
    expect(((await roles.json()) as { realm: string }).realm).toBe('escola')
  })

  it('lets the user switch back to their home realm', async () => {
    const token = await signIn(DEMO, 'demo', 'platform')
    const there = (await (await change(DEMO, token, 'demo', 'escola')).json()) as Switched
    const back = await change(ESCOLA, there.auth_token, 'escola', 'demo')
    expect(back.status).toBe(200)
    const home = (await back.json()) as Switched
    expect(((await (await api(DEMO, 'mas/session', { token: home.auth_token })).json()) as { realm: string }).realm).toBe('demo')
  })

  it('confines mas_realm_list to the home realm and its descendants', async () => {
    await env.DB.prepare("INSERT INTO realm (code, name, parent_code) VALUES ('demo-oeste', 'Demo Oeste', 'demo')").run()
    const manager = await signIn('localhost', 'demo', 'manager')
    await expectEnvelope(await change(DEMO, manager, 'demo', 'escola'), 403, 'forbidden')
    // From demo's own host a realm without a host of its own cannot be reached; nothing changes.
    await expectEnvelope(await change(DEMO, manager, 'demo', 'demo-oeste'), 409, 'realm_host')
    expect((await api(DEMO, 'mas/session', { token: manager })).status).toBe(200)
    const res = await change('localhost', manager, 'demo', 'demo-oeste', { 'x-api-realm': 'demo' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Switched
    // A realm without a host of its own is served on multi-realm hosts only.
    expect(body.home_url).toBeNull()
    const me = await api('localhost', 'mas/session', { token: body.auth_token, headers: { 'x-api-realm': 'demo-oeste' } })
    expect(((await me.json()) as { realm: string }).realm).toBe('demo-oeste')
    // From the child realm the home tree is still the one the user may switch within.
    const list = await api('localhost', 'mas/realm?limit=1000', { token: body.auth_token, headers: { 'x-api-realm': 'demo-oeste' } })
    expect(((await list.json()) as { items: { code: string }[] }).items.map((r) => r.code).sort()).toEqual(['demo', 'demo-norte', 'demo-oeste', 'demo-sul'])
    // A grandchild of the home realm is inside the tree too.
    await env.DB.prepare("UPDATE realm SET parent_code = 'demo-norte' WHERE code = 'demo-oeste'").run()
    expect((await api('localhost', 'mas/session', { token: body.auth_token, headers: { 'x-api-realm': 'demo-oeste' } })).status).toBe(200)
    // Once the realm leaves the home realm's tree, the switched session ends for good.
    await env.DB.prepare("UPDATE realm SET parent_code = NULL WHERE code = 'demo-oeste'").run()
    await expectEnvelope(await api('localhost', 'mas/session', { token: body.auth_token, headers: { 'x-api-realm': 'demo-oeste' } }), 401)
    await env.DB.prepare("UPDATE realm SET parent_code = 'demo' WHERE code = 'demo-oeste'").run()
    await expectEnvelope(await api('localhost', 'mas/session', { token: body.auth_token, headers: { 'x-api-realm': 'demo-oeste' } }), 401)
  })

  it('refuses users without realm listing, unknown targets and a path realm other than the session’s', async () => {
    const teacher = await signIn(DEMO, 'demo', 'teacher')
    await expectEnvelope(await change(DEMO, teacher, 'demo', 'demo'), 403, 'forbidden')
    const root = await signIn(DEMO, 'demo', 'root')
    await expectEnvelope(await change(DEMO, root, 'demo', 'nowhere'), 404, 'not_found')
    await expectEnvelope(await change(DEMO, root, 'escola', 'escola'), 400, 'realm')
    await expectEnvelope(await api(DEMO, 'mas/realm/demo/change', { method: 'PUT', token: root, json: { leaf_realm: 'Bad Code!' } }), 400)
    await expectEnvelope(await change(DEMO, '', 'demo', 'escola'), 401, 'unauthorized')
  })
})

describe('session handover between hosts', () => {
  it('moves a session to another host in three legs (bind, confirm, claim), once', async () => {
    const { state, switched, code } = await startSwitch()
    expect(code).toMatch(/^[\w-]{43}$/)
    const { nonce, nonce_hash } = await newNonce()
    // (b) The target host binds its nonce and learns where the switch started (stored, never read from a URL).
    await expectEnvelope(await handover(DEMO, 'bind', { code, nonce_hash }), 404, 'not_found')
    const bound = await handover(ESCOLA, 'bind', { code, nonce_hash })
    expect(bound.status, await bound.clone().text()).toBe(200)
    expect(await bound.json()).toEqual({ confirm_url: 'http://demo.localhost/authentication/handover/confirm' })
    await expectEnvelope(await handover(ESCOLA, 'bind', { code, nonce_hash: (await newNonce()).nonce_hash }), 409, 'used')
    // (c) The starting host vouches with the state; it learns the target's console address.
    const confirmed = await handover(DEMO, 'confirm', { code, state, nonce_hash })
    expect(confirmed.status, await confirmed.clone().text()).toBe(200)
    expect(await confirmed.json()).toEqual({ target_url: 'http://escola.localhost/' })
    await expectEnvelope(await handover(DEMO, 'confirm', { code, state, nonce_hash }), 409, 'used')
    // (d) The target host claims with the nonce.
    await expectEnvelope(await handover(DEMO, 'claim', { code, nonce }), 404, 'not_found')
    const claimed = await handover(ESCOLA, 'claim', { code, nonce })
    expect(claimed.status, await claimed.clone().text()).toBe(200)
    const next = (await claimed.json()) as { auth_token: string; realm: string }
    expect(next.realm).toBe('escola')
    expect((await api(ESCOLA, 'mas/session', { token: next.auth_token })).status).toBe(200)
    await expectEnvelope(await api(ESCOLA, 'mas/session', { token: switched.auth_token }), 401, 'unauthorized')
    await expectEnvelope(await handover(ESCOLA, 'claim', { code, nonce }), 409, 'used')
    await expectEnvelope(await handover(ESCOLA, 'bind', { code, nonce_hash }), 409, 'used')
  })

  it('issues no handover code without a state from the starting browser', async () => {
    const token = await signIn(DEMO, 'demo', 'platform')
    const switched = (await (await change(DEMO, token, 'demo', 'escola')).json()) as Switched
    expect(switched).toMatchObject({ realm: 'escola', home_url: 'http://escola.localhost/', handover_code: null })
    const again = await signIn(DEMO, 'demo', 'platform')
    await expectEnvelope(await change(DEMO, again, 'demo', 'escola', {}, { handover_state: 'not-a-hash' }), 400)
    // A refused request changed nothing: the session still acts in demo.
    expect((await api(DEMO, 'mas/session', { token: again })).status).toBe(200)
  })

  it('refuses an attacker’s code in a victim’s browser at the confirm leg, and spends it', async () => {
    const { state, code } = await startSwitch()
    // The victim's browser reaches the target host first: it binds the victim's nonce.
    const victim = await newNonce()
    expect((await handover(ESCOLA, 'bind', { code, nonce_hash: victim.nonce_hash })).status).toBe(200)
    // The attacker holds the state but not the victim's nonce: confirming with any other nonce fails and ends the code.
    const own = await newNonce()
    await expectEnvelope(await handover(DEMO, 'confirm', { code, state, nonce_hash: own.nonce_hash }), 403, 'handover_state')
    await expectEnvelope(await handover(DEMO, 'confirm', { code, state, nonce_hash: victim.nonce_hash }), 409, 'used')
    await expectEnvelope(await handover(ESCOLA, 'claim', { code, nonce: victim.nonce }), 409, 'used')
  })

  it('refuses a claim without the confirm leg, or with another browser’s nonce', async () => {
    const first = await startSwitch()
    const n1 = await newNonce()
    await handover(ESCOLA, 'bind', { code: first.code, nonce_hash: n1.nonce_hash })
    await expectEnvelope(await handover(ESCOLA, 'claim', { code: first.code, nonce: n1.nonce }), 403, 'handover_state')
    const second = await startSwitch()
    const n2 = await newNonce()
    await handover(ESCOLA, 'bind', { code: second.code, nonce_hash: n2.nonce_hash })
    await expectEnvelope(await handover(DEMO, 'confirm', { code: second.code, state: randomToken(32), nonce_hash: n2.nonce_hash }), 403, 'handover_state')
    const third = await startSwitch()
    const n3 = await newNonce()
    await handover(ESCOLA, 'bind', { code: third.code, nonce_hash: n3.nonce_hash })
    expect((await handover(DEMO, 'confirm', { code: third.code, state: third.state, nonce_hash: n3.nonce_hash })).status).toBe(200)
    await expectEnvelope(await handover(ESCOLA, 'claim', { code: third.code, nonce: (await newNonce()).nonce }), 403, 'handover_state')
    await expectEnvelope(await handover(ESCOLA, 'claim', { code: third.code, nonce: n3.nonce }), 409, 'used')
  })

  it('needs no handover on a multi-realm host, and refuses an expired code', async () => {
    const token = await signIn('localhost', 'demo', 'platform')
    const state = await sha256Hex(randomToken(32))
    const local = (await (await change('localhost', token, 'demo', 'escola', { 'x-api-realm': 'demo' }, { handover_state: state })).json()) as Switched
    expect(local).toMatchObject({ realm: 'escola', home_url: 'http://escola.localhost/', handover_code: null })
    const there = (await (await change(ESCOLA, local.auth_token, 'escola', 'demo', {}, { handover_state: state })).json()) as Switched
    await env.DB.prepare("UPDATE session_handover SET expires_at = '2000-01-01T00:00:00.000Z'").run()
    await expectEnvelope(await handover(DEMO, 'bind', { code: there.handover_code, nonce_hash: (await newNonce()).nonce_hash }), 410, 'expired')
  })
})
