import { useTranslation } from 'react-i18next'

export interface AwardItem {
  id: string
  title: string
  description: string
  media_url: string | null
  goal_title: string
  period_key: string
  granted_at: string
}

/** The student's awards on the mobile-web surface (issue 19): newest first; empty and error states. */
export function MobileAwards({ items }: { items: AwardItem[] | null }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="mtms-awards-title" className="mobile-awards">
      <h2 id="mtms-awards-title">{t('achievement.mine.title')}</h2>
      {items === null ? (
        <p role="alert">{t('achievement.mine.error')}</p>
      ) : items.length === 0 ? (
        <p className="hint">{t('achievement.mine.empty')}</p>
      ) : (
        <ul className="plain-list">
          {items.map((a) => (
            <li key={`${a.id}-${a.period_key}`} className="card">
              {a.media_url ? <img src={a.media_url} alt="" width={48} height={48} /> : null}
              <strong>{a.title}</strong>
              <p>{a.description}</p>
              <p className="hint">{t('achievement.mine.of_goal', { goal: a.goal_title })}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
