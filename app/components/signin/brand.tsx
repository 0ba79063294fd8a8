import { useTranslation } from '~/i18n/react'
import type { RealmConfig } from '#shared/schemas/realm'

/** The realm's logo; `onClick` lets the sign-in screen count clicks (the TV-provider tab of issue 3). */
export function RealmLogo({ config, onClick }: { config: Pick<RealmConfig, 'logo_url' | 'name'>; onClick?: () => void }) {
  if (!config.logo_url) return <strong className="brand-name">{config.name}</strong>
  const img = <img src={config.logo_url} alt={config.name} />
  return onClick ? (
    <button type="button" onClick={onClick} tabIndex={-1}>
      {img}
    </button>
  ) : (
    img
  )
}

/** The realm's terms and privacy links, shown on entry screens and in the console footer. */
export function LegalLinks({ config }: { config: Pick<RealmConfig, 'terms' | 'privacy'> }) {
  const { t } = useTranslation()
  return (
    <>
      {config.terms ? (
        <a href={config.terms} target="_blank" rel="noreferrer">
          {t('login.terms')}
        </a>
      ) : null}
      {config.privacy ? (
        <a href={config.privacy} target="_blank" rel="noreferrer">
          {t('login.privacy')}
        </a>
      ) : null}
    </>
  )
}
