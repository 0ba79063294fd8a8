import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FeedPost } from '#shared/schemas/feed'
import { Icon } from '~/components/ui/icon'
import { dateTimeFormat } from '~/lib/format'

/** When a post was made, in the page's language and the realm's time zone. */
function when(iso: string, locale: string, timeZone: string): string {
  return dateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso))
}

/**
 * One feed post (seed 002 §3 "Feed post"): author, room, time, pinned and held marks, the message and its media — an
 * image, a video (the browser's player) or a link. Shared by the console's feed panel and the mobile-web feed;
 * `actions` are the screen's own buttons.
 */
export function FeedPostView({ post, timeZone, showRoom = false, actions }: { post: FeedPost; timeZone: string; showRoom?: boolean; actions?: ReactNode }) {
  const { t, i18n } = useTranslation()
  const titleId = `feed-post-${post.id}`
  return (
    <li className="feed-post" data-pinned={post.pinned} data-status={post.status} aria-labelledby={titleId}>
      <header>
        <strong id={titleId}>{post.author_name || post.author}</strong>
        {showRoom ? <span className="badge">{post.room_name}</span> : null}
        <time className="hint" dateTime={post.created_at}>
          {when(post.created_at, i18n.language, timeZone)}
        </time>
        {post.pinned ? (
          <span className="badge">
            <Icon name="pin" size={12} /> {t('feed.pinned')}
          </span>
        ) : null}
        {post.status === 'pending' ? <span className="badge badge-warning">{t('feed.pending')}</span> : null}
      </header>
      {post.message ? <p>{post.message}</p> : null}
      {post.media_type === 'image' ? <img src={post.media_url} alt={post.message || t('feed.media.image')} loading="lazy" /> : null}
      {post.media_type === 'video' ? (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- a post carries a video address only, no caption file to offer; the post's text labels it
        <video src={post.media_url} controls preload="metadata" aria-label={post.message || t('feed.media.video')}>
          <a href={post.media_url}>{t('feed.open_link')}</a>
        </video>
      ) : null}
      {post.media_type === 'link' ? (
        <a href={post.media_url} target="_blank" rel="noopener noreferrer">
          <Icon name="external" /> {hostOf(post.media_url)}
        </a>
      ) : null}
      {actions ? <div className="feed-actions">{actions}</div> : null}
    </li>
  )
}

function hostOf(url: string): string {
  try {
    const u = new URL(url)
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return url
  }
}
