import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { DEFAULT_LOCALE, i18nOptions, isLocale } from './i18n/config'
import { loadCatalogue } from './i18n/load'
import { reloadOnce } from './lib/chunk-reload'
import { setupServiceWorker } from './lib/service-worker'

async function hydrate() {
  const lang = document.documentElement.lang
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE
  await i18next.use(initReactI18next).init({
    ...i18nOptions,
    lng: locale,
    resources: { [locale]: { translation: await loadCatalogue(locale) } },
  })
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

// A route chunk that fails to preload (a deploy happened under an open page) refreshes the page once.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault()
})

if (import.meta.env.PROD) {
  const version = document.querySelector<HTMLMetaElement>('meta[name="dash-version"]')?.content || 'dev'
  const register = () => void setupServiceWorker(version).catch((err) => console.warn('service worker', err))
  // This module may run after the load event (it is imported at the end of the streamed document).
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register)
}

hydrate()
