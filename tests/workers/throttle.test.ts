import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { sha256Hex } from '../../worker/lib/crypto'
import { THROTTLE, delayFor, pairKey } from '../../worker/db/throttle'
import { DEMO, api, expectEnvelope } from './helpers'
import { newSessionKey, randomIp, solveCaptcha } from './signin-helpers'

// Each sign-in hashes a password (600,000 PBKDF2 iterations) and some solve a proof of work: slower than the default 5 s.
vi.setConfig({ testTimeout: 30_000 })

async function attempt(nick: string, password: string, opts: { ip?: string; captcha?: boolean } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'cf-connecting-ip': opts.ip ?? randomIp() }
  if (opts.captcha) {
    const key = newSessionKey()
    headers['x-captcha-token'] = await solveCaptcha(DEMO, 'demo', key)
    headers['x-session-key'] = key
  }
  return api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick, password }, headers })
}

const causes = (body: { errors: { cause: string }[] }) => body.errors.map((e) => e.cause)
const retryAfter = (body: { errors: { cause: string; value: unknown }[] }) =>
  (body.errors.find((e) => e.cause === 'throttled')!.value as { retry_after: number }).retry_after
/** Moves a bucket's last failure back in time, as if that much time had passed. */
const age = async (kind: string, key: string, ms: number) =>
  env.DB.prepare("UPDATE signin_throttle SET last_failure_at = ? WHERE realm = 'demo' AND kind = ? AND key = ?")
    .bind(new Date(Date.now() - ms).toISOString(), kind, key)
    .run()

describe('throttling of repeated failures per account and client address', () => {
  it('slows the pair down a little, then demands a captcha; a solved captcha is never delayed', async () => {
    const ip = randomIp()
    const pair = await pairKey('manager@demo', ip)
    for (let i = 1; i <= THROTTLE.pair.delayAfter; i++) {
      expect(causes(await expectEnvelope(await attempt('manager', 'wrong-pass', { ip }), 401, 'credentials'))).toEqual(['credentials'])
    }
    // A small delay for this account from this address, which a solved captcha skips.
    const waited = await expectEnvelope(await attempt('manager', 'demo1234', { ip }), 429, 'throttled')
    expect(causes(waited)).toEqual(['throttled', 'captcha_required'])
    expect(retryAfter(waited)).toBe(THROTTLE.pair.baseDelayMs / 1000)
    // Other addresses are not slowed down for this account.
    expect((await attempt('manager', 'demo1234', { ip: randomIp() })).status).toBe(200)
    for (let i = THROTTLE.pair.delayAfter + 1; i <= THROTTLE.pair.captchaAfter; i++) {
      await age('pair', pair, THROTTLE.pair.maxDelayMs)
      const body = await expectEnvelope(await attempt('manager', 'wrong-pass', { ip }), 401, 'credentials')
      expect(causes(body)).toEqual(i === THROTTLE.pair.captchaAfter ? ['credentials', 'captcha_required'] : ['credentials'])
    }
    // Then a captcha is demanded from this address, even once the delay has passed.
    await age('pair', pair, THROTTLE.pair.maxDelayMs)
    await expectEnvelope(await attempt('manager', 'demo1234', { ip }), 400, 'captcha_required')
    // With a solved captcha there is no wait, right after a failure too; the right password signs in and clears the pair.
    await expectEnvelope(await attempt('manager', 'wrong-pass', { ip, captcha: true }), 401, 'credentials')
    expect((await attempt('manager', 'demo1234', { ip, captcha: true })).status).toBe(200)
    expect((await attempt('manager', 'demo1234', { ip })).status).toBe(200)
  })

  it('never locks the real user out: after many failures from address A, they sign in from B, and from A with a captcha', async () => {
    const attacker = randomIp()
    const failures = THROTTLE.account.captchaAfter + 5
    for (let i = 1; i <= failures; i++) {
      const res = await attempt('teacher', `guess-${i}`, { ip: attacker, captcha: i > THROTTLE.pair.delayAfter })
      expect(res.status, await res.clone().text()).toBe(401)
    }
    // Many failures from anywhere make the account ask every address for a captcha, and never wait or refuse.
    const home = randomIp()
    await expectEnvelope(await attempt('teacher', 'demo1234', { ip: home }), 400, 'captcha_required')
    expect((await attempt('teacher', 'demo1234', { ip: home, captcha: true })).status).toBe(200)
    // The success forgot the account's failures: from another address no captcha is asked any more.
    expect((await attempt('teacher', 'demo1234', { ip: randomIp() })).status).toBe(200)
    // The guessing address still needs a captcha for this account (the real user's success elsewhere forgave only
    // their own address), and there the right password with a solved captcha signs in too.
    await expectEnvelope(await attempt('teacher', 'demo1234', { ip: attacker }), 400, 'captcha_required')
    expect((await attempt('teacher', 'demo1234', { ip: attacker, captcha: true })).status).toBe(200)
  })

  it('never delays the account bucket, however many failures it counts', async () => {
    await env.DB.prepare("INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'account', 'tutor@demo', 500, ?)")
      .bind(new Date().toISOString())
      .run()
    await expectEnvelope(await attempt('tutor', 'demo1234'), 400, 'captcha_required')
    expect((await attempt('tutor', 'demo1234', { captcha: true })).status).toBe(200)
    expect(delayFor(THROTTLE.account, 10_000)).toBe(0)
  })

  it('doubles the pair’s delay with each further failure up to a cap, and forgets failures after the window', async () => {
    const p = THROTTLE.pair
    expect([p.delayAfter - 1, p.delayAfter, p.delayAfter + 1, p.delayAfter + 2].map((n) => delayFor(p, n))).toEqual([
      0,
      p.baseDelayMs,
      p.baseDelayMs * 2,
      p.baseDelayMs * 4,
    ])
    expect(delayFor(p, 60)).toBe(p.maxDelayMs)
    expect(p.maxDelayMs).toBeLessThanOrEqual(60_000)
    const ip = randomIp()
    await env.DB.prepare("INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'pair', ?, 9, ?)")
      .bind(await pairKey('teacher@demo', ip), new Date(Date.now() - p.windowMs - 1000).toISOString())
      .run()
    expect((await attempt('teacher', 'demo1234', { ip })).status).toBe(200)
  })
})

