/**
 * The sign-in page's only script (root.tsx links it where the route's `handle.hydrate` turns hydration off): React is
 * not loaded there, so the screen's behaviour comes from signin-page.ts. Marks the document the way hydration does,
 * for the browser tests that wait for the page's script before interacting, and registers the service worker as
 * entry.client.tsx does on every hydrated page (so the console's first page is already under it, for offline starts).
 */
import { setupServiceWorker } from '~/lib/service-worker'
import { enhanceSignin } from './signin-page'

for (const root of document.querySelectorAll<HTMLElement>('[data-signin]')) enhanceSignin(root)
document.documentElement.dataset.hydrated = 'true'

if (import.meta.env.PROD) {
  const version = document.querySelector<HTMLMetaElement>('meta[name="dash-version"]')?.content || 'dev'
  const register = () => void setupServiceWorker(version).catch((err) => console.warn('service worker', err))
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register)
}
