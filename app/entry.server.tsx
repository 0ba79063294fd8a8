import type { AppLoadContext, EntryContext } from '@remix-run/cloudflare'
import { RemixServer } from '@remix-run/react'
import { createInstance } from 'i18next'
import { isbot } from 'isbot'
import { renderToReadableStream } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { catalogues } from './i18n/catalogues'
import { i18nOptions } from './i18n/config'
import { getLocale } from './server/i18n.server'

const ABORT_DELAY = 5000

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const locale = await getLocale(request)
  const i18n = createInstance()
  await i18n.use(initReactI18next).init({ ...i18nOptions, lng: locale, resources: { [locale]: { translation: catalogues[locale] } } })

  const controller = new AbortController()
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY)
  const body = await renderToReadableStream(
    <I18nextProvider i18n={i18n}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
    </I18nextProvider>,
    {
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
  responseHeaders.set('X-Content-Type-Options', 'nosniff')
  responseHeaders.set('Referrer-Policy', 'same-origin')
  responseHeaders.set('X-Frame-Options', 'DENY')
  return new Response(body, { headers: responseHeaders, status: responseStatusCode })
}
