import { Form, isRouteErrorResponse, useLocation, useNavigation, useRouteError } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { Icon } from '~/components/ui/icon'
import { withQuery } from '~/lib/mobile-query'

/** A mobile-web page's error state: its message (or "not found" for a 404) and a retry of the same address. */
export function MobileRouteError({ message }: { message: string }) {
  const error = useRouteError()
  const { t } = useTranslation()
  const { pathname, search } = useLocation()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="mobile">
      <main className="mobile-content" id="main">
        <div className="card" role="alert">
          <h1>{t(notFound ? 'deeplink.error.realm' : message)}</h1>
          <a href={`${pathname}${search}`} className="btn btn-primary">
            <Icon name="refresh" /> {t('mobile.tms.retry')}
          </a>
        </div>
      </main>
    </div>
  )
}

/** The realm's logo, or its name when it has none: the start of a mobile-web page's bar. */
export function BrandMark({ brand }: { brand: { name: string; logo_url?: string | null } }) {
  return brand.logo_url ? <img src={brand.logo_url} alt={brand.name} /> : <strong>{brand.name}</strong>
}

/**
 * A mobile-web page of the student's tasks: the bar (`start`: the logo or a back link, the title, sign-out when
 * signed in) and the content, which says it is loading while a navigation runs.
 */
export function MobileShell({ start, title, signout, children }: { start: ReactNode; title: ReactNode; signout?: string; children: ReactNode }) {
  const { t } = useTranslation()
  const busy = useNavigation().state !== 'idle'
  return (
    <div className="mobile">
      <header className="mobile-bar">
        {start}
        <h1>{title}</h1>
        {signout ? (
          <Form method="post" action={signout}>
            <button type="submit" className="btn">
              <Icon name="logout" /> {t('mobile.feed.signout')}
            </button>
          </Form>
        ) : (
          <span />
        )}
      </header>
      <main className="mobile-content" id="main" aria-busy={busy}>
        {busy ? (
          <p className="hint" role="status">
            <span className="spinner" aria-hidden="true" /> {t('mobile.tms.loading')}
          </p>
        ) : null}
        {children}
      </main>
    </div>
  )
}

/**
 * A mobile-web page at `path` with the realm's brand and its own sign-in: signed out, the sign-in form (posting
 * `?intent=signin` to the page, titled `signinTitle`); signed in, `children` and the sign-out (`?intent=signout`).
 */
export function MobileSessionShell({
  path,
  query,
  brand,
  signedIn,
  title,
  signinTitle,
  children,
}: {
  path: string
  query: string
  brand: { name: string; logo_url?: string | null }
  signedIn: boolean
  title: string
  signinTitle: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <MobileShell start={<BrandMark brand={brand} />} title={t(title)} signout={signedIn ? withQuery(path, query, 'intent=signout') : undefined}>
      {signedIn ? children : <MobileSigninForm action={withQuery(path, query, 'intent=signin')} title={t(signinTitle)} />}
    </MobileShell>
  )
}
