/**
 * Code a server-rendered page needs before React hydrates it. A lazily loaded component the server already rendered
 * (the sign-in captcha) must be in the browser before hydration: an update reaching a Suspense boundary that is
 * still waiting for its code makes React throw the server's HTML away (React error 421). Route modules run before
 * app/entry.client.tsx, which waits for what they register here.
 */
const pending: Promise<unknown>[] = []

export function holdHydration(ready: Promise<unknown>): void {
  pending.push(ready.catch(() => undefined))
}

export function hydrationReady(): Promise<unknown> {
  return Promise.all(pending)
}
