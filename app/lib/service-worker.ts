/** URLs on which the service worker must not run: it is unregistered and its caches cleared (seed 000 §4). */
export const SW_BLACKLIST = ['/deeplink', 'nosw=1']

export function isSwBlacklisted(location: Location): boolean {
  const url = location.pathname + location.search
  return SW_BLACKLIST.some((fragment) => url.includes(fragment))
}

/** Event the page listens to: a new version of the app is installed and waiting. */
export const SW_UPDATE_EVENT = 'console:sw-update'

/**
 * Registers the service worker in production builds, announces updates (a new worker waiting) with SW_UPDATE_EVENT,
 * and on blacklisted URLs unregisters every worker and clears every cache instead.
 */
export async function setupServiceWorker(version: string): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  if (isSwBlacklisted(window.location)) {
    const registrations = await navigator.serviceWorker.getRegistrations()
    await Promise.all(registrations.map((r) => r.unregister()))
    if ('caches' in window) await Promise.all((await caches.keys()).map((k) => caches.delete(k)))
    return
  }
  const registration = await navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`)
  const announce = (worker: ServiceWorker) => window.dispatchEvent(new CustomEvent(SW_UPDATE_EVENT, { detail: worker }))
  if (registration.waiting && navigator.serviceWorker.controller) announce(registration.waiting)
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && navigator.serviceWorker.controller) announce(worker)
    })
  })
  // The first worker also takes control (clients.claim); only an update the user accepted reloads the page.
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!updateAccepted) return
    updateAccepted = false
    window.location.reload()
  })
}

let updateAccepted = false

/** Lets the waiting worker take over; the page reloads when it does. */
export function activateUpdate(worker: ServiceWorker) {
  updateAccepted = true
  worker.postMessage('SKIP_WAITING')
}
