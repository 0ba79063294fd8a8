import { data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { HeartbeatProvider } from './components/shell/heartbeat'
import { NotFound } from './components/shell/not-found'
import { RealmChooser } from './components/signin/realm-chooser'
import { ToastProvider, useToast } from './components/ui/toast'
import { isChunkLoadError, reloadOnce } from './lib/chunk-reload'
import { useNonce } from './lib/nonce'
import type { Settings } from '#shared/schemas/settings'
import { takeFlash, type Flash } from './server/flash.server'
import { getLocale } from './server/i18n.server'
import { getRealmContext } from './server/realm.server'
import { getSettings } from './server/settings.server'
import { DEFAULT_LOCALE, isLocale, type CatalogueGroup } from './i18n/config'
import { GROUPS, catalogueUrl } from './i18n/load'
import stylesUrl from './styles/app.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesUrl },
  { rel: 'manifest', href: '/manifest.webmanifest' },
]

/** The catalogue groups a page needs before hydrating: all, unless its route says `handle.catalogue` (login.tsx). */
function pageCatalogue(matches: ReturnType<typeof useMatches>): CatalogueGroup[] {
  const wanted = (matches[matches.length - 1]?.handle as { catalogue?: CatalogueGroup } | undefined)?.catalogue
  return wanted ? [wanted] : GROUPS
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [locale, realm, settings, { flash, clear }] = await Promise.all([
    getLocale(request),
    getRealmContext(request, context),
    getSettings(request),
    takeFlash(request),
  ])
  return data(
    { locale, realm: realm.config, multirealm: realm.multirealm, version: context.cloudflare.env.DASH_VERSION, settings, flash },
    clear ? { headers: { 'Set-Cookie': clear } } : undefined,
  )
}

export type RootData = {
  locale: string
  realm: Awaited<ReturnType<typeof getRealmContext>>['config']
  multirealm: boolean
  version: string
  settings: Settings
  flash: Flash | null
}

/**
 * A page React does not hydrate (issue 12: the sign-in page, whose forms work without script and whose script budget
 * React's libraries alone exceed). A route says so in its handle: `hydrate` false, or a function of its own loader
 * data and the root's (the sign-in screen of the outbox or of the OAuth2 chooser is not hydrated, their other screens
 * are), and `module`, the URL of the one standalone module the page loads instead of the Remix scripts.
 */
export interface HydrationHandle {
  hydrate?: boolean | ((data: unknown, root: RootData | undefined) => boolean)
  module?: string
}

/** The standalone module of the page when its route turns hydration off; null when React hydrates it. */
function pageModule(matches: ReturnType<typeof useMatches>, root: RootData | undefined): string | null {
  const leaf = matches[matches.length - 1]
  const { hydrate, module } = (leaf?.handle ?? {}) as HydrationHandle
  const off = typeof hydrate === 'function' ? !hydrate(leaf?.data, root) : hydrate === false
  return off && module ? module : null
}

/** Paths that work before a realm is chosen (seed 000 §2.1), besides the chooser itself. */
const REALM_FREE = ['/mobile/', '/deeplink', '/authentication/', '/oauth2/authorize']

/** Attributes of <html> that apply the display settings on the server render, so no theme flashes. */
function htmlAttributes(settings: Settings | undefined, pathname: string) {
  // The mobile-web surface always uses OCEAN (seed 000 §2.1); SYSTEM leaves the choice to prefers-color-scheme.
  const theme = pathname.startsWith('/mobile/') ? 'OCEAN' : settings && settings.theme !== 'SYSTEM' ? settings.theme : undefined
  return {
    'data-theme': theme,
    dir: settings?.direction ?? 'ltr',
    'data-compact': settings?.compact ? 'true' : undefined,
    'data-rounded': settings?.roundedCorners === false ? 'false' : undefined,
    'data-responsive-font': settings?.responsiveFontSizes === false ? 'false' : undefined,
  }
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>('root')
  const { t } = useTranslation()
  const matches = useMatches()
  const location = useLocation()
  const titleKey = [...matches]
    .reverse()
    .map((m) => (m.data as { title?: string } | undefined)?.title ?? (m.handle as { title?: string } | undefined)?.title)
    .find(Boolean)
  const realmName = data?.realm?.name ?? t('app.name')
  // Remix's inline scripts carry this response's nonce, the only inline scripts the page's policy runs.
  const nonce = useNonce()
  const locale = isLocale(data?.locale) ? data.locale : DEFAULT_LOCALE
  const standalone = pageModule(matches, data)
  return (
    <html lang={data?.locale ?? 'pt-BR'} {...htmlAttributes(data?.settings, location.pathname)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="dash-version" content={data?.version ?? ''} />
        <title>{titleKey ? `${t(titleKey)} · ${realmName}` : realmName}</title>
        <link rel="icon" href={data?.realm?.favicon_url || '/favicon.svg'} />
        <Meta />
        {standalone
          ? null
          : pageCatalogue(matches).map((group) => (
              <link key={group} rel="preload" as="fetch" crossOrigin="anonymous" href={catalogueUrl(locale, group)} data-catalogue={group} />
            ))}
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t('app.skip_to_content')}
        </a>
        {children}
        {standalone ? (
          <script type="module" src={standalone} nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  )
}

/** Marks the document once React has hydrated (browser tests wait for it before interacting). */
function useHydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
}

/**
 * Shows the server's one-time message (after a redirect) as a toast: the document's own flash is rendered by the
 * server (`ToastProvider initial`, so it shows without script); later ones come with client navigations.
 */
function FlashToast({ flash }: { flash: Flash | null }) {
  const toast = useToast()
  const shown = useRef(flash)
  useEffect(() => {
    if (flash && flash !== shown.current) toast.push({ kind: flash.kind, message: flash.message, values: flash.values })
    shown.current = flash
  }, [flash, toast])
  return null
}

export default function App() {
  useHydratedMarker()
  const data = useLoaderData<typeof loader>()
  const { pathname } = useLocation()
  return (
    <ToastProvider initial={data.flash ? [{ kind: data.flash.kind, message: data.flash.message, values: data.flash.values }] : undefined}>
      <HeartbeatProvider version={data.version}>
        <FlashToast flash={data.flash} />
        {!data.realm && !REALM_FREE.some((p) => pathname.startsWith(p)) ? <RealmChooser /> : <Outlet />}
      </HeartbeatProvider>
    </ToastProvider>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const { t } = useTranslation()
  const chunk = isChunkLoadError(error)
  useEffect(() => {
    if (chunk) reloadOnce()
  }, [chunk])
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  return (
    <main className="entry" id="main">
      <div className="entry-card" role="alert">
        <h1>{t(chunk ? 'app.error.chunk' : 'app.error.title')}</h1>
        <p className="lead">{t('app.error.description')}</p>
        <a href="." className="btn btn-primary">
          {t('app.retry')}
        </a>
      </div>
    </main>
  )
}
