import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

/**
 * A local stand-in for Cloudflare Realtime's SFU HTTPS API (the Calls API, `/v1/apps/{appId}/…`), speaking its protocol
 * for one app (`appId`, the bearer `secret`): `POST sessions/new` (an optional offer, answered), `POST sessions/{id}/
 * tracks/new` (local tracks with an offer: answered, each track published under its name; remote tracks by session and
 * name: an SFU offer with `requiresImmediateRenegotiation`, an unknown track refused in its own `error`), `PUT …/
 * renegotiate` (the browser's answer), `PUT …/tracks/close` and `GET sessions/{id}`. Errors answer `{ errorCode,
 * errorDescription }` as the API does. Its SDP is a minimal well-formed description, not a media server.
 */
type Track = { mid: string; trackName: string; location: 'local' | 'remote'; sessionId?: string; status: 'active' | 'inactive' }
type Session = { tracks: Track[]; pendingOffer: boolean; nextMid: number }

const sdp = (type: 'offer' | 'answer', mids: string[]) =>
  [
    'v=0',
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    ...mids.flatMap((m) => [`m=video 9 UDP/TLS/RTP/SAVPF 96`, `a=mid:${m}`, type === 'offer' ? 'a=sendonly' : 'a=recvonly']),
  ]
    .join('\r\n')
    .concat('\r\n')

export async function startCallsApi(appId: string, secret: string): Promise<{ url: string; stop(): Promise<void> }> {
  const sessions = new Map<string, Session>()
  let n = 0
  const read = (req: IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      let raw = ''
      req.on('data', (c: Buffer) => (raw += c.toString()))
      req.on('end', () => {
        try {
          resolve(raw ? JSON.parse(raw) : undefined)
        } catch {
          resolve(null)
        }
      })
    })
  const send = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  const fail = (res: ServerResponse, status: number, errorCode: string, errorDescription: string) => send(res, status, { errorCode, errorDescription })

  const server = createServer(async (req, res) => {
    const m = /^\/v1\/apps\/([^/]+)\/sessions\/([^/]+)(\/tracks\/new|\/tracks\/close|\/renegotiate)?$/.exec(req.url ?? '')
    if (!m) return fail(res, 404, 'not_found', 'No such endpoint.')
    if (req.headers.authorization !== `Bearer ${secret}`) return fail(res, 401, 'unauthorized', 'Invalid app secret.')
    if (decodeURIComponent(m[1]) !== appId) return fail(res, 404, 'app_not_found', 'No such app.')
    const body = (await read(req)) as Record<string, unknown> | undefined | null
    if (body === null) return fail(res, 400, 'invalid_json', 'The body is not JSON.')
    const description = body?.sessionDescription as { type?: string; sdp?: string } | undefined
    if (description && (typeof description.sdp !== 'string' || !description.sdp.startsWith('v=0') || !['offer', 'answer'].includes(String(description.type))))
      return fail(res, 400, 'invalid_session_description', 'A session description needs a type and an SDP.')

    if (m[2] === 'new' && !m[3] && req.method === 'POST') {
      const id = `session${++n}`
      sessions.set(id, { tracks: [], pendingOffer: false, nextMid: 0 })
      return send(res, 201, { sessionId: id, ...(description ? { sessionDescription: { type: 'answer', sdp: sdp('answer', []) } } : {}) })
    }
    const session = sessions.get(decodeURIComponent(m[2]))
    if (!session) return fail(res, 404, 'session_not_found', 'No such session.')
    if (!m[3] && req.method === 'GET')
      return send(res, 200, {
        tracks: session.tracks.map(({ mid, trackName, location, sessionId, status }) => ({ mid, trackName, location, sessionId, status })),
      })

    if (m[3] === '/tracks/new' && req.method === 'POST') {
      const tracks = body?.tracks as { location?: string; mid?: string; trackName?: string; sessionId?: string }[] | undefined
      if (!Array.isArray(tracks) || !tracks.length || tracks.length > 64) return fail(res, 400, 'invalid_tracks', 'Between 1 and 64 tracks.')
      if (tracks.every((t) => t.location === 'local')) {
        if (description?.type !== 'offer') return fail(res, 400, 'offer_required', 'Pushing tracks takes an offer.')
        const out = tracks.map((t) => {
          if (!t.mid || !t.trackName)
            return { mid: t.mid, trackName: t.trackName, error: { errorCode: 'invalid_track', errorDescription: 'A local track needs mid and trackName.' } }
          session.tracks.push({ mid: t.mid, trackName: t.trackName, location: 'local', status: 'active' })
          return { mid: t.mid, trackName: t.trackName }
        })
        return send(res, 200, {
          requiresImmediateRenegotiation: false,
          sessionDescription: {
            type: 'answer',
            sdp: sdp(
              'answer',
              tracks.flatMap((t) => (t.mid ? [t.mid] : [])),
            ),
          },
          tracks: out,
        })
      }
      if (tracks.every((t) => t.location === 'remote')) {
        const mids: string[] = []
        const out = tracks.map((t) => {
          const source = t.sessionId ? sessions.get(t.sessionId) : undefined
          const published = source?.tracks.find((x) => x.location === 'local' && x.trackName === t.trackName && x.status === 'active')
          if (!published) return { trackName: t.trackName, sessionId: t.sessionId, error: { errorCode: 'not_found', errorDescription: 'No such track.' } }
          const mid = String(session.nextMid++ + 100)
          mids.push(mid)
          session.tracks.push({ mid, trackName: t.trackName!, sessionId: t.sessionId, location: 'remote', status: 'active' })
          return { mid, trackName: t.trackName, sessionId: t.sessionId }
        })
        session.pendingOffer = mids.length > 0
        return send(res, 200, {
          requiresImmediateRenegotiation: mids.length > 0,
          ...(mids.length ? { sessionDescription: { type: 'offer', sdp: sdp('offer', mids) } } : {}),
          tracks: out,
        })
      }
      return fail(res, 400, 'mixed_tracks', 'Push and pull in separate calls.')
    }
    if (m[3] === '/renegotiate' && req.method === 'PUT') {
      if (description?.type !== 'answer') return fail(res, 400, 'answer_required', 'Renegotiating takes the answer.')
      if (!session.pendingOffer) return fail(res, 400, 'no_pending_offer', 'Nothing to renegotiate.')
      session.pendingOffer = false
      return send(res, 200, {})
    }
    if (m[3] === '/tracks/close' && req.method === 'PUT') {
      const tracks = body?.tracks as { mid?: string }[] | undefined
      if (!Array.isArray(tracks) || !tracks.length) return fail(res, 400, 'invalid_tracks', 'Name the tracks to close.')
      if (!description && body?.force !== true) return fail(res, 400, 'offer_required', 'Closing takes an offer, or force.')
      const out = tracks.map((t) => {
        const track = session.tracks.find((x) => x.mid === t.mid && x.status === 'active')
        if (!track) return { mid: t.mid, error: { errorCode: 'not_found', errorDescription: 'No such track.' } }
        track.status = 'inactive'
        return { mid: t.mid, trackName: track.trackName }
      })
      return send(res, 200, {
        requiresImmediateRenegotiation: false,
        ...(description ? { sessionDescription: { type: 'answer', sdp: sdp('answer', []) } } : {}),
        tracks: out,
      })
    }
    return fail(res, 405, 'method_not_allowed', 'Not allowed.')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/v1`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
