import * as v from 'valibot'

/**
 * The SFU behind large conferences (issue 20): sessions and tracks pushed and pulled through an HTTPS API. One
 * adapter, Cloudflare Realtime (formerly Calls: `https://rtc.live.cloudflare.com/v1/apps/{appId}/…`, the app secret as
 * a bearer token). A session is one browser's `RTCPeerConnection` to the SFU; a transmitter pushes its tracks (its
 * offer, answered by the SFU), a watcher pulls others' tracks by session and track name (the SFU offers, the browser
 * answers through `renegotiate`). Only the HTTP side is here; the browser side of the SFU path runs in production
 * only (README "Conference decisions").
 */

export interface SfuDescription {
  type: 'offer' | 'answer'
  sdp: string
}
export interface SfuTrackResult {
  mid?: string
  trackName?: string
  sessionId?: string
  /** Why this track was refused (the others may still have been taken). */
  error?: { errorCode: string; errorDescription?: string }
}
export interface SfuTracksAnswer {
  /** The SFU's answer to a push, or its offer when a pull needs the browser to renegotiate. */
  description: SfuDescription | null
  requiresImmediateRenegotiation: boolean
  tracks: SfuTrackResult[]
}

export interface Sfu {
  /** A new session (one browser peer connection), optionally with the browser's first offer (then answered). */
  newSession(offer?: string): Promise<{ sessionId: string; answer: SfuDescription | null }>
  /** The browser's tracks (`mid` in its offer, the name others pull it by) go up; the SFU answers the offer. */
  push(sessionId: string, offer: string, tracks: { mid: string; trackName: string }[]): Promise<SfuTracksAnswer>
  /** Others' tracks come down into this session; the SFU offers, the browser answers with `renegotiate`. */
  pull(sessionId: string, tracks: { sessionId: string; trackName: string }[]): Promise<SfuTracksAnswer>
  /** The browser's answer to the SFU's offer. */
  renegotiate(sessionId: string, answer: string): Promise<void>
  /** Tracks (by mid) leave the session; `offer`: the browser's offer without them (`force` when none). */
  close(sessionId: string, mids: string[], offer?: string): Promise<SfuTracksAnswer>
  /** The session's tracks as the SFU sees them. */
  tracks(sessionId: string): Promise<SfuTrackResult[]>
}

export class SfuError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const Description = v.object({ type: v.picklist(['offer', 'answer']), sdp: v.string() })
const TrackResult = v.object({
  mid: v.optional(v.string()),
  trackName: v.optional(v.string()),
  sessionId: v.optional(v.string()),
  location: v.optional(v.string()),
  status: v.optional(v.string()),
  error: v.optional(v.object({ errorCode: v.string(), errorDescription: v.optional(v.string()) })),
})
const Failure = v.object({ errorCode: v.optional(v.string()), errorDescription: v.optional(v.string()) })
const NewSession = v.object({ sessionId: v.pipe(v.string(), v.minLength(1)), sessionDescription: v.optional(Description) })
const Tracks = v.object({
  sessionDescription: v.optional(Description),
  requiresImmediateRenegotiation: v.optional(v.boolean(), false),
  tracks: v.optional(v.array(TrackResult), []),
})
const Session = v.object({ tracks: v.optional(v.array(TrackResult), []) })

export interface CloudflareCallsConfig {
  appId: string
  secret: string
  /** `https://rtc.live.cloudflare.com/v1` unless given (the tests' local server). */
  baseUrl?: string
  fetch?: typeof fetch
}

export const CLOUDFLARE_CALLS_URL = 'https://rtc.live.cloudflare.com/v1'

export function cloudflareCalls(config: CloudflareCallsConfig): Sfu {
  const base = `${(config.baseUrl ?? CLOUDFLARE_CALLS_URL).replace(/\/+$/, '')}/apps/${encodeURIComponent(config.appId)}`
  const doFetch = config.fetch ?? fetch
  async function call<S extends v.GenericSchema>(method: 'GET' | 'POST' | 'PUT', path: string, schema: S, body?: unknown): Promise<v.InferOutput<S>> {
    const res = await doFetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${config.secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json: unknown = await res.json().catch(() => null)
    const failure = v.safeParse(Failure, json)
    if (!res.ok || (failure.success && failure.output.errorCode)) {
      const f = failure.success ? failure.output : {}
      throw new SfuError(res.status, f.errorCode ?? `http_${res.status}`, f.errorDescription ?? `The SFU answered ${res.status}.`)
    }
    const parsed = v.safeParse(schema, json)
    if (!parsed.success) throw new SfuError(502, 'bad_answer', `The SFU's answer to ${method} ${path} is not what its API describes.`)
    return parsed.output
  }
  const tracksAnswer = (a: v.InferOutput<typeof Tracks>): SfuTracksAnswer => ({
    description: a.sessionDescription ?? null,
    requiresImmediateRenegotiation: a.requiresImmediateRenegotiation,
    tracks: a.tracks.map(({ mid, trackName, sessionId, error }) => ({ mid, trackName, sessionId, ...(error ? { error } : {}) })),
  })
  const session = (id: string) => `/sessions/${encodeURIComponent(id)}`
  return {
    async newSession(offer) {
      const a = await call('POST', '/sessions/new', NewSession, offer ? { sessionDescription: { type: 'offer', sdp: offer } } : undefined)
      return { sessionId: a.sessionId, answer: a.sessionDescription ?? null }
    },
    async push(sessionId, offer, tracks) {
      const body = { sessionDescription: { type: 'offer', sdp: offer }, tracks: tracks.map((t) => ({ location: 'local', mid: t.mid, trackName: t.trackName })) }
      return tracksAnswer(await call('POST', `${session(sessionId)}/tracks/new`, Tracks, body))
    },
    async pull(sessionId, tracks) {
      const body = { tracks: tracks.map((t) => ({ location: 'remote', sessionId: t.sessionId, trackName: t.trackName })) }
      return tracksAnswer(await call('POST', `${session(sessionId)}/tracks/new`, Tracks, body))
    },
    async renegotiate(sessionId, answer) {
      await call('PUT', `${session(sessionId)}/renegotiate`, v.unknown(), { sessionDescription: { type: 'answer', sdp: answer } })
    },
    async close(sessionId, mids, offer) {
      const body = {
        tracks: mids.map((mid) => ({ mid })),
        ...(offer ? { sessionDescription: { type: 'offer', sdp: offer } } : { force: true }),
      }
      return tracksAnswer(await call('PUT', `${session(sessionId)}/tracks/close`, Tracks, body))
    },
    async tracks(sessionId) {
      return (await call('GET', session(sessionId), Session)).tracks.map(({ mid, trackName, sessionId: s, error }) => ({
        mid,
        trackName,
        sessionId: s,
        ...(error ? { error } : {}),
      }))
    },
  }
}

/** The configured SFU (`CALLS_APP_ID` and the secret `CALLS_APP_SECRET`; `CALLS_API_URL` overrides the address), or null. */
export function sfuFromEnv(env: { CALLS_APP_ID?: string; CALLS_APP_SECRET?: string; CALLS_API_URL?: string }): Sfu | null {
  if (!env.CALLS_APP_ID || !env.CALLS_APP_SECRET) return null
  return cloudflareCalls({ appId: env.CALLS_APP_ID, secret: env.CALLS_APP_SECRET, baseUrl: env.CALLS_API_URL })
}
