import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/cloudflare'
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
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NotFound } from './components/not-found'
import { RealmChooser } from './components/realm-chooser'
import { getLocale } from './server/i18n.server'
import { getRealmContext } from './server/realm.server'
import stylesUrl from './styles/app.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: stylesUrl }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [locale, realm] = await Promise.all([getLocale(request), getRealmContext(request, context)])
  return {
    locale,
    realm: realm.config,
    multirealm: realm.multirealm,
    version: context.cloudflare.env.DASH_VERSION,
  }
}

export type RootData = Awaited<ReturnType<typeof loader>>

/** Paths that work before a realm is chosen (seed 000 §2.1), besides the chooser itself. */
const REALM_FREE = ['/mobile/', '/deeplink', '/authentication/', '/oauth2/authorize']

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const { t } = useTranslation()
  const matches = useMatches()
  const titleKey = [...matches].reverse().map((m) => (m.handle as { title?: string } | undefined)?.title).find(Boolean)
  const realmName = data?.realm?.name ?? t('app.name')
  return (
    <html lang={data?.locale ?? 'pt-BR'} data-theme="OCEAN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{titleKey ? `${t(titleKey)} · ${realmName}` : realmName}</title>
        <link rel="icon" href={data?.realm?.favicon_url || '/favicon.svg'} />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t('app.skip_to_content')}
        </a>
        {children}
        <ScrollRestoration />
        <Scripts />
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

export default function App() {
  useHydratedMarker()
  const data = useLoaderData<typeof loader>()
  const { pathname } = useLocation()
  if (!data.realm && !REALM_FREE.some((p) => pathname.startsWith(p))) return <RealmChooser />
  return <Outlet />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const { t } = useTranslation()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  return (
    <main className="entry" id="main">
      <div className="entry-card" role="alert">
        <h1>{t('app.error.title')}</h1>
        <p className="lead">{t('app.error.description')}</p>
        <a href="." className="btn btn-primary">
          {t('app.retry')}
        </a>
      </div>
    </main>
  )
}
