import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { withQuery } from '~/lib/mobile-query'
import { dateTimeFormat } from '~/lib/format'

export interface StudentLessonItem {
  id: string
  title: string
  description: string
  language: string
  publish_at: string
  slide_count: number
}

/** The lessons published to the student (mobile/lesson and the lessons tab of mobile/tms), each opening its player. */
export function MobileLessonList({ items, total, query, timeZone }: { items: StudentLessonItem[]; total: number; query: string; timeZone: string }) {
  const { t, i18n } = useTranslation()
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso))
  return (
    <section aria-labelledby="mlesson-title">
      <h2 id="mlesson-title" className="mtms-count">
        {t('mobile.lesson.title')} · {t('mobile.lesson.count', { count: total })}
      </h2>
      {items.length === 0 ? (
        <p className="card hint" role="status">
          {t('mobile.lesson.empty')}
        </p>
      ) : (
        <ul className="mtms-list">
          {items.map((l) => (
            <li key={l.id} className="card mtms-task" aria-labelledby={`mlesson-${l.id}`} data-lesson={l.id}>
              <div className="mtms-task-head">
                <h3 id={`mlesson-${l.id}`}>{l.title}</h3>
                <span className="badge">{t(`lesson.language.${l.language}`)}</span>
              </div>
              {l.description ? <p>{l.description}</p> : null}
              <p className="mtms-meta">
                <span>{t('mobile.lesson.published', { date: when(l.publish_at) })}</span>
                <span>{t('mobile.lesson.slides', { count: l.slide_count })}</span>
              </p>
              <Link className="btn btn-primary" to={withQuery(`/mobile/lesson/${encodeURIComponent(l.id)}/apply`, query)}>
                {t('mobile.lesson.open')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
