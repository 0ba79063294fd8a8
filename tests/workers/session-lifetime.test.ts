import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { sha256Hex } from '../../worker/lib/crypto'
import { disableUser } from '../../worker/db/users'
import { DEMO, api, expectEnvelope, signIn } from './helpers'

// Each sign-in hashes a password (600,000 PBKDF2 iterations) and some solve a proof of work: slower than the default 5 s.
vi.setConfig({ testTimeout: 30_000 })

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
const setSession = async (token: string, column: 'last_seen_at' | 'created_at', value: string) =>
  env.DB.prepare(`UPDATE session SET ${column} = ? WHERE token_hash = ?`)
    .bind(value, await sha256Hex(token))
    .run()

describe('session lifetime', () => {
  it('ends a session after the realm’s idle timeout (30 minutes by default)', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    await setSession(token, 'last_seen_at', minutesAgo(29))
    expect((await api(DEMO, 'mas/session', { token })).status).toBe(200)
    await setSession(token, 'last_seen_at', minutesAgo(31))
    const body = await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401, 'session_timeout')
    expect(body.errors[0].field).toBe('x-api-key')
  })

  it('keeps a used session alive, writing last_seen_at at most once a minute', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    const seen = async () =>
      (await env.DB.prepare('SELECT last_seen_at AS t FROM session WHERE token_hash = ?')
        .bind(await sha256Hex(token))
        .first<{ t: string }>())!.t
    const recent = new Date(Date.now() - 5_000).toISOString()
    await setSession(token, 'last_seen_at', recent)
    await api(DEMO, 'mas/session', { token })
    expect(await seen()).toBe(recent)
    await setSession(token, 'last_seen_at', minutesAgo(20))
    await api(DEMO, 'mas/session', { token })
    expect(Date.parse(await seen())).toBeGreaterThan(Date.parse(minutesAgo(1)))
  })

  it('ends a session after its absolute lifetime however active it is (12 hours by default)', async () => {
    const token = await signIn(DEMO, 'demo', 'manager')
    await setSession(token, 'created_at', minutesAgo(11 * 60))
    expect((await api(DEMO, 'mas/session', { token })).status).toBe(200)
    await setSession(token, 'created_at', minutesAgo(12 * 60 + 1))
    await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401, 'session_timeout')
  })

  it('lets a realm tune both limits, applying a shorter one to live sessions at once', async () => {
    const token = await signIn(DEMO, 'demo', 'teacher')
    await setSession(token, 'last_seen_at', minutesAgo(10))
    expect((await api(DEMO, 'mas/session', { token })).status).toBe(200)
    await env.DB.prepare("UPDATE realm SET session_idle_minutes = 5, session_lifetime_minutes = 60 WHERE code = 'demo'").run()
    try {
      await setSession(token, 'last_seen_at', minutesAgo(6))
      await expectEnvelope(await api(DEMO, 'mas/session', { token }), 401, 'session_timeout')
      const fresh = await signIn(DEMO, 'demo', 'teacher')
      const row = await env.DB.prepare('SELECT created_at, expires_at FROM session WHERE token_hash = ?')
        .bind(await sha256Hex(fresh))
        .first<{ created_at: string; expires_at: string }>()
      expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(60 * 60_000)
    } finally {
      await env.DB.prepare("UPDATE realm SET session_idle_minutes = 30, session_lifetime_minutes = 720 WHERE code = 'demo'").run()
    }
  })

  it('validates the realm settings', async () => {
    const root = await signIn(DEMO, 'demo', 'root')
    const body = await expectEnvelope(
      await api(DEMO, 'mas/realm/demo', { method: 'PUT', token: root, json: { session_idle_minutes: 0, captcha_type: 'audio' } }),
      400,
    )
    expect(body.errors.map((e) => e.field).sort()).toEqual(['captcha_type', 'session_idle_minutes'])
    const ok = await api(DEMO, 'mas/realm/demo', { method: 'PUT', token: root, json: { session_idle_minutes: 45 } })
    expect(((await ok.json()) as { session_idle_minutes: number }).session_idle_minutes).toBe(45)
    expect(((await (await api(DEMO, 'mas/realm/demo', { token: root })).json()) as { employee_token_secret: string }).employee_token_secret).toBe('')
    await api(DEMO, 'mas/realm/demo', { method: 'PUT', token: root, json: { session_idle_minutes: 30 } })
  })
})

describe('ending every session of a user', () => {
  it('signs a user out of every device on logout', async () => {
    const [a, b] = [await signIn(DEMO, 'demo', 'teacher'), await signIn(DEMO, 'demo', 'teacher')]
    const other = await signIn(DEMO, 'demo', 'manager')
    expect((await api(DEMO, 'device', { method: 'DELETE', token: a })).status).toBe(204)
    await expectEnvelope(await api(DEMO, 'mas/session', { token: a }), 401, 'unauthorized')
    await expectEnvelope(await api(DEMO, 'mas/session', { token: b }), 401, 'unauthorized')
    expect((await api(DEMO, 'mas/session', { token: other })).status).toBe(200)
  })

  it('ends all sessions of a user who is disabled, and refuses them afterwards', async () => {
    await env.DB.prepare(
      "INSERT INTO user (realm, nick, name, password_hash, origin_realm) SELECT realm, 'leaving@demo', 'Leaving', password_hash, realm FROM user WHERE realm = 'demo' AND nick = 'manager@demo'",
    ).run()
    await env.DB.prepare("INSERT INTO user_role (realm, nick, role) VALUES ('demo', 'leaving@demo', 'manager')").run()
    const [a, b] = [await signIn(DEMO, 'demo', 'leaving'), await signIn(DEMO, 'demo', 'leaving')]
    expect(await disableUser(env.DB, 'demo', 'leaving@demo')).toBe(true)
    await expectEnvelope(await api(DEMO, 'mas/session', { token: a }), 401, 'unauthorized')
    await expectEnvelope(await api(DEMO, 'mas/session', { token: b }), 401, 'unauthorized')
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM session WHERE nick = 'leaving@demo' AND revoked_at IS NULL").first<{ n: number }>()
    expect(live?.n).toBe(0)
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'leaving', password: 'demo1234' } }), 401, 'credentials')
    expect(await disableUser(env.DB, 'demo', 'nobody@demo')).toBe(false)
  })
})
