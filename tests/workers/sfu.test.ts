import { describe, expect, inject, it } from 'vitest'
import { cloudflareCalls, SfuError, sfuFromEnv } from '../../worker/lib/sfu'

/**
 * The SFU adapter (issue 20, large rooms) against a local server speaking Cloudflare Realtime's SFU API
 * (tests/support/calls-api.ts): a transmitter's session pushes its tracks and gets the SFU's answer, a watcher's session
 * pulls them by session and name and answers the SFU's offer, an unknown track is refused in its own entry, tracks
 * close, and the API's errors (a wrong secret, an unknown session) become SfuError with the API's code.
 */

const OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:0',
  'a=sendonly',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'a=mid:1',
  'a=sendonly',
  '',
].join('\r\n')
const ANSWER = OFFER.replaceAll('a=sendonly', 'a=recvonly')
const sfu = () => cloudflareCalls({ appId: 'test-calls-app', secret: 'test-calls-secret', baseUrl: inject('callsApi') })

describe('SFU adapter (Cloudflare Realtime)', () => {
  it('a transmitter pushes its tracks, a watcher pulls them and answers the SFU; closed tracks end', async () => {
    const s = sfu()
    const tx = await s.newSession(OFFER)
    expect(tx.sessionId).toMatch(/\S/)
    expect(tx.answer?.type).toBe('answer')

    const pushed = await s.push(tx.sessionId, OFFER, [
      { mid: '0', trackName: 'ana-audio' },
      { mid: '1', trackName: 'ana-video' },
    ])
    expect(pushed.description?.type).toBe('answer')
    expect(pushed.description?.sdp.startsWith('v=0')).toBe(true)
    expect(pushed.requiresImmediateRenegotiation).toBe(false)
    expect(pushed.tracks).toEqual([
      { mid: '0', trackName: 'ana-audio' },
      { mid: '1', trackName: 'ana-video' },
    ])

    const watcher = await s.newSession()
    expect(watcher.answer).toBeNull()
    const pulled = await s.pull(watcher.sessionId, [
      { sessionId: tx.sessionId, trackName: 'ana-audio' },
      { sessionId: tx.sessionId, trackName: 'ana-video' },
      { sessionId: tx.sessionId, trackName: 'nobody' },
    ])
    expect(pulled.requiresImmediateRenegotiation).toBe(true)
    expect(pulled.description?.type).toBe('offer')
    expect(pulled.tracks.map((t) => [t.trackName, t.error?.errorCode ?? 'ok'])).toEqual([
      ['ana-audio', 'ok'],
      ['ana-video', 'ok'],
      ['nobody', 'not_found'],
    ])
    await s.renegotiate(watcher.sessionId, ANSWER)
    // Nothing left to answer: the API refuses a second answer, with its own code.
    await expect(s.renegotiate(watcher.sessionId, ANSWER)).rejects.toMatchObject({ code: 'no_pending_offer', status: 400 })

    const closed = await s.close(tx.sessionId, ['1'])
    expect(closed.tracks).toEqual([{ mid: '1', trackName: 'ana-video' }])
    expect((await s.tracks(tx.sessionId)).map((t) => t.trackName)).toEqual(['ana-audio', 'ana-video'])
    // A closed track can no longer be pulled.
    const late = await s.pull(watcher.sessionId, [{ sessionId: tx.sessionId, trackName: 'ana-video' }])
    expect(late.tracks[0].error?.errorCode).toBe('not_found')
    expect(late.description).toBeNull()
  })

  it("the API's refusals become SfuError with its code; an unconfigured SFU is none", async () => {
    const wrong = cloudflareCalls({ appId: 'test-calls-app', secret: 'wrong', baseUrl: inject('callsApi') })
    const err = await wrong.newSession().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SfuError)
    expect(err).toMatchObject({ status: 401, code: 'unauthorized' })
    await expect(sfu().push('no-such-session', OFFER, [{ mid: '0', trackName: 'x' }])).rejects.toMatchObject({ status: 404, code: 'session_not_found' })
    await expect(sfu().tracks('no-such-session')).rejects.toBeInstanceOf(SfuError)

    expect(sfuFromEnv({})).toBeNull()
    expect(sfuFromEnv({ CALLS_APP_ID: 'x' })).toBeNull()
    const configured = sfuFromEnv({ CALLS_APP_ID: 'test-calls-app', CALLS_APP_SECRET: 'test-calls-secret', CALLS_API_URL: inject('callsApi') })
    expect((await configured!.newSession()).sessionId).toMatch(/\S/)
  })
})
