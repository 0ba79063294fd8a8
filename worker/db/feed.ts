import type { FeedMediaType, FeedPost, FeedStatus } from '#shared/schemas/feed'
import { wordFilterFrom, wordFilterReads } from './word-filter'

/** Feed posts of rooms (migration 0038). Every statement is scoped by the realm. */

export interface FeedSettings {
  enabled: boolean
  moderated: boolean
  max_pinned: number
}

type PostRow = Omit<FeedPost, 'urls' | 'pinned'> & { urls: string; pinned: number; seq: number }

const SELECT_POST = `SELECT p.id, p.room_id, r.name AS room_name, p.message, p.media_type, p.media_url, p.urls, p.author, p.author_name,
  p.status, p.pinned, p.pinned_at, p.created_at, p.seq FROM feed_post p JOIN room r ON r.id = p.room_id`

/** A stored post as answered; `seq` is kept apart (the page's cursor). */
const decode = ({ seq, ...row }: PostRow): FeedPost & { seq: number } => ({ ...row, seq, urls: JSON.parse(row.urls) as string[], pinned: row.pinned === 1 })

function settingsRead(db: D1Database, realm: string): D1PreparedStatement {
  return db.prepare('SELECT feed_enabled AS enabled, feed_moderated AS moderated, feed_max_pinned AS max_pinned FROM realm WHERE code = ?').bind(realm)
}

function settingsFrom(result: D1Result): FeedSettings {
  const row = result.results[0] as { enabled: number; moderated: number; max_pinned: number } | undefined
  return { enabled: row?.enabled === 1, moderated: row?.moderated === 1, max_pinned: row?.max_pinned ?? 0 }
}

export async function feedSettings(db: D1Database, realm: string): Promise<FeedSettings> {
  return settingsFrom(await settingsRead(db, realm).all())
}

/**
 * What a new post needs, in one batch: the realm's feed settings, the room (of the realm), whether the author is a
 * member of it, the author's name and the word filter.
 */
export async function postingContext(db: D1Database, realm: string, roomId: string, nick: string) {
  const results = await db.batch([
    settingsRead(db, realm),
    db.prepare('SELECT id, name FROM room WHERE realm = ? AND id = ?').bind(realm, roomId),
    db.prepare('SELECT 1 AS yes FROM room_member WHERE realm = ? AND room_id = ? AND nick = ?').bind(realm, roomId, nick),
    db.prepare('SELECT name FROM user WHERE realm = ? AND nick = ?').bind(realm, nick),
    ...wordFilterReads(db, realm),
  ])
  return {
    settings: settingsFrom(results[0]),
    room: (results[1].results[0] as { id: string; name: string } | undefined) ?? null,
    member: results[2].results.length > 0,
    authorName: (results[3].results[0] as { name: string } | undefined)?.name ?? '',
    filter: wordFilterFrom(results.slice(4)),
  }
}

export interface NewFeedPost {
  id: string
  room_id: string
  message: string
  media_type: FeedMediaType
  media_url: string
  urls: string[]
  author: string
  author_name: string
  status: FeedStatus
  created_at: string
}

export function insertFeedPostStatement(db: D1Database, realm: string, p: NewFeedPost): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO feed_post (id, realm, room_id, message, media_type, media_url, urls, author, author_name, status, created_at, seq)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, COALESCE(MAX(seq), 0) + 1 FROM feed_post WHERE realm = ?2`,
    )
    .bind(p.id, realm, p.room_id, p.message, p.media_type, p.media_url, JSON.stringify(p.urls), p.author, p.author_name, p.status, p.created_at)
}

export async function findFeedPost(db: D1Database, realm: string, id: string): Promise<FeedPost | null> {
  const row = await db.prepare(`${SELECT_POST} WHERE p.realm = ? AND p.id = ?`).bind(realm, id).first<PostRow>()
  return row ? decode(row) : null
}

/**
 * Pins a published post unless its room already holds the realm's `feed_max_pinned` pinned posts: one conditional
 * update, so two staff members pinning at once cannot pass the limit. `changes` is 0 when it was refused.
 */
export function pinStatement(db: D1Database, realm: string, id: string, roomId: string, by: string, at: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE feed_post SET pinned = 1, pinned_at = ?, pinned_by = ?
       WHERE realm = ? AND id = ? AND pinned = 0 AND status = 'published'
         AND (SELECT COUNT(*) FROM feed_post WHERE realm = ? AND room_id = ? AND pinned = 1) < (SELECT feed_max_pinned FROM realm WHERE code = ?)`,
    )
    .bind(at, by, realm, id, realm, roomId, realm)
}

