import { RemixBrowser } from '@remix-run/react'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { DEFAULT_LOCALE, isLocale } from './i18n/config'
import { GROUPS, catalogueUrl, fetchCatalogues } from './i18n/load'
import { I18nProvider } from './i18n/react'
import { Translator } from './i18n/translator'
import { reloadOnce } from './lib/chunk-reload'
import { setupServiceWorker } from './lib/service-worker'

async function hydrate() {
  const lang = document.documentElement.lang
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE
  // Only the active language, and only the groups this page preloads (root.tsx): no waterfall before hydration.
  const preloaded = [...document.querySelectorAll<HTMLLinkElement>('link[data-catalogue]')].map((l) => l.getAttribute('href')!)
  const first = preloaded.length ? preloaded : GROUPS.map((g) => catalogueUrl(locale, g))
  // Texts that arrive later (the rest of the catalogue) re-render what uses them (I18nProvider).
  const i18n = new Translator(locale, await fetchCatalogues(first))
  // The rest of the language's catalogue (e.g. the console's areas on the sign-in page) follows after hydration,
  // before the next page needs it.
  const rest = GROUPS.map((g) => catalogueUrl(locale, g)).filter((url) => !first.includes(url))
  if (rest.length) {
    const later = () =>
      void fetchCatalogues(rest)
        .then((texts) => i18n.add(texts))
        .catch((err) => console.warn('catalogue', err))
    if ('requestIdleCallback' in window) window.requestIdleCallback(later, { timeout: 2000 })
    else setTimeout(later, 200)
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nProvider i18n={i18n}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nProvider>,
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
