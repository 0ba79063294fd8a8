import * as v from 'valibot'
import { WebUrl } from './common'
import { Id } from './tms/common'

/**
 * Feed posts of rooms (seed 002 §3 "Feed post": id, room, pinned, message, media_type, media_url, author_name, urls).
 * Shared by the API (`/api/feed/…`), the console's feed panel on the room screen and the mobile-web feed.
 */
export const FEED_MEDIA_TYPES = ['none', 'image', 'video', 'link'] as const
export type FeedMediaType = (typeof FEED_MEDIA_TYPES)[number]
export const FEED_STATUSES = ['published', 'pending'] as const
export type FeedStatus = (typeof FEED_STATUSES)[number]
/** Longest post text (characters). */
export const FEED_MESSAGE_MAX = 2000
/** Posts per page of a feed. */
export const FEED_PAGE_SIZE = 20

const content = {
  message: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(FEED_MESSAGE_MAX, 'validation.max_length')), ''),
  media_type: v.optional(v.picklist(FEED_MEDIA_TYPES, 'validation.picklist'), 'none'),
  media_url: v.optional(WebUrl({ empty: true }), ''),
}
/** A post's content as the console's and the mobile page's compose forms send it (the room comes from the page). */
export const FeedComposeInput = v.pipe(
  v.object(content),
  v.forward(
    v.check((p) => (p.media_type === 'none') === (p.media_url === ''), 'feed.error.media'),
    ['media_url'],
  ),
  v.forward(
    v.check((p) => p.message !== '' || p.media_url !== '', 'feed.error.empty'),
    ['message'],
  ),
)

/** POST /feed/post: a message, or media (an image, a video or a link: an http(s) address), or both, to a room. */
export const FeedPostInput = v.pipe(
  v.object({ room_id: Id, ...content }),
  v.forward(
    v.check((p) => (p.media_type === 'none') === (p.media_url === ''), 'feed.error.media'),
    ['media_url'],
  ),
  v.forward(
    v.check((p) => p.message !== '' || p.media_url !== '', 'feed.error.empty'),
    ['message'],
  ),
)
export type FeedPostInput = v.InferOutput<typeof FeedPostInput>

/** The query of a feed page: a room's (staff), or the caller's rooms (`/feed/mine`); `after` is the answer's `next`. */
export const FeedQuery = v.object({
  room: v.optional(Id),
  status: v.optional(v.picklist(FEED_STATUSES, 'validation.picklist')),
  after: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,14}$/, 'validation.cursor'))),
})

export interface FeedPost {
  id: string
  room_id: string
  room_name: string
  message: string
  media_type: FeedMediaType
  media_url: string
  urls: string[]
  author: string
  author_name: string
  status: FeedStatus
  pinned: boolean
  pinned_at: string | null
  created_at: string
}

/** A feed page: the pinned posts (first page only, at most the realm's feed_max_pinned per room), then the rest newest first. */
export interface FeedPage {
  pinned: FeedPost[]
  items: FeedPost[]
  /** Cursor of the next page (`after`), null on the last. */
  next: string | null
  /** The realm's settings the screens show: moderation and the pinning limit. */
  moderated: boolean
  max_pinned: number
}

/** The web addresses in a post's text (at most 10), answered as `urls`. */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/\bhttps?:\/\/[^\s<>"']+/giu) ?? [])].slice(0, 10)
}
