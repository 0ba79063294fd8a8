/* Service worker of the console (production builds only; registered by app/lib/service-worker.ts).
 * Offline start: the static app shell (hashed /assets/*, offline page, icons) is cached; navigations go to the
 * network first and fall back to the offline page. Authenticated pages and /api answers are never cached, so
 * nothing of a signed-in user stays on a shared computer. A new version waits until the page asks it to take over. */
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev'
const CACHE = `console-shell-${VERSION}`
// `/offline` is how the asset server names offline.html (it drops the extension).
const OFFLINE = '/offline'
const SHELL = [OFFLINE, '/favicon.svg', '/manifest.webmanifest']

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
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const hit = await cache.match(request)
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
        const cached = await caches.match(OFFLINE)
        // A fresh Response: a cached redirected one may not answer a navigation.
        return cached ? new Response(await cached.blob(), { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } }) : Response.error()
      }),
    )
  }
})
