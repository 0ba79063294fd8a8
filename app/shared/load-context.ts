/** What the Worker entry hands every Remix loader and action. */
declare module '@remix-run/cloudflare' {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext }
    /** Realm bound to the request's host; null on multi-realm hosts. */
    hostRealm: string | null
    /** Dispatches a request to this Worker's realm API in-process (no network hop). */
    fetchApi(request: Request): Promise<Response>
    /** This response's Content-Security-Policy nonce (fresh per request); every inline script of a page carries it. */
    cspNonce: string
  }
}

export {}
