import type { ReactNode } from 'react'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'

/** What a quiz's or a poll's settings form takes: the channels it may run on, the user's time zone and the last post's answer. */
export interface SettingsFormProps<T> {
  channels: { value: string; label: string }[]
  timeZone: string
  lastResult: unknown
  /** The draft being changed; none for a new quiz or poll. */
  draft?: T
}

/** The page of a quiz's or poll's settings (create, or a draft's edit): its title, the way back, then the form. */
export function SettingsPage({ title, back, children }: { title: string; back: string; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
        <Link to={back} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {children}
    </>
  )
}
