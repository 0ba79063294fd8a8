import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { powSolves, solvePow } from '#shared/pow'
import type { CaptchaVerification } from '#shared/schemas/captcha'
import { storeChallenge } from '../../worker/db/captcha'
import { hmacSign, sha256Hex } from '../../worker/lib/crypto'
import { crc32 } from '../../worker/lib/captcha/png'
import { DEMO, ESCOLA, api, expectEnvelope } from './helpers'
import { challenge, newSessionKey, randomIp, solveCaptcha, solveTextQuestion, verify } from './signin-helpers'

// Realms whose captcha is a worded sum (ctext) and a picture (cimage); demo and escola use proof of work.
const TEXT = 'ctext.localhost'
const IMAGE = 'cimage.localhost'
beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare("INSERT INTO realm (code, name, captcha_type) VALUES ('ctext', 'Text captcha', 'text'), ('cimage', 'Image captcha', 'image')"),
    env.DB.prepare("INSERT INTO realm_host (host, realm) VALUES (?, 'ctext'), (?, 'cimage')").bind(TEXT, IMAGE),
  ])
})

const bytesOf = (dataUrl: string) => Uint8Array.from(atob(dataUrl.replace(/^data:image\/png;base64,/, '')), (ch) => ch.charCodeAt(0))

describe('POST /captcha/challenge', () => {
  it('needs the visitor session key and a known realm, without auth', async () => {
    const noKey = await expectEnvelope(await api(DEMO, 'captcha/challenge', { method: 'POST', json: { realm: 'demo' } }), 400, 'required')
    expect(noKey.errors[0].field).toBe('x-session-key')
    const headers = { 'x-session-key': newSessionKey() }
    await expectEnvelope(await api(DEMO, 'captcha/challenge', { method: 'POST', json: { realm: 'demo', type: 'audio' }, headers }), 400, 'picklist')
    await expectEnvelope(await api('localhost', 'captcha/challenge', { method: 'POST', json: { realm: 'nowhere' }, headers }), 404, 'not_found')
    await expectEnvelope(await api(DEMO, 'captcha/challenge', { method: 'POST', json: { realm: 'escola' }, headers }), 400, 'realm')
  })

  it("answers the realm's kind by default: proof of work with the realm's difficulty", async () => {
    const c = await challenge(ESCOLA, 'escola', newSessionKey())
    expect(c.type).toBe('pow')
    expect(c.data).toEqual({ difficulty: 16 })
    expect(c.challengeId).toMatch(/^p1\.escola\.\d+\.16\.[\w-]+\.[\w-]+$/)
    expect(Date.parse(c.expires_at)).toBeGreaterThan(Date.now())
  })
})

describe('proof of work', () => {
  it('verifies a solution found as the browser finds it, once', async () => {
    const key = newSessionKey()
    const c = await challenge(ESCOLA, 'escola', key, 'pow')
    const nonce = await solvePow(c.challengeId, 16)
    expect(nonce).not.toBeNull()
    expect(await powSolves(c.challengeId, nonce!, 16)).toBe(true)
    const res = await verify(ESCOLA, 'escola', key, 'pow', { challengeId: c.challengeId, solution: nonce })
    expect(res.status).toBe(200)
    const body = (await res.json()) as CaptchaVerification
    expect(body.valid).toBe(true)
    expect(body.token.length).toBeGreaterThanOrEqual(43)
    const stored = await env.DB.prepare('SELECT COUNT(*) AS n FROM captcha_token WHERE token_hash = ?')
      .bind(await sha256Hex(body.token))
      .first<{ n: number }>()
    expect(stored?.n).toBe(1)
    await expectEnvelope(await verify(ESCOLA, 'escola', key, 'pow', { challengeId: c.challengeId, solution: nonce }), 400, 'challenge_used')
  })

  it('answers verification_failed with valid false for a wrong solution, and spends the challenge', async () => {
    const key = newSessionKey()
    const c = await challenge(DEMO, 'demo', key, 'pow')
    let wrong = 0
    while (await powSolves(c.challengeId, String(wrong), 16)) wrong++
    const res = await verify(DEMO, 'demo', key, 'pow', { challengeId: c.challengeId, solution: String(wrong) })
    const body = (await res.clone().json()) as { valid: boolean }
    expect(body.valid).toBe(false)
    const envelope = await expectEnvelope(res, 400, 'verification_failed')
    expect(envelope.errors[0].message).toBe('Wrong answer')
    const nonce = await solvePow(c.challengeId, 16)
    await expectEnvelope(await verify(DEMO, 'demo', key, 'pow', { challengeId: c.challengeId, solution: nonce }), 400, 'challenge_used')
  })

  it('refuses a challenge whose signed fields were changed, or presented by another visitor', async () => {
    const key = newSessionKey()
    const c = await challenge(DEMO, 'demo', key, 'pow')
    const easier = c.challengeId.replace('.16.', '.1.')
    await expectEnvelope(await verify(DEMO, 'demo', key, 'pow', { challengeId: easier, solution: await solvePow(easier, 1) }), 400, 'challenge_not_found')
    const nonce = await solvePow(c.challengeId, 16)
    await expectEnvelope(await verify(DEMO, 'demo', newSessionKey(), 'pow', { challengeId: c.challengeId, solution: nonce }), 400, 'challenge_not_found')
    expect((await verify(DEMO, 'demo', key, 'pow', { challengeId: c.challengeId, solution: nonce })).status).toBe(200)
  })

  it('refuses an expired challenge even when correctly signed and solved', async () => {
    await challenge(DEMO, 'demo', newSessionKey(), 'pow') // makes sure the signing key exists
    const { secret } = (await env.DB.prepare("SELECT secret FROM signing_key WHERE purpose = 'captcha-pow'").first<{ secret: string }>())!
    const key = newSessionKey()
    const body = `p1.demo.${Date.now() - 1000}.8.expiredsalt`
    const id = `${body}.${await hmacSign(secret, `${body}.${await sha256Hex(key)}`)}`
    await expectEnvelope(await verify(DEMO, 'demo', key, 'pow', { challengeId: id, solution: await solvePow(id, 8) }), 400, 'challenge_expired')
  })
})

