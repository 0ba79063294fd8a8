import { data, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { can } from '#shared/access'
import { matchRoute } from '#shared/manifest'
import { AccessDenied, NotFoundCard, type Missing } from '~/components/shell/access-denied'
import { NotFound } from '~/components/shell/not-found'
import { Shell } from '~/components/shell/shell'
import { visibleNav } from '~/lib/navigation'
import type { RootData } from '~/root'
import { requireUser, safeRedirect, shellUser } from '~/server/auth.server'
import { walletBalance } from '~/server/wallet.server'

export const handle = { title: 'notfound.title' }

/**
 * Where users are sent when they lack a route's permission or realm flag (seed 000 §2.2), and unknown pages. Signed
 * in, it keeps the shell: for a refused page (`?path=`) it says the user has no access and names what is missing,
 * with a link back to `?from=` (else home); otherwise "page not found". Signed out, the plain "you are lost" page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  let signed: Awaited<ReturnType<typeof requireUser>>
  try {
    signed = await requireUser(request, context)
  } catch (err) {
    if (err instanceof Response) return data({ shell: null, denied: null, from: null }, { status: 404 })
    throw err
  }
  const { user, realm, api } = signed
  const path = url.searchParams.get('path') ?? ''
  const entry = path.startsWith('/') ? matchRoute(path) : undefined
  let denied: { title: string; path: string; missing: Missing } | null = null
  if (entry && !entry.public && !can(user.permissions, realm.config, entry.access)) {
    const has = (p: string) => user.permissions[p] === true
    const any = entry.access.any ?? []
    denied = {
      title: entry.title,
      path,
      missing: {
        all: (entry.access.all ?? []).filter((p) => !has(p)),
        any: any.length && !any.some(has) ? [...any] : [],
        flags: (entry.access.flags ?? []).filter((f) => realm.config?.[f] !== true),
      },
    }
  }
  const from = safeRedirect(url.searchParams.get('from'), '')
  const balance = await walletBalance(api, realm, user.nick)
  return data(
    { shell: { user: shellUser(user), balance, nav: visibleNav(user.permissions, realm.config) }, denied, from: from || null },
    { status: denied ? 403 : 404 },
  )
}

export default function NotFoundRoute() {
  const { shell, denied, from } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData<RootData>('root')
  if (!shell || !root?.realm) return <NotFound />
  return (
    <Shell user={shell.user} config={root.realm} locale={root.locale} settings={root.settings} nav={shell.nav} balance={shell.balance}>
      {denied ? <AccessDenied title={denied.title} path={denied.path} missing={denied.missing} from={from} /> : <NotFoundCard back={from ?? undefined} />}
    </Shell>
  )
}
