import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** A screen's heading: its title, the screen's own buttons (`children`, before it) and the way back to `back`. */
export function PageHeader({ title, back, children }: { title: string; back: string; children?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children ? <>{children} </> : null}
      <Link to={back} className="btn">
        {t('tms.form.back')}
      </Link>
    </div>
  )
}
