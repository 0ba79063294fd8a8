import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { sha256Hex } from '../../worker/lib/crypto'
import { THROTTLE, delayFor } from '../../worker/db/throttle'
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

describe('throttling of repeated failures per account', () => {
  it('demands a captcha after 3 failures, then delays with a rising retry_after, and forgets after a success', async () => {
    for (let i = 1; i <= 2; i++) {
      const body = await expectEnvelope(await attempt('manager', 'wrong-pass'), 401, 'credentials')
      expect(body.errors.map((e) => e.cause)).not.toContain('captcha_required')
    }
    const third = await expectEnvelope(await attempt('manager', 'wrong-pass'), 401, 'credentials')
    expect(third.errors.map((e) => e.cause)).toEqual(['credentials', 'captcha_required'])
    // From any address, this account now needs a captcha (the right password alone is not enough).
    await expectEnvelope(await attempt('manager', 'demo1234'), 400, 'captcha_required')
    await expectEnvelope(await attempt('manager', 'wrong-pass', { captcha: true }), 401, 'credentials')
    await expectEnvelope(await attempt('manager', 'wrong-pass', { captcha: true }), 401, 'credentials')
    // Five failures: further attempts wait, even with a captcha and the right password.
    const delayed = await expectEnvelope(await attempt('manager', 'demo1234', { captcha: true }), 429, 'throttled')
    const retry = (delayed.errors[0].value as { retry_after: number }).retry_after
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(THROTTLE.account.baseDelayMs / 1000)
    // Once the delay has passed, the right password (with a captcha) signs in and clears the account's record.
    await env.DB.prepare("UPDATE signin_throttle SET last_failure_at = ? WHERE realm = 'demo' AND kind = 'account' AND key = 'manager@demo'")
      .bind(new Date(Date.now() - THROTTLE.account.baseDelayMs - 1000).toISOString())
      .run()
    expect((await attempt('manager', 'demo1234', { captcha: true })).status).toBe(200)
    expect((await attempt('manager', 'demo1234')).status).toBe(200)
  })

  it('doubles the delay with each further failure up to a cap, and forgets failures after the window', async () => {
    const p = THROTTLE.account
    expect([4, 5, 6, 7].map((n) => delayFor(p, n))).toEqual([0, p.baseDelayMs, p.baseDelayMs * 2, p.baseDelayMs * 4])
    expect(delayFor(p, 60)).toBe(p.maxDelayMs)
    await env.DB.prepare(
      "INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'account', 'teacher@demo', 9, ?)",
    )
      .bind(new Date(Date.now() - p.windowMs - 1000).toISOString())
      .run()
    expect((await attempt('teacher', 'demo1234')).status).toBe(200)
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

  it('delays an address only after far more failures', async () => {
    const ip = randomIp()
    await env.DB.prepare("INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'client', ?, ?, ?)")
      .bind(await sha256Hex(ip), THROTTLE.client.delayAfter + 8, new Date().toISOString())
      .run()
    const body = await expectEnvelope(await attempt('root', 'demo1234', { ip, captcha: true }), 429, 'throttled')
    expect((body.errors[0].value as { retry_after: number }).retry_after).toBeGreaterThan(0)
    expect(THROTTLE.client.captchaAfter).toBeLessThan(THROTTLE.client.delayAfter)
    expect(THROTTLE.client.delayAfter).toBeGreaterThan(THROTTLE.account.delayAfter * 10)
  })
})
