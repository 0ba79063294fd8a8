import { activeOnChannelStatement, type ActiveOnChannel } from './quiz'

/**
 * What the conference deep-link page shows (issue 13): a channel of the realm (name and avatar only: the page is
 * public), the realm's branding and app links, and the channel's running quizzes and poll (issue 14: their player
 * pages), read in one batch. The realm row must be live.
 */
export interface DeeplinkRealm {
  code: string
  name: string
  logo_url: string
  app_scheme: string
  ios_store_url: string
  android_store_url: string
  web_client_url: string
}

const REALM_SQL = 'SELECT code, name, logo_url, app_scheme, ios_store_url, android_store_url, web_client_url FROM realm WHERE code = ? AND deleted_at IS NULL'

/** A console room's deep link (issue 20): the realm's branding and the room's name only (rooms have no avatar). */
export async function deeplinkRoomTarget(db: D1Database, realm: string, roomId: string) {
  const [r, room] = await db.batch([db.prepare(REALM_SQL).bind(realm), db.prepare('SELECT id, name FROM room WHERE realm = ? AND id = ?').bind(realm, roomId)])
  return {
    realm: (r.results[0] as DeeplinkRealm | undefined) ?? null,
    room: (room.results[0] as { id: string; name: string } | undefined) ?? null,
  }
}

export async function deeplinkTarget(db: D1Database, realm: string, channelId: string) {
  const [r, ch, live] = await db.batch([
    db.prepare(REALM_SQL).bind(realm),
    db.prepare('SELECT id, name, avatar_url FROM channel WHERE realm = ? AND id = ?').bind(realm, channelId),
    activeOnChannelStatement(db, realm, channelId),
  ])
  return {
    realm: (r.results[0] as DeeplinkRealm | undefined) ?? null,
    channel: (ch.results[0] as { id: string; name: string; avatar_url: string } | undefined) ?? null,
    live: live.results as ActiveOnChannel[],
  }
}
