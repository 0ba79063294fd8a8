import { useTranslation } from 'react-i18next'
import type { RealmConfig } from '#shared/schemas/realm'

/**
 * The realm's logo; `clickable` makes it a button whose clicks the sign-in screen's module counts (the TV-provider tab
 * of issue 3, signin-page.ts).
 */
export function RealmLogo({ config, clickable }: { config: Pick<RealmConfig, 'logo_url' | 'name'>; clickable?: boolean }) {
  if (!config.logo_url) return <strong className="brand-name">{config.name}</strong>
  const img = <img src={config.logo_url} alt={config.name} />
  return clickable ? (
    <button type="button" tabIndex={-1}>
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
