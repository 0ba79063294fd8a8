import { Hono } from 'hono'
import { FEED_PAGE_SIZE, FeedQuery, type FeedPage } from '#shared/schemas/feed'
import { feedSettings, memberFeedPage, memberRooms } from '../../db/feed'
import { accepts, guarded } from '../../lib/guard'
import { readQuery, type AppEnv } from '../context'
import { decodeCursor, paged, requireFeed, strip } from './post'

/**
 * GET /feed/mine?after=: the feed of the caller's rooms (the mobile-web feed, seed 002 §2 `mobile/feed`), for any
 * signed-in user: published posts of the rooms they are a member of and their own posts still held for approval,
 * pinned ones first; with the rooms they may post to.
 */
export const mine = new Hono<AppEnv>().get(
  '/',
  accepts<{ query: { after?: string } }>()(
    guarded({}, async (c, auth) => {
      const q = readQuery(c, FeedQuery)
      const db = c.env.DB
      const settings = requireFeed(await feedSettings(db, auth.realm))
      const after = decodeCursor(q.after)
      const [page, rooms] = await Promise.all([
        memberFeedPage(db, auth.realm, auth.nick, after, FEED_PAGE_SIZE),
        after ? [] : memberRooms(db, auth.realm, auth.nick),
      ])
      const answer: FeedPage & { rooms: { id: string; name: string }[] } = {
        pinned: page.pinned.map(strip),
        ...paged(page.items, FEED_PAGE_SIZE),
        moderated: settings.moderated,
        max_pinned: settings.max_pinned,
        rooms,
      }
      return c.json(answer)
    }),
  ),
)