describe('text challenge', () => {
  it('asks a worded question in the requested language and accepts its answer once', async () => {
    const key = newSessionKey()
    const c = await challenge(TEXT, 'ctext', key, 'text')
    expect(c.type).toBe('text')
    expect(c.data.question).toMatch(/^Quanto é \S+ (mais|menos) \S+\?$/)
    expect(c.data.question).not.toMatch(/\d/)
    const answer = solveTextQuestion(c.data.question!)
    const res = await verify(TEXT, 'ctext', key, 'text', { challengeId: c.challengeId, answer: ` ${answer} ` })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as CaptchaVerification).valid).toBe(true)
    await expectEnvelope(await verify(TEXT, 'ctext', key, 'text', { challengeId: c.challengeId, answer }), 400, 'challenge_used')
    const en = await challenge(TEXT, 'ctext', key, 'text', 'en-US')
    expect(en.data.question).toMatch(/^What is \S+ (plus|minus) \S+\?$/)
  })

  it('answers verification_failed for a wrong answer and spends the challenge', async () => {
    const key = newSessionKey()
    const c = await challenge(TEXT, 'ctext', key, 'text')
    const right = solveTextQuestion(c.data.question!)
    await expectEnvelope(
      await verify(TEXT, 'ctext', key, 'text', { challengeId: c.challengeId, answer: String(Number(right) + 1) }),
      400,
      'verification_failed',
    )
    await expectEnvelope(await verify(TEXT, 'ctext', key, 'text', { challengeId: c.challengeId, answer: right }), 400, 'challenge_used')
  })

  it('refuses an expired challenge and one that does not exist', async () => {
    const key = newSessionKey()
    const c = await challenge(TEXT, 'ctext', key, 'text')
    await env.DB.prepare("UPDATE captcha_challenge SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id_hash = ?")
      .bind(await sha256Hex(c.challengeId))
      .run()
    await expectEnvelope(
      await verify(TEXT, 'ctext', key, 'text', { challengeId: c.challengeId, answer: solveTextQuestion(c.data.question!) }),
      400,
      'challenge_expired',
    )
    await expectEnvelope(await verify(TEXT, 'ctext', key, 'text', { challengeId: 'no-such-challenge', answer: '3' }), 400, 'challenge_not_found')
  })
})