export function unpinStatement(db: D1Database, realm: string, id: string): D1PreparedStatement {
  return db.prepare('UPDATE feed_post SET pinned = 0, pinned_at = NULL, pinned_by = NULL WHERE realm = ? AND id = ?').bind(realm, id)
}

export function approveStatement(db: D1Database, realm: string, id: string, by: string, at: string): D1PreparedStatement {
  return db
    .prepare("UPDATE feed_post SET status = 'published', approved_at = ?, approved_by = ? WHERE realm = ? AND id = ? AND status = 'pending'")
    .bind(at, by, realm, id)
}

export function deleteFeedPostStatement(db: D1Database, realm: string, id: string): D1PreparedStatement {
  return db.prepare('DELETE FROM feed_post WHERE realm = ? AND id = ?').bind(realm, id)
}

/** A page position: the `seq` of the last post read (pages go newest first, by `seq`). */
export type FeedCursor = number
/** Before every post. */
const START: FeedCursor = Number.MAX_SAFE_INTEGER

/**
 * One page of a room's feed (staff): its pinned posts on the first page (published only), then the posts of
 * `status`, newest first, pinned ones left out; `limit + 1` rows are read to know whether another page follows.
 */
export async function roomFeedPage(db: D1Database, realm: string, roomId: string, status: FeedStatus, after: FeedCursor | null, limit: number) {
  const c = after ?? START
  const statements = [
    db
      .prepare(
        `${SELECT_POST} WHERE p.realm = ? AND p.room_id = ? AND p.status = ? AND p.pinned = 0 AND p.seq < ?
         ORDER BY p.seq DESC LIMIT ?`,
      )
      .bind(realm, roomId, status, c, limit + 1),
  ]
  if (!after && status === 'published')
    statements.push(db.prepare(`${SELECT_POST} WHERE p.realm = ? AND p.room_id = ? AND p.pinned = 1 ORDER BY p.pinned_at DESC LIMIT 50`).bind(realm, roomId))
  const results = await db.batch(statements)
  return { items: (results[0].results as PostRow[]).map(decode), pinned: ((results[1]?.results ?? []) as PostRow[]).map(decode) }
}

/**
 * One page of the feed of `nick`'s rooms (mobile-web): published posts of the rooms they are a member of, and their
 * own posts still held for approval; pinned ones first on the first page (at most 50 across their rooms).
 */
export async function memberFeedPage(db: D1Database, realm: string, nick: string, after: FeedCursor | null, limit: number) {
  const c = after ?? START
  const rooms = 'p.room_id IN (SELECT room_id FROM room_member WHERE realm = ?1 AND nick = ?2)'
  const statements = [
    db
      .prepare(
        `${SELECT_POST} WHERE p.realm = ?1 AND ${rooms} AND (p.status = 'published' OR p.author = ?2) AND p.pinned = 0 AND p.seq < ?3
         ORDER BY p.seq DESC LIMIT ?4`,
      )
      .bind(realm, nick, c, limit + 1),
  ]
  if (!after)
    statements.push(db.prepare(`${SELECT_POST} WHERE p.realm = ?1 AND ${rooms} AND p.pinned = 1 ORDER BY p.pinned_at DESC LIMIT 50`).bind(realm, nick))
  const results = await db.batch(statements)
  return { items: (results[0].results as PostRow[]).map(decode), pinned: ((results[1]?.results ?? []) as PostRow[]).map(decode) }
}

/** The rooms `nick` is a member of (id and name, by name): where a student may post. */
export async function memberRooms(db: D1Database, realm: string, nick: string): Promise<{ id: string; name: string }[]> {
  const { results } = await db
    .prepare(
      'SELECT r.id, r.name FROM room_member m JOIN room r ON r.id = m.room_id AND r.realm = m.realm WHERE m.realm = ? AND m.nick = ? ORDER BY r.name LIMIT 200',
    )
    .bind(realm, nick)
    .all<{ id: string; name: string }>()
  return results
}

/**
 * The audit record of a pin, written only when the pin took (the post now carries this pin's stamp and author): the
 * pin is a conditional update, so a refused one must leave no record either.
 */
export function pinAuditStatement(
  db: D1Database,
  e: { realm: string; actor: string; id: string; at: string; changes: unknown; requestId: string },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO audit_log (realm, at, actor, actor_realm, action, entity, entity_id, changes, request_id)
       SELECT ?1, ?2, ?3, ?1, 'pin', 'feed_post', ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM feed_post WHERE realm = ?1 AND id = ?4 AND pinned = 1 AND pinned_at = ?2 AND pinned_by = ?3)`,
    )
    .bind(e.realm, e.at, e.actor, e.id, JSON.stringify(e.changes), e.requestId)
}
