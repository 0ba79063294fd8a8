import { Hono } from 'hono'
import { FEED_PAGE_SIZE, FeedPostInput, FeedQuery, linksIn, type FeedPage, type FeedPost } from '#shared/schemas/feed'
import { Id } from '#shared/schemas/tms/common'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import {
  approveStatement,
  deleteFeedPostStatement,
  feedSettings,
  findFeedPost,
  insertFeedPostStatement,
  pinAuditStatement,
  pinStatement,
  postingContext,
  roomFeedPage,
  unpinStatement,
  type FeedCursor,
  type FeedSettings,
} from '../../db/feed'
import { findRoom } from '../../db/rooms'
import type { Auth } from '../../db/sessions'
import { auditChanges } from '../../lib/audit'
import { apiError } from '../../lib/errors'
import { accepts, guarded, guardedJson } from '../../lib/guard'
import { newId, nowIso } from '../../lib/tms'
import { parse, pathParam, readQuery, type AppEnv, type Ctx } from '../context'

/**
 * /feed/post: the feed of rooms (seed 002 §3 "Feed post", issue 13). Staff (`sns_feed_edit`) post to any room of the
 * realm and pin, unpin, approve and delete; `sns_feed_list` reads a room's feed, held posts included. Any signed-in
 * member of a room (students, on the mobile-web feed) posts to it; in a realm with `feed_moderated` their posts wait
 * for a staff member's approval. The realm's word filter masks the text; `feed_max_pinned` caps a room's pinned posts.
 * Nothing works while the realm's `feed_enabled` is off.
 */

export const STAFF = 'sns_feed_edit'

/** The realm's feed settings; 403 `disabled` while its feed is off. */
export function requireFeed(settings: FeedSettings) {
  if (!settings.enabled) throw apiError(403, 'disabled', 'feed.error.disabled', 'realm', 'feed_enabled')
  return settings
}

/** The page cursor (`after`): the last post's place in the feed, as digits. */
export function decodeCursor(after: string | undefined): FeedCursor | null {
  if (!after) return null
  if (/^[1-9][0-9]{0,14}$/.test(after)) return Number(after)
  throw apiError(400, 'invalid', 'validation.cursor', 'after', after)
}

export const strip = ({ seq: _seq, ...post }: FeedPost & { seq?: number }): FeedPost => post

/** A page of `limit + 1` rows: the first `limit`, and the cursor of the next page when there was one more. */
export function paged(rows: (FeedPost & { seq: number })[], limit: number): { items: FeedPost[]; next: string | null } {
  const items = rows.slice(0, limit)
  return { items: items.map(strip), next: rows.length > limit ? String(items[items.length - 1].seq) : null }
}

async function requirePost(c: Ctx, auth: Auth): Promise<FeedPost> {
  const id = parse(Id, pathParam(c, 'id'))
  const post = await findFeedPost(c.env.DB, auth.realm, id)
  if (!post) throw apiError(404, 'not_found', 'feed.error.not_found', 'id', id)
  return strip(post)
}

const audit = (c: Ctx, auth: Auth, action: string, post: FeedPost, after?: Record<string, unknown>) =>
  auditStatement(c.env.DB, {
    realm: auth.realm,
    actor: auth.nick,
    action,
    entity: 'feed_post',
    entityId: post.id,
    before: after ? undefined : { room_id: post.room_id, author: post.author, message: post.message },
    after,
    requestId: c.get('requestId'),
  })

