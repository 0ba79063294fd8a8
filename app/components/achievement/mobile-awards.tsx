import { useTranslation } from 'react-i18next'
import { shownPercent } from '#shared/schemas/achievement'

/** An award's objective with the student's current progress on it and the band the award asks for (fractions). */
export interface AwardProgress {
  objective_id: string
  objective: string
  progress: number
  min: number
  max: number
}

export interface AwardItem {
  id: string
  title: string
  description: string
  media_url: string | null
  goal_title: string
  period_key: string
  granted_at: string
  /** The current progress on the award's objectives. */
  progress: AwardProgress[]
  /** Whether the current progress still lies in the award's bands (the award is kept either way). */
  held: boolean
}

/** "Objective: 50%; Other: 100%": the current progress on an award's objectives. */
export const progressText = (progress: AwardProgress[]) => progress.map((p) => `${p.objective}: ${shownPercent(p.progress)}%`).join('; ')

/**
 * The student's awards on the mobile-web surface (issue 19): newest first, each with the current progress on its
 * objectives; an award whose progress later fell out of its band is kept and says so. Empty and error states.
 */
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
              {a.progress.length ? <p className="hint">{t('achievement.mine.progress', { progress: progressText(a.progress) })}</p> : null}
              {a.held ? null : <p className="hint">{t('achievement.mine.kept')}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
