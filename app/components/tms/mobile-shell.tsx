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
 * The mobile-web page `/mobile/{area}` with the realm's brand and its own sign-in: signed out (`page.state` is
 * 'signin'), the sign-in form (posting `?intent=signin` to the page, titled `mobile.{area}.signin_title`); signed in,
 * `children` and the sign-out (`?intent=signout`). Its title is `mobile.{area}.title`.
 */
export function MobileSessionShell({
  area,
  page,
  children,
}: {
  area: 'lesson' | 'csm' | 'feed' | 'tms'
  page: { query: string; brand: { name: string; logo_url?: string | null }; state: string }
  children: ReactNode
}) {
  const { t } = useTranslation()
  const path = `/mobile/${area}`
  const signedIn = page.state !== 'signin'
  return (
    <MobileShell
      start={<BrandMark brand={page.brand} />}
      title={t(`mobile.${area}.title`)}
      signout={signedIn ? withQuery(path, page.query, 'intent=signout') : undefined}
    >
      {signedIn ? children : <MobileSigninForm action={withQuery(path, page.query, 'intent=signin')} title={t(`mobile.${area}.signin_title`)} />}
    </MobileShell>
  )
}
