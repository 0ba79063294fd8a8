import { useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LOCALES } from '~/i18n/config'

const LABELS: Record<string, string> = { 'pt-BR': 'Português (Brasil)', 'en-US': 'English (US)', 'es-ES': 'Español' }

/** Language menu: posts the choice to /locale, which stores it in the `lng` cookie and reloads the page in it. */
export function LanguageMenu({ locale }: { locale: string }) {
  const location = useLocation()
  return <LanguageForm locale={locale} here={location.pathname + location.search} />
}

/**
 * The language menu's form for the page at `here` (a plain form: the answer reloads the document). On a page React
 * does not hydrate (the sign-in page) its module submits the choice (signin-page.ts).
 */
export function LanguageForm({ locale, here }: { locale: string; here: string }) {
  const { t } = useTranslation()
  return (
    <form method="post" action="/locale" className="language-menu">
      <input type="hidden" name="redirectTo" value={here} />
      <label>
        <span className="visually-hidden">{t('shell.language')}</span>
        <select className="input" name="locale" defaultValue={locale} aria-label={t('shell.language')} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LABELS[l]}
            </option>
          ))}
        </select>
      </label>
      <noscript>
        <button type="submit" className="btn">
          {t('shell.language')}
        </button>
      </noscript>
    </form>
  )
}
