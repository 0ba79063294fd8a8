import { useTranslation } from '~/i18n/react'
import { isMediaUrl } from '#shared/schemas/tms/question-rules'
import { parseVideoUrl, videoEmbedUrl } from '~/lib/video'

/**
 * The media attached to a question or an option, as students see it. Only http(s) and this console's files are
 * shown; videos play from the video site's privacy-enhanced embed, starting and ending where the link said.
 */
export function MediaView({ type, url }: { type: string; url: string }) {
  const { t } = useTranslation()
  const u = url.trim()
  if (!type || type === 'text' || !u || !isMediaUrl(u)) return null
  if (type === 'video') {
    const video = parseVideoUrl(u)
    if (!video) return null
    return (
      <div className="media media-video">
        <iframe
          src={videoEmbedUrl(video)}
          title={t('tms.media.video')}
          loading="lazy"
          sandbox="allow-scripts allow-same-origin allow-presentation"
          allow="encrypted-media; picture-in-picture"
          allowFullScreen
        />
      </div>
    )
  }
  // isMediaUrl admits only http(s) and /files/ addresses: an image of either runs nothing.
  if (type === 'img') return <img className="media media-img" src={u} alt={t('tms.media.image')} loading="lazy" />
  // eslint-disable-next-line jsx-a11y/media-has-caption -- authored audio has no caption file: the question model has no field for one
  if (type === 'audio') return <audio className="media" controls src={u} preload="none" aria-label={t('tms.media.audio')} />
  return (
    <a className="media media-link" href={u} target="_blank" rel="noopener noreferrer nofollow">
      {t(type === 'pdf' ? 'tms.media.open_pdf' : 'tms.media.open_link')}
    </a>
  )
}
