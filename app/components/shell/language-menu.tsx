import { Form, useLocation } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { LOCALES } from '~/i18n/config'

const LABELS: Record<string, string> = { 'pt-BR': 'Português (Brasil)', 'en-US': 'English (US)', 'es-ES': 'Español' }

/** Language menu: posts the choice to /locale, which stores it in the `lng` cookie and reloads the page in it. */
export function LanguageMenu({ locale }: { locale: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  return (
    <Form method="post" action="/locale" reloadDocument className="language-menu">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
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
    </Form>
  )
}
