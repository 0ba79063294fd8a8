import { describe, expect, it } from 'vitest'
import { MAX_SESSION_HEADERS, rememberedSessionHeaders, sessionCookie, sessionToken } from '#shared/cookies.server'
import { MAX_TOKEN_HASHES, rememberedTokenHashes, sha256Hex, tokenHash } from '../../worker/lib/crypto'

/** A request to `url` carrying `cookie` as its Cookie header. */
const withCookie = (url: string, cookie: string) => new Request(url, { headers: { cookie } })

/** The Cookie header a browser sends back for a session cookie set on `url` with `token`. */
async function sessionHeader(url: string, token: string, others = '') {
  const set = await sessionCookie(new Request(url)).serialize(token)
  return `${others}${set.split(';')[0]}`
}

describe('per-isolate memory of token hashes and session cookies (worker/lib/crypto.ts, app/shared/cookies.server.ts)', () => {
  it('tokenHash answers the SHA-256 of each token, the same when asked again, and holds a bounded number', async () => {
    const tokens = Array.from({ length: MAX_TOKEN_HASHES + 40 }, (_, i) => `tok-${i}-${'x'.repeat(i % 7)}`)
    for (const t of tokens) expect(await tokenHash(t)).toBe(await sha256Hex(t))
    // Asked again (some remembered, some dropped with the rest when the bound was reached): the same answers.
    for (const t of tokens.slice(0, 50)) expect(await tokenHash(t)).toBe(await sha256Hex(t))
    expect(await tokenHash('another')).not.toBe(await tokenHash('another '))
    expect(rememberedTokenHashes()).toBeLessThanOrEqual(MAX_TOKEN_HASHES)
  })

  it('sessionToken answers the token of the exact Cookie header, never one remembered for another header or cookie name', async () => {
    const local = 'http://demo.localhost:8787/user'
    const remote = 'https://demo.example.com/user'
    const a = await sessionHeader(local, 'token-a')
    const b = await sessionHeader(local, 'token-b')
    expect(await sessionToken(withCookie(local, a))).toBe('token-a')
    expect(await sessionToken(withCookie(local, a))).toBe('token-a')
    // The next sign-in's cookie (another user, or the same browser after signing out and in): its own token.
    expect(await sessionToken(withCookie(local, b))).toBe('token-b')
    expect(await sessionToken(withCookie(local, `lng=en-US; ${a}`))).toBe('token-a')
    // The same header on a remote host names no `__Host-` session cookie: no token, though the local read was remembered.
    expect(await sessionToken(withCookie(remote, a))).toBeNull()
    const secure = await sessionHeader(remote, 'token-c', `${a}; `)
    expect(await sessionToken(withCookie(remote, secure))).toBe('token-c')
    expect(await sessionToken(withCookie(local, secure))).toBe('token-a')
    // Signed out (the cookie cleared to an empty value), none, or unreadable.
    expect(await sessionToken(withCookie(local, 'dash_session='))).toBeNull()
    expect(await sessionToken(new Request(local))).toBeNull()
    expect(await sessionToken(withCookie(local, 'dash_session=%%%not-base64'))).toBeNull()
    expect(await sessionToken(withCookie(local, 'dash_session=e30%3D'))).toBeNull()
  })

  it('sessionToken holds a bounded number of headers and answers each one right past the bound', async () => {
    const url = 'http://demo.localhost:8787/'
    const headers = await Promise.all(Array.from({ length: MAX_SESSION_HEADERS + 30 }, (_, i) => sessionHeader(url, `t${i}`)))
    for (const [i, h] of headers.entries()) expect(await sessionToken(withCookie(url, h))).toBe(`t${i}`)
    for (const [i, h] of headers.slice(0, 40).entries()) expect(await sessionToken(withCookie(url, h))).toBe(`t${i}`)
    expect(rememberedSessionHeaders()).toBeLessThanOrEqual(MAX_SESSION_HEADERS)
    // A header past the remembered length is read each time, and right.
    const long = await sessionHeader(url, 'long-one', `${'pad=' + 'y'.repeat(5000)}; `)
    expect(await sessionToken(withCookie(url, long))).toBe('long-one')
    expect(rememberedSessionHeaders()).toBeLessThanOrEqual(MAX_SESSION_HEADERS)
  })
})
