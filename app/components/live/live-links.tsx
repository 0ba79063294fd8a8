import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'

export interface LiveLink {
  kind: 'quiz' | 'poll'
  id: string
  name: string
  url: string
}

/**
 * The quizzes and the poll running on a channel, each a link to its player page (`/play/quiz|poll/{id}`), as the
 * channel's deep link offers them (issue 14). Nothing when none runs.
 */
export function LiveLinks({ live }: { live: LiveLink[] }) {
  const { t } = useTranslation()
  if (!live.length) return null
  return (
    <nav className="card live-links" aria-label={t('deeplink.live')}>
      <ul>
        {live.map((g) => (
          <li key={`${g.kind}-${g.id}`}>
            <a className="btn btn-primary btn-block" href={g.url} data-choice={`play-${g.kind}`}>
              <Icon name={g.kind} /> {t(g.kind === 'quiz' ? 'deeplink.play_quiz' : 'deeplink.vote_poll', { name: g.name })}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
