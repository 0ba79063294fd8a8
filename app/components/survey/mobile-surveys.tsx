import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { withQuery } from '~/lib/mobile-query'
import { dateTimeFormat } from '~/lib/format'

export interface StudentSurveyItem {
  id: string
  title: string
  description: string
  expire_at: string | null
  question_count: number
  is_required: boolean
  answered_at: string | null
}

/** The surveys published to the student (the surveys tab of mobile/tms, issue 19): open ones first, each opening its form. */
export function MobileSurveyList({ items, total, query, timeZone }: { items: StudentSurveyItem[]; total: number; query: string; timeZone: string }) {
  const { t, i18n } = useTranslation()
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso))
  return (
    <section aria-labelledby="msurvey-title">
      <h2 id="msurvey-title" className="mtms-count">
        {t('mobile.survey.title')} · {t('mobile.survey.count', { count: total })}
      </h2>
      {items.length === 0 ? (
        <p className="card hint" role="status">
          {t('mobile.survey.empty')}
        </p>
      ) : (
        <ul className="mtms-list">
          {items.map((s) => (
            <li key={s.id} className="card mtms-task" aria-labelledby={`msurvey-${s.id}`} data-survey={s.id}>
              <div className="mtms-task-head">
                <h3 id={`msurvey-${s.id}`}>{s.title}</h3>
                {s.answered_at ? (
                  <span className="badge">{t('mobile.survey.answered')}</span>
                ) : s.is_required ? (
                  <span className="badge">{t('mobile.survey.required')}</span>
                ) : null}
              </div>
              {s.description ? <p>{s.description}</p> : null}
              <p className="mtms-meta">
                <span>{t('survey.model.questions', { count: s.question_count })}</span>
                {s.expire_at ? <span>{t('mobile.survey.until', { date: when(s.expire_at) })}</span> : null}
              </p>
              <Link className={s.answered_at ? 'btn' : 'btn btn-primary'} to={withQuery(`/mobile/survey/${encodeURIComponent(s.id)}/apply`, query)}>
                {t(s.answered_at ? 'mobile.survey.view' : 'mobile.survey.answer')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
