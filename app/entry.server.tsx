import type { AppLoadContext, EntryContext } from '@remix-run/cloudflare'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToReadableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { NonceContext } from './lib/nonce'
import type { RealmConfig } from '#shared/schemas/realm'
import { getLocale, i18nFor } from './server/i18n.server'
import { NO_SCRIPT_POLICY, otherOrigin, pagePolicy } from '#shared/security-headers.server'

const ABORT_DELAY = 5000

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce
  const i18n = i18nFor(await getLocale(request))

  const controller = new AbortController()
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY)
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </I18nextProvider>
    </NonceContext.Provider>,
    {
      // React's own streaming scripts (Suspense boundaries) carry the nonce too.
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error)
        responseStatusCode = 500
      },
    },
  )
  body.allReady.then(() => clearTimeout(timeout))
  if (isbot(request.headers.get('user-agent') || '')) await body.allReady

  responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
  responseHeaders.set('Content-Security-Policy', policyOf(request, remixContext, loadContext, nonce))
  responseHeaders.set('X-Frame-Options', 'DENY')
  // Referrer-Policy, nosniff and HSTS are set by the Worker entry on every answer (worker/index.ts).
  return new Response(body, { headers: responseHeaders, status: responseStatusCode })
}

/**
 * The page's Content-Security-Policy (app/shared/security-headers.server.ts) with what this page needs beyond its own
 * origin: the realm's API when it lives elsewhere (the captcha widget calls it from the browser) and, on the OAuth2
 * consent screen, the client's redirect URI (the consent form ends there). Without a nonce (no Worker entry) no
 * script may run.
 */
function policyOf(request: Request, remixContext: EntryContext, loadContext: AppLoadContext, nonce: string | undefined): string {
  if (!nonce) return NO_SCRIPT_POLICY
  const url = new URL(request.url)
  const loaderData = remixContext.staticHandlerContext.loaderData as Record<string, unknown>
  const root = loaderData.root as { realm?: RealmConfig | null } | undefined
  const consent = loaderData['routes/oauth2.authorize'] as { mode?: string; info?: { redirect_uri?: string } } | undefined
  const api = otherOrigin(root?.realm?.api_endpoint, url)
  const back = consent?.mode === 'consent' ? otherOrigin(consent.info?.redirect_uri, url) : null
  return pagePolicy({
    nonce,
    url,
    partykitHost: loadContext.cloudflare.env.PARTYKIT_HOST,
    connect: api ? [api] : [],
    formAction: back ? [back] : [],
  })
}
