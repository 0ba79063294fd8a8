import { describe, expect, it } from 'vitest'
import { realmCookie, sessionCookie, sessionToken } from '#shared/cookies.server'

describe('the console cookies (app/shared/cookies.server.ts), made once per isolate', () => {
  it('are secure and __Host- prefixed outside local hosts, plain on them, and the same object for every request', async () => {
    const remote = new Request('https://demo.example.com/user')
    const local = new Request('http://demo.localhost:8787/user')
    expect(sessionCookie(remote).name).toBe('__Host-dash_session')
    expect(sessionCookie(local).name).toBe('dash_session')
    expect(realmCookie(remote).name).toBe('__Host-dash_realm')
    expect(realmCookie(local).name).toBe('dash_realm')
    expect(sessionCookie(new Request('https://escola.example.com/'))).toBe(sessionCookie(remote))
    expect(sessionCookie(local)).not.toBe(sessionCookie(remote))
    const header = await sessionCookie(remote).serialize('tok123', { maxAge: 60 })
    expect(header).toMatch(/^__Host-dash_session=.*; Max-Age=60; .*Secure/)
    // The expiry is computed when asked, not when the cookie object was made.
    expect(sessionCookie(remote).expires!.getTime()).toBeGreaterThan(Date.now() + 12 * 3600 * 1000 - 5000)
    const cookie = header.split(';')[0]
    // (happy-dom's Request drops a cookie header, as browsers do; the cookie object parses the header itself.)
    expect(await sessionCookie(remote).parse(cookie)).toBe('tok123')
    expect(await sessionToken(new Request('https://demo.example.com/'))).toBeNull()
  })
})