describe('throttling per client address', () => {
  it('asks one address for a captcha after many failures without locking its other users out', async () => {
    const school = randomIp()
    for (let i = 1; i < THROTTLE.client.captchaAfter; i++) {
      const body = await expectEnvelope(await attempt(`student${i}`, 'wrong-pass', { ip: school }), 401, 'credentials')
      expect(body.errors.map((e) => e.cause)).toEqual(['credentials'])
    }
    const last = await expectEnvelope(await attempt('student-last', 'wrong-pass', { ip: school }), 401, 'credentials')
    expect(last.errors.map((e) => e.cause)).toContain('captcha_required')
    // Everyone behind that address now solves a captcha, and still gets in.
    await expectEnvelope(await attempt('root', 'demo1234', { ip: school }), 400, 'captcha_required')
    expect((await attempt('root', 'demo1234', { ip: school, captcha: true })).status).toBe(200)
    // Other addresses are not affected.
    expect((await attempt('root', 'demo1234', { ip: randomIp() })).status).toBe(200)
  })

  it('refuses a flooding address for a while only after far more failures, even with a captcha (the one hard refusal)', async () => {
    const ip = randomIp()
    await env.DB.prepare("INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'client', ?, ?, ?)")
      .bind(await sha256Hex(ip), THROTTLE.client.delayAfter + 8, new Date().toISOString())
      .run()
    const body = await expectEnvelope(await attempt('root', 'demo1234', { ip, captcha: true }), 429, 'throttled')
    // A captcha does not help here, so the answer does not offer one.
    expect(causes(body)).toEqual(['throttled'])
    expect(retryAfter(body)).toBeGreaterThan(0)
    expect(retryAfter(body)).toBeLessThanOrEqual(THROTTLE.client.maxDelayMs / 1000)
    // The same account from any other address is not affected.
    expect((await attempt('root', 'demo1234', { ip: randomIp() })).status).toBe(200)
    expect(THROTTLE.client.captchaAfter).toBeLessThan(THROTTLE.client.delayAfter)
    expect(THROTTLE.client.delayAfter).toBeGreaterThanOrEqual(THROTTLE.pair.captchaAfter * 20)
  })
})
