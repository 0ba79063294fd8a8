import { redirectDocument, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { NotFound } from '~/components/shell/not-found'
import { RouteError } from '~/components/shell/route-error'
import { Shell } from '~/components/shell/shell'
import { matchRoute } from '#shared/manifest'
import { visibleNav } from '~/lib/navigation'
import type { RootData } from '~/root'
import { requireUser, shellUser, type SigninRequired } from '~/server/auth.server'
import { walletBalance } from '~/server/wallet.server'

/**
 * Without a session (or with one that lost dashboard access) a console page sends the browser to the sign-in page,
 * `/login?redirectTo=<path>&reason=<why>`, which returns to the path after sign-in. Sign-in is its own light route:
 * a first visit loads none of the console (shell, presence socket, the page asked for).
 */
const TOKEN_LINK = ['token', 'provider', 'realm']

async function signinRedirect(request: Request, err: unknown): Promise<never> {
  if (!(err instanceof Response) || (err.status !== 401 && err.status !== 403)) throw err
  const { reason } = (await err
    .clone()
    .json()
    .catch(() => ({}))) as Partial<SigninRequired>
  const url = new URL(request.url)
  const query = new URLSearchParams()
  // A token link (`?token=&provider=&realm=`, README "Token links") signs in on the sign-in page: its parameters go
  // there, not into the path to return to (the token never stays in the address).
  for (const name of TOKEN_LINK) {
    const value = url.searchParams.get(name)
    url.searchParams.delete(name)
    if (value !== null) query.set(name, value)
  }
  const back = url.pathname + url.search
  if (back !== '/') query.set('redirectTo', back)
  // Without a chosen realm the sign-in page shows the realm chooser; the other reasons are shown above the form.
  if (reason && reason !== 'signin' && reason !== 'realm') query.set('reason', reason)
  const headers = new Headers()
  const clear = err.headers.get('set-cookie')
  if (clear) headers.set('set-cookie', clear)
  // A document redirect: the sign-in page is served without React (root.tsx, login.tsx), so a client-side
  // navigation (sign-out, a link home) must load it as a page of its own.
  throw redirectDocument(query.size ? `/login?${query}` : '/login', { headers })
}

/** Layout of every console route: paths outside the manifest are 404; the rest need a session with dashboard access. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const entry = matchRoute(new URL(request.url).pathname)
  if (!entry || entry.public) throw new Response(null, { status: 404 })
  const { user, realm, api } = await requireUser(request, context).catch((err: unknown) => signinRedirect(request, err))
  const balance = await walletBalance(api, realm, user.nick)
  return { user: shellUser(user), balance, nav: visibleNav(user.permissions, realm.config), hideSidebar: Boolean(entry.hideSidebar) }
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

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <RouteError />
      </div>
    </main>
  )
}
