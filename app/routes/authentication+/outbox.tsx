import { data, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { apiData } from '~/server/api.server'
import { isRouteErrorResponse, Link, useLoaderData, useLocation, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LoginScreen, type LoginNotice } from '~/components/signin/login-screen'
import { NotFound } from '~/components/shell/not-found'
import { RouteError } from '~/components/shell/route-error'
import { signinModuleUrl } from '~/components/signin/signin-page-url'
import type { HydrationHandle, RootData } from '~/root'
import { loadAsDocument } from '~/lib/document-navigation'
import { requireUser, type SigninRequired } from '~/server/auth.server'
import { devMode } from '../../../worker/lib/dev-mode'

/** Without a staff session the page is the sign-in screen (no loader data), served without React as /login is. */
const hydrates = (data: unknown) => data !== undefined
export const handle = {
  title: 'outbox.title',
  hydrate: hydrates,
  module: signinModuleUrl,
} satisfies HydrationHandle & { title: string }

/** Arriving from another page loads this one as a document (app/lib/document-navigation.ts). */
export const clientLoader = loadAsDocument(hydrates)

/**
 * The local e-mail outbox: what the local EmailSender "sent", so recovery links can be followed without an e-mail
 * provider. It exists only while the Worker runs in development mode (`npm start`; 404 otherwise) and shows the
 * realm's mail only to a signed-in staff member of the realm (others get the sign-in screen, then come back here):
 * the messages hold live reset links.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!devMode(context.cloudflare.env)) throw data(null, { status: 404 })
  const { api } = await requireUser(request, context)
  const { items } = await apiData(api.dev.outbox.$get())
  return { items }
}

/** Links in a message become clickable; the rest stays plain text. */
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g)
  return (
    <p className="mail-text">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  )
}

export default function OutboxRoute() {
  const { items } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <main className="entry outbox" id="main">
      <div className="entry-card entry-card-wide">
        <h1>{t('outbox.title')}</h1>
        <p className="lead">{t('outbox.description')}</p>
        {items.length === 0 ? (
          <p className="alert alert-info">{t('outbox.empty')}</p>
        ) : (
          <ol className="mail-list">
            {items.map((m) => (
              <li key={m.id} className="card">
                <h2>{m.subject}</h2>
                <p className="hint">
                  {t('outbox.to', { to: m.to_address })} · <time dateTime={m.created_at}>{m.created_at.replace('T', ' ').slice(0, 19)}</time>
                </p>
                <MailText text={m.text} />
              </li>
            ))}
          </ol>
        )}
        <p className="form-links">
          <Link to="/authentication/recover">{t('recover.title')}</Link>
        </p>
      </div>
    </main>
  )
}

function isSigninRequired(value: unknown): value is SigninRequired {
  return typeof value === 'object' && value !== null && 'reason' in value
}

/** Without a staff session the sign-in screen renders in place of the outbox; the URL stays, to come back after. */
export function ErrorBoundary() {
  const error = useRouteError()
  const root = useRouteLoaderData<RootData>('root')
  const { pathname, search } = useLocation()
  if (isRouteErrorResponse(error) && isSigninRequired(error.data) && root?.realm) {
    return (
      <LoginScreen
        config={root.realm}
        multirealm={root.multirealm}
        locale={root.locale}
        notice={error.data.reason as LoginNotice}
        pathname={pathname}
        search={search}
      />
    )
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <RouteError />
      </div>
    </main>
  )
}
