import type { Result, Router } from 'hono/router'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'

/** Answers kept per isolate; all are dropped when the map is full (paths with ids make new keys without end). */
export const REMEMBERED_ROUTES_MAX = 1000

/**
 * Hono's default router (SmartRouter over RegExpRouter and TrieRouter), remembering its answer per method and path.
 *
 * The API registers static paths after parameter paths at the same place (`/mas/realm/:code` before
 * `/mas/realm/defaults`, `/mas/user/roles` beside `/mas/user/:nick`, …), in the order the endpoint table lists them;
 * RegExpRouter refuses such a table, so SmartRouter falls back to TrieRouter, whose search walks every parameter and
 * wildcard child at each segment of the path: about 0.4 ms of CPU per API call in a profile, a tenth of a transfer's.
 * A router's answer depends only on the method, the path and the table, and the table is fixed once matched (the
 * SmartRouter refuses a route added after its first match, as Hono's default router does), so it is remembered. Hono reads an answer and never changes it (the params objects are only read by
 * `c.req.param()`), so one answer can serve many requests.
 */
export class RememberingRouter<T> implements Router<T> {
  name = 'RememberingRouter'
  #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] })
  #answers = new Map<string, Result<T>>()

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler)
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`
    let answer = this.#answers.get(key)
    if (answer === undefined) {
      answer = this.#inner.match(method, path)
      if (this.#answers.size >= REMEMBERED_ROUTES_MAX) this.#answers.clear()
      this.#answers.set(key, answer)
    }
    return answer
  }
}