describe('image challenge', () => {
  it('draws a PNG picture rendered in the Worker, with nothing but pixels in the payload', async () => {
    const c = await challenge(IMAGE, 'cimage', newSessionKey(), 'image')
    expect(Object.keys(c.data).sort()).toEqual(['height', 'image', 'length', 'width'])
    expect(c.data.image).toMatch(/^data:image\/png;base64,/)
    const png = bytesOf(c.data.image!)
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    // Every chunk's CRC is right, and the picture is 220×80 8-bit grayscale.
    const view = new DataView(png.buffer)
    const chunks: { type: string; data: Uint8Array<ArrayBuffer> }[] = []
    for (let at = 8; at < png.length;) {
      const length = view.getUint32(at)
      const type = String.fromCharCode(...png.slice(at + 4, at + 8))
      expect(view.getUint32(at + 8 + length), type).toBe(crc32(png, at + 4, at + 8 + length))
      chunks.push({ type, data: png.slice(at + 8, at + 8 + length) })
      at += 12 + length
    }
    expect(chunks.map((ch) => ch.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    const ihdr = new DataView(chunks[0].data.buffer)
    expect([ihdr.getUint32(0), ihdr.getUint32(4), chunks[0].data[8], chunks[0].data[9]]).toEqual([220, 80, 8, 0])
    const raw = new Uint8Array(await new Response(new Blob([chunks[1].data]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer())
    expect(raw.length).toBe(221 * 80)
    const pixels = [...raw].filter((_, i) => i % 221 !== 0)
    const dark = pixels.filter((p) => p < 100).length
    // Glyphs and noise lines ink a real share of the picture, the background most of it.
    expect(dark).toBeGreaterThan(pixels.length * 0.05)
    expect(dark).toBeLessThan(pixels.length * 0.6)
  })

  it('draws a different picture each time', async () => {
    const key = newSessionKey()
    const [a, b] = [await challenge(IMAGE, 'cimage', key, 'image'), await challenge(IMAGE, 'cimage', key, 'image')]
    expect(a.data.image).not.toBe(b.data.image)
    expect(a.challengeId).not.toBe(b.challengeId)
  })

  it('accepts the drawn text case- and space-insensitively, once; refuses a wrong one', async () => {
    const key = newSessionKey()
    const id = await storeChallenge(env.DB, 'cimage', 'image', key, 'AB3CD', Date.now() + 60_000)
    const res = await verify(IMAGE, 'cimage', key, 'image', { challengeId: id, answer: ' ab3 cd ' })
    expect(res.status, await res.clone().text()).toBe(200)
    await expectEnvelope(await verify(IMAGE, 'cimage', key, 'image', { challengeId: id, answer: 'AB3CD' }), 400, 'challenge_used')
    const drawn = await challenge(IMAGE, 'cimage', key, 'image')
    await expectEnvelope(await verify(IMAGE, 'cimage', key, 'image', { challengeId: drawn.challengeId, answer: 'XXXXX' }), 400, 'verification_failed')
    // Presented as another kind, it is refused before it is even looked up.
    await expectEnvelope(await verify(IMAGE, 'cimage', key, 'text', { challengeId: drawn.challengeId, answer: 'XXXXX' }), 400, 'captcha_type')
  })

  it('refuses an expired image challenge', async () => {
    const key = newSessionKey()
    const id = await storeChallenge(env.DB, 'cimage', 'image', key, 'ZZ9ZZ', Date.now() - 1)
    await expectEnvelope(await verify(IMAGE, 'cimage', key, 'image', { challengeId: id, answer: 'ZZ9ZZ' }), 400, 'challenge_expired')
  })
})

describe('the realm decides the captcha kind', () => {
  it('answers the realm’s kind whatever kind the client asks for', async () => {
    for (const asked of ['text', 'image', 'pow', undefined]) {
      const c = await challenge(DEMO, 'demo', newSessionKey(), asked)
      expect(c.type).toBe('pow')
      expect(c.challengeId).toMatch(/^p1\.demo\./)
      expect(c.data).toEqual({ difficulty: 16 })
    }
    expect((await challenge(TEXT, 'ctext', newSessionKey(), 'pow')).type).toBe('text')
    expect((await challenge(IMAGE, 'cimage', newSessionKey(), 'text')).type).toBe('image')
  })

  it('verifies only a challenge of the realm’s kind', async () => {
    const key = newSessionKey()
    // A text challenge stored for demo (as one was handed out before the fix) cannot earn a token there.
    const id = await storeChallenge(env.DB, 'demo', 'text', key, '7', Date.now() + 60_000)
    const body = await expectEnvelope(await verify(DEMO, 'demo', key, 'text', { challengeId: id, answer: '7' }), 400, 'captcha_type')
    expect(body.errors[0]).toMatchObject({ field: 'type', value: 'pow' })
    const pow = await challenge(TEXT, 'ctext', key, 'text')
    await expectEnvelope(await verify(TEXT, 'ctext', key, 'pow', { challengeId: pow.challengeId, solution: '1' }), 400, 'captcha_type')
  })

  it('signs in only with a token earned by the realm’s kind of challenge', async () => {
    // escola demands a captcha at every sign-in and is set to proof of work. A token earned while it asked for text
    // (the realm changed its kind since) does not sign in; a proof-of-work token does.
    await env.DB.prepare("UPDATE realm SET captcha_type = 'text' WHERE code = 'escola'").run()
    const key = newSessionKey()
    let textToken: string
    try {
      const c = await challenge(ESCOLA, 'escola', key, 'text')
      expect(c.type).toBe('text')
      const res = await verify(ESCOLA, 'escola', key, 'text', { challengeId: c.challengeId, answer: solveTextQuestion(c.data.question!) })
      expect(res.status).toBe(200)
      textToken = ((await res.json()) as CaptchaVerification).token
    } finally {
      await env.DB.prepare("UPDATE realm SET captcha_type = 'pow' WHERE code = 'escola'").run()
    }
    const signIn = (token: string, sessionKey: string) =>
      api(ESCOLA, 'device', {
        method: 'POST',
        json: { realm: 'escola', nick: 'root', password: 'demo1234' },
        headers: { 'x-captcha-token': token, 'x-session-key': sessionKey, 'cf-connecting-ip': randomIp() },
      })
    await expectEnvelope(await signIn(textToken, key), 400, 'captcha_invalid')
    const powKey = newSessionKey()
    expect((await signIn(await solveCaptcha(ESCOLA, 'escola', powKey), powKey)).status).toBe(200)
  })
})
