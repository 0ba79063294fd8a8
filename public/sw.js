/* Service worker of the console (production builds only; registered by app/lib/service-worker.ts).
 * Offline start: the static app shell (hashed /assets/*, offline page, icons) is cached; navigations go to the
 * network first and fall back to the offline page. Authenticated pages and /api answers are never cached by the
 * worker, so nothing of a signed-in user stays on a shared computer. A new version waits until the page asks it to
 * take over.
 * The one exception is what a student downloads on purpose for offline use (issue 17, app/lib/offline/download.ts):
 * the page stores its apply screen, the task list, their assets and the question media in OFFLINE_CACHE; when the
 * network fails, a navigation to one of those pages is answered from there (marked `data-offline-copy` on <html>, so
 * the page knows to take the task, the clock and the answers from IndexedDB), and so is the media. Removing the
 * download deletes them. */
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev'
const CACHE = `console-shell-${VERSION}`
// `/offline` is how the asset server names offline.html (it drops the extension).
const OFFLINE = '/offline'
const SHELL = [OFFLINE, '/favicon.svg', '/manifest.webmanifest']
// Kept across versions: the student's downloads (app/lib/offline/store.ts names it too).
const OFFLINE_CACHE = 'mobile-offline-v1'

/** A downloaded page for this navigation (its exact address; the task list under any of its tabs), or null. */
async function offlineCopy(request) {
  const cache = await caches.open(OFFLINE_CACHE)
  const url = new URL(request.url)
  const hit = (await cache.match(request.url)) || (url.pathname === '/mobile/tms' ? await cache.match(request.url, { ignoreSearch: true }) : undefined)
  if (!hit) return null
  const html = (await hit.text()).replace('<html', '<html data-offline-copy=""')
  const headers = new Headers(hit.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  return new Response(html, { status: 200, headers })
}

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('console-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('message', (event) => {
  if (event.data === 'SKIP_WAITING') self.skipWaiting()
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (request.method !== 'GET') return
  // A downloaded page's images and question media (of any origin): the network first, the download when it fails.
  const own = url.origin === self.location.origin
  if (['image', 'audio', 'video'].includes(request.destination) && !(own && /^\/(api|assets)\//.test(url.pathname))) {
    // Any cache: the shell's icons answer too (the offline page's favicon).
    event.respondWith(fetch(request).catch(async (err) => (await caches.match(request.url)) || Promise.reject(err)))
    return
  }
  if (!own || url.pathname.startsWith('/api/')) return
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const hit = (await cache.match(request)) || (await caches.match(request))
        if (hit) return hit
        const response = await fetch(request)
        if (response.ok) cache.put(request, response.clone())
        return response
      }),
    )
    return
  }
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request).catch(async () => {
        const copy = await offlineCopy(request)
        if (copy) return copy
        const cached = await caches.match(OFFLINE)
        // A fresh Response: a cached redirected one may not answer a navigation.
        return cached ? new Response(await cached.blob(), { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } }) : Response.error()
      }),
    )
  }
})
