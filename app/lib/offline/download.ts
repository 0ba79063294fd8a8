/**
 * Downloading a task for offline use (issue 17): the apply screen's page as the server renders it now (its scripts,
 * styles and texts are the hashed `/assets/` files it names), the list page, and the questions' media go into the
 * Cache API; the opened task and the clock offset into IndexedDB (store.ts). Offline, the service worker
 * (public/sw.js) answers those addresses from the cache, and the apply screen takes the task, the clock and the
 * answers from IndexedDB.
 */
import {
  OFFLINE_CACHE,
  OfflineStorageError,
  allTasks,
  deleteTask,
  getTask,
  isQuotaError,
  putTask,
  recordKey,
  announce,
  type OfflineTask,
  type OpenedTask,
} from './store'

/** The same-origin files a page needs offline: the hashed assets it links (scripts, styles, catalogues, icons). */
export function pageAssets(html: string, origin: string): string[] {
  const found = new Set<string>()
  for (const m of html.matchAll(/(?:href|src)=["']([^"']+)["']|import\(["']([^"']+)["']\)|["'](\/assets\/[^"']+)["']/g)) {
    const raw = (m[1] ?? m[2] ?? m[3] ?? '').replace(/&amp;/g, '&')
    if (!raw) continue
    const u = new URL(raw, origin)
    if (u.origin === origin && u.pathname.startsWith('/assets/')) found.add(u.href)
  }
  return [...found]
}

/** The images a page shows (the realm's logo, question images) at web addresses of any origin. */
export function pageImages(html: string, origin: string): string[] {
  const found = new Set<string>()
  for (const m of html.matchAll(/<img\b[^>]*?\ssrc=["']([^"']+)["']/g)) {
    try {
      const u = new URL(m[1].replace(/&amp;/g, '&'), origin)
      if (u.protocol === 'http:' || u.protocol === 'https:') found.add(u.href)
    } catch {
      // not an address
    }
  }
  return [...found]
}

/** The media of the questions (and their options) that a page shows: images, audio and documents, not videos. */
export function questionMedia(questions: unknown[], origin: string): string[] {
  const found = new Set<string>()
  const visit = (x: unknown) => {
    if (!x || typeof x !== 'object') return
    if (Array.isArray(x)) return x.forEach(visit)
    const o = x as Record<string, unknown>
    if (typeof o.media_url === 'string' && o.media_url && o.media_type !== 'video' && o.media_type !== 'text') {
      try {
        const u = new URL(o.media_url, origin)
        if (u.protocol === 'http:' || u.protocol === 'https:') found.add(u.href)
      } catch {
        // not an address: nothing to store
      }
    }
    Object.values(o).forEach(visit)
  }
  visit(questions)
  return [...found]
}

async function store(cache: Cache, url: string, response: Response) {
  try {
    await cache.put(url, response)
  } catch (err) {
    throw isQuotaError(err) ? new OfflineStorageError('cache_full') : err
  }
}

/** Whether the service worker controls the page (waiting a little for one registered on this load to take over). */
async function serviceWorkerInControl(waitMs = 10_000): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false
  const sw = navigator.serviceWorker
  if (sw.controller) return true
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), waitMs))
  const controlled = new Promise<true>((resolve) => sw.addEventListener('controllerchange', () => resolve(true), { once: true }))
  return Promise.race([sw.ready.then(() => Boolean(sw.controller) || controlled), timeout])
}

export type DownloadInput = { scope: string; page: string; list: string; opened: OpenedTask; offsetMs: number; answers?: OfflineTask['answers'] }

/**
 * Stores the task for offline use. Refusals: `unsupported` (no service worker or storage), `cache_full` (the Cache
 * API's quota), `storage_full` (IndexedDB's); a network failure rejects as it is.
 */
export async function downloadTask({ scope, page, list, opened, offsetMs, answers }: DownloadInput): Promise<OfflineTask> {
  if (!('caches' in window) || !(await serviceWorkerInControl())) throw new OfflineStorageError('unsupported')
  const origin = location.origin
  const cache = await caches.open(OFFLINE_CACHE)
  const files: string[] = []
  const media = new Set(questionMedia(opened.questions, origin))
  // The two pages as they are now (the apply screen opens the task again: the same open time and receipt).
  for (const address of [page, list]) {
    const response = await fetch(address, { credentials: 'same-origin', headers: { accept: 'text/html' } })
    if (!response.ok) throw new Error(`download ${address}: HTTP ${response.status}`)
    const html = await response.clone().text()
    await store(cache, new URL(address, origin).href, response)
    files.push(new URL(address, origin).href)
    for (const asset of pageAssets(html, origin)) {
      if (await cache.match(asset)) continue
      const got = await fetch(asset)
      if (got.ok) await store(cache, asset, got)
    }
    for (const image of pageImages(html, origin)) media.add(image)
  }
  for (const address of media) {
    const sameOrigin = new URL(address).origin === origin
    const got = await fetch(address, sameOrigin ? { credentials: 'same-origin' } : { mode: 'no-cors' })
    if (got.ok || got.type === 'opaque') {
      await store(cache, address, got)
      files.push(address)
    }
  }
  const key = recordKey(scope, opened.task.id)
  const before = await getTask(key)
  const record: OfflineTask = {
    ...before,
    key,
    scope,
    task_id: opened.task.id,
    title: opened.task.title,
    expire_at: opened.task.expire_at,
    downloaded_at: new Date().toISOString(),
    opened,
    offset_ms: offsetMs,
    page: new URL(page, origin).href,
    files,
    answers: before?.answers ?? answers,
  }
  await putTask(record)
  announce()
  return record
}

/**
 * Removes a download: its record and the files only it used (the list page and the hashed assets stay while another
 * download needs them; the last removal empties the cache).
 */
export async function removeDownload(key: string): Promise<void> {
  const record = await getTask(key)
  await deleteTask(key)
  const rest = await allTasks()
  if ('caches' in window) {
    if (!rest.length) await caches.delete(OFFLINE_CACHE)
    else if (record) {
      const kept = new Set(rest.flatMap((r) => r.files))
      const cache = await caches.open(OFFLINE_CACHE)
      await Promise.all(record.files.filter((f) => !kept.has(f)).map((f) => cache.delete(f)))
    }
  }
  announce()
}
