import { RemixBrowser, prepareHydration } from '@remix-run/react'
import i18next from 'i18next'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { DEFAULT_LOCALE, i18nOptions, isLocale } from './i18n/config'
import { GROUPS, catalogueUrl, fetchCatalogues } from './i18n/load'
import { reloadOnce } from './lib/chunk-reload'
import { setupServiceWorker } from './lib/service-worker'

/**
 * Resolves once the whole document is parsed, so the loader data Remix streams into it (single fetch) is complete.
 * This module loads async, so it can run while the document is still streaming.
 */
function documentParsed(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve()
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
}

async function hydrate() {
  const lang = document.documentElement.lang
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE
  // Only the active language, and only the groups this page preloads (root.tsx): no waterfall before hydration.
  const preloaded = [...document.querySelectorAll<HTMLLinkElement>('link[data-catalogue]')].map((l) => l.getAttribute('href')!)
  const first = preloaded.length ? preloaded : GROUPS.map((g) => catalogueUrl(locale, g))
  await i18next.use(initReactI18next).init({
    ...i18nOptions,
    lng: locale,
    resources: { [locale]: { translation: await fetchCatalogues(first) } },
    // Texts that arrive later (the rest of the catalogue) re-render what uses them.
    react: { bindI18nStore: 'added' },
  })
  // The rest of the language's catalogue (e.g. the console's areas on the sign-in page) follows after hydration,
  // before the next page needs it.
  const rest = GROUPS.map((g) => catalogueUrl(locale, g)).filter((url) => !first.includes(url))
  if (rest.length) {
    const later = () =>
      void fetchCatalogues(rest)
        .then((texts) => i18next.addResourceBundle(locale, 'translation', texts, true, false))
        .catch((err) => console.warn('catalogue', err))
    if ('requestIdleCallback' in window) window.requestIdleCallback(later, { timeout: 2000 })
    else setTimeout(later, 200)
  }
  await documentParsed()
  // RemixBrowser suspends on decoding that stream, with no Suspense boundary above it. A click during a suspended
  // hydration makes React hydrate synchronously, and a synchronous render that suspends throws error 345 ("Root did
  // not complete"), caught twice by the browser tests on a busy CI machine. Decoding first (our patch of
  // @remix-run/react exports the step) leaves nothing to suspend on.
  await prepareHydration()
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
