import type { ClientLoaderFunctionArgs } from '@remix-run/react'

/**
 * The client loader of a route whose page may be served without React (root.tsx `HydrationHandle`: the sign-in
 * screen of /login, of the outbox and of an OAuth2 request). A client-side navigation must not produce such a page:
 * React would have to swap the Remix scripts for the standalone module inside a live document and share the screen's
 * markup with the module that enhances it. So such a page is loaded as a document. `hydrates` (the route's handle's)
 * tells, from the server loader's data, whether the page is one React renders (the realm chooser, a signed-in outbox,
 * the OAuth2 consent): those stay client navigations and revalidations, with their action data.
 */
export function loadAsDocument(hydrates: (data: unknown) => boolean) {
  return async ({ request, serverLoader }: ClientLoaderFunctionArgs) => {
    const data = await serverLoader()
    if (hydrates(data)) return data
    const to = new URL(request.url)
    window.location.assign(to.pathname + to.search)
    // The browser leaves this document; the navigation stays pending (the progress bar) until it does.
    return new Promise<never>(() => {})
  }
}