export const post = new Hono<AppEnv>()
  /** GET /feed/post?room={id}&status=published|pending&after=: a room's feed for staff. */
  .get(
    '/',
    accepts<{ query: { room: string; status?: 'published' | 'pending'; after?: string } }>()(
      guarded({ any: ['sns_feed_list', STAFF] }, async (c, auth) => {
        const q = readQuery(c, FeedQuery)
        const settings = requireFeed(await feedSettings(c.env.DB, auth.realm))
        if (!q.room) throw apiError(400, 'required', 'validation.required', 'room', null)
        if (!(await findRoom(c.env.DB, auth.realm, q.room))) throw apiError(404, 'not_found', 'feed.error.room_not_found', 'room', q.room)
        const page = await roomFeedPage(c.env.DB, auth.realm, q.room, q.status ?? 'published', decodeCursor(q.after), FEED_PAGE_SIZE)
        const answer: FeedPage = {
          pinned: page.pinned.map(strip),
          ...paged(page.items, FEED_PAGE_SIZE),
          moderated: settings.moderated,
          max_pinned: settings.max_pinned,
        }
        return c.json(answer)
      }),
    ),
  )
  /**
   * POST /feed/post: a post to a room. Staff (`sns_feed_edit`) may post to any room of the realm, anyone else only to
   * a room they are a member of (403 `not_member`). In a moderated realm a post by someone without `sns_feed_edit` is
   * held (`status: pending`) until approved. The text is stored with the word filter applied; a link the filter
   * refuses (the realm's link rule) cannot be the post's media (422 `word_filter`).
   */
  .post(
    '/',
    guardedJson({}, FeedPostInput, async (c, auth, body) => {
      const db = c.env.DB
      const ctx = await postingContext(db, auth.realm, body.room_id, auth.nick)
      requireFeed(ctx.settings)
      if (!ctx.room) throw apiError(404, 'not_found', 'feed.error.room_not_found', 'room_id', body.room_id)
      const staff = auth.permissions.has(STAFF)
      if (!staff && !ctx.member) throw apiError(403, 'not_member', 'feed.error.not_member', 'room_id', body.room_id)
      if (body.media_url && ctx.filter(body.media_url).matches.length) throw apiError(422, 'word_filter', 'validation.word_filter', 'media_url', body.media_url)
      const message = ctx.filter(body.message).text
      const created: FeedPost = {
        id: newId(),
        room_id: ctx.room.id,
        room_name: ctx.room.name,
        message,
        media_type: body.media_type,
        media_url: body.media_url,
        urls: linksIn(message),
        author: auth.nick,
        author_name: ctx.authorName || auth.nick,
        status: ctx.settings.moderated && !staff ? 'pending' : 'published',
        pinned: false,
        pinned_at: null,
        created_at: nowIso(),
      }
      await runBatch(db, [
        insertFeedPostStatement(db, auth.realm, created),
        audit(c, auth, 'create', created, { room_id: created.room_id, status: created.status }),
      ])
      return c.json(created, 201)
    }),
  )
  /** POST /feed/post/{id}/pin: pins a published post; 422 `pinned_limit` when the room holds feed_max_pinned already. */
  .post(
    '/:id/pin',
    guarded({ all: [STAFF] }, async (c, auth) => {
      const db = c.env.DB
      const settings = requireFeed(await feedSettings(db, auth.realm))
      const found = await requirePost(c, auth)
      if (found.status !== 'published') throw apiError(409, 'not_published', 'feed.error.not_published', 'id', found.id)
      if (found.pinned) return c.json(found)
      const at = nowIso()
      const [result] = await runBatch(db, [
        pinStatement(db, auth.realm, found.id, found.room_id, auth.nick, at),
        pinAuditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          id: found.id,
          at,
          changes: auditChanges({ pinned: false }, { pinned: true }),
          requestId: c.get('requestId'),
        }),
      ])
      // The update is conditional on the room's pinned count: no change means the room is full (and nothing was audited).
      if (!result.meta.changes) throw apiError(422, 'pinned_limit', 'feed.error.pinned_limit', 'id', settings.max_pinned)
      return c.json({ ...found, pinned: true, pinned_at: at })
    }),
  )
  /** POST /feed/post/{id}/unpin. */
  .post(
    '/:id/unpin',
    guarded({ all: [STAFF] }, async (c, auth) => {
      const db = c.env.DB
      requireFeed(await feedSettings(db, auth.realm))
      const found = await requirePost(c, auth)
      if (!found.pinned) return c.json(found)
      await runBatch(db, [unpinStatement(db, auth.realm, found.id), audit(c, auth, 'unpin', found, { pinned: false })])
      return c.json({ ...found, pinned: false, pinned_at: null })
    }),
  )
  /** POST /feed/post/{id}/approve: publishes a held post (409 `not_pending` when it is not held). */
  .post(
    '/:id/approve',
    guarded({ all: [STAFF] }, async (c, auth) => {
      const db = c.env.DB
      requireFeed(await feedSettings(db, auth.realm))
      const found = await requirePost(c, auth)
      if (found.status !== 'pending') throw apiError(409, 'not_pending', 'feed.error.not_pending', 'id', found.id)
      await runBatch(db, [approveStatement(db, auth.realm, found.id, auth.nick, nowIso()), audit(c, auth, 'approve', found, { status: 'published' })])
      return c.json({ ...found, status: 'published' as const })
    }),
  )
  /** DELETE /feed/post/{id}: staff delete any post; an author may delete their own. */
  .delete(
    '/:id',
    guarded({}, async (c, auth) => {
      const db = c.env.DB
      requireFeed(await feedSettings(db, auth.realm))
      const found = await requirePost(c, auth)
      if (!auth.permissions.has(STAFF) && found.author !== auth.nick) throw apiError(403, 'forbidden', `Permission ${STAFF} is required.`, 'permission', STAFF)
      await runBatch(db, [deleteFeedPostStatement(db, auth.realm, found.id), audit(c, auth, 'delete', found)])
      return c.body(null, 204)
    }),
  )
