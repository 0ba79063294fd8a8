import { realmApi, url } from './browser'

/** Sessions for browser tests (issue 15), made through the product's APIs. */

type Realm = Record<string, unknown>

/** PUT on the realm API as the platform operator (storage credentials are infrastructure settings). */
export async function putRealm(body: Realm) {
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const signin = await fetch(url('localhost', '/api/device'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ realm: 'demo', nick: 'platform', password: 'demo1234' }),
  })
  const { auth_token } = (await signin.json()) as { auth_token: string }
  const res = await fetch(url('localhost', '/api/mas/realm/demo'), {
    method: 'PUT',
    headers: { ...headers, 'x-api-key': auth_token },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`PUT mas/realm/demo: ${res.status} ${await res.text()}`)
}

/**
 * Two recordings started through the recording API (issue 20) in two recorded rooms of their own: each makes a
 * session (status started, no video yet). The realm's room recording and storage are switched on for the start and
 * put back as they were (but for the storage key: an empty secret keeps the stored one); the recordings are aborted
 * (their sessions stay).
 */
export async function recordedSessions(names: string[]) {
  const root = await realmApi('demo', 'root')
  const before = await root<Realm>('GET', 'mas/realm/demo')
  await putRealm({
    storage_bucket: before.storage_bucket || 'demo-recordings',
    storage_region: before.storage_region || 'auto',
    storage_credential_id: before.storage_credential_id || 'demo-id',
    storage_credential_key: 'demo-key',
    csm_room_enable: true,
  })
  const rooms: { id: string; name: string }[] = []
  try {
    for (const name of names) {
      const room = await root<{ id: string; name: string }>('POST', 'room/room', { name, type: 'meeting', recording: true })
      const rec = await root<{ id: string }>('POST', 'csm/recording', { target: 'room', id: room.id, mime: 'video/webm;codecs=h264,opus' })
      await root('POST', `csm/recording/${rec.id}/abort`)
      rooms.push(room)
    }
  } finally {
    await putRealm({
      storage_bucket: before.storage_bucket ?? '',
      storage_region: before.storage_region ?? '',
      storage_credential_id: before.storage_credential_id ?? '',
      csm_room_enable: before.csm_room_enable,
    })
  }
  return rooms
}

/**
 * A session made by hand (session/create's API, issue 15) in a room of its own, with a small valid MP4 (H.264 + AAC,
 * 10 s) uploaded in one part: status pending, video processed.
 */
export async function sessionWithVideo(title: string, mp4: Uint8Array) {
  const root = await realmApi('demo', 'root')
  const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `${title} (sala)`, type: 'meeting' })
  const up = await root<{ id: string; session_id: string }>('POST', 'csm/recording/upload', {
    title,
    target: 'room',
    target_id: room.id,
    reference_date: new Date().toISOString().slice(0, 10),
    mime: 'video/mp4',
    size: mp4.byteLength,
  })
  await root('PUT', `csm/recording/${up.id}/part/1`, mp4)
  await root('POST', `csm/recording/${up.id}/complete`)
  return { id: up.session_id, room }
}
