import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { LoginScreen, type LoginNotice } from '~/components/signin/login-screen'
import { NotFound } from '~/components/shell/not-found'
import { RouteError } from '~/components/shell/route-error'
import { Shell } from '~/components/shell/shell'
import { matchRoute } from '#shared/manifest'
import { visibleNav } from '~/lib/navigation'
import type { RootData } from '~/root'
import { requireUser, type SigninRequired } from '~/server/auth.server'
import { walletBalance } from '~/server/wallet.server'

/** Layout of every console route: paths outside the manifest are 404; the rest need a session with dashboard access. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const entry = matchRoute(new URL(request.url).pathname)
  if (!entry || entry.public) throw new Response(null, { status: 404 })
  const { user, realm, api } = await requireUser(request, context)
  const balance = await walletBalance(api, realm, user.nick)
  return { user, balance, nav: visibleNav(user.permissions, realm.config), hideSidebar: Boolean(entry.hideSidebar) }
}

export default function ConsoleLayout() {
  const { user, balance, nav, hideSidebar } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData<RootData>('root')
  if (!root?.realm) return null
  return (
    <Shell user={user} config={root.realm} locale={root.locale} settings={root.settings} nav={nav} balance={balance} hideSidebar={hideSidebar}>
      <Outlet />
    </Shell>
  )
}

function isSigninRequired(data: unknown): data is SigninRequired {
  return typeof data === 'object' && data !== null && 'reason' in data
}

/** Without a session the sign-in screen renders in place of the page; the URL stays, to be restored after. */
export function ErrorBoundary() {
  const error = useRouteError()
  const root = useRouteLoaderData<RootData>('root')
  if (isRouteErrorResponse(error) && isSigninRequired(error.data) && root?.realm) {
    return <LoginScreen config={root.realm} multirealm={root.multirealm} locale={root.locale} notice={error.data.reason as LoginNotice} />
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
