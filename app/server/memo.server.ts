import type { AppLoadContext } from '@remix-run/cloudflare'

/**
 * Per-request caches. Remix hands each loader of one request its own `Request` object but the same load context
 * (built once per request by the Worker entry), so the context is the key: the loaders of a page (run in parallel)
 * share the first computation instead of repeating it, and nothing outlives the request.
 */
const caches = new WeakMap<AppLoadContext, Map<symbol, Promise<unknown>>>()

export function oncePerRequest<T>(): (context: AppLoadContext, compute: () => Promise<T>) => Promise<T> {
  const kind = Symbol('oncePerRequest')
  return (context, compute) => {
    let cache = caches.get(context)
    if (!cache) {
      cache = new Map()
      caches.set(context, cache)
    }
    let found = cache.get(kind) as Promise<T> | undefined
    if (!found) {
      found = compute()
      cache.set(kind, found)
    }
    return found
  }
}

/**
 * Forgets what this request cached: called after every write through the realm API (an action that signs out,
 * switches realm or changes roles), so the loaders that run after the action in the same request read afresh.
 */
export function forgetRequest(context: AppLoadContext): void {
  caches.delete(context)
}
