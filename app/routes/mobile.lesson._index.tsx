import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { MobileLessonList } from '~/components/lesson/mobile-lessons'
import { MobileRouteError, MobileSessionShell } from '~/components/tms/mobile-shell'
import { realmQuery, withQuery } from '~/lib/mobile-query'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { mobileSessionAction, mobileSigninState, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'
import tmsStyles from '~/styles/mobile-tms.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: tmsStyles },
]
export const handle = { title: 'pages.public.mobile.lesson' }

/** GET /mobile/lesson (public mobile-web, seed 001 §2; issue 18): the lessons published to the signed-in student. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const base = {
    brand: { name: realm.config.name, logo_url: realm.config.logo_url },
    query: realmQuery(request),
    timeZone: realm.config.time_zone || DEFAULT_TIME_ZONE,
  }
  const session = await mobileUser(request, context, realm)
  if (session.state !== 'user') return mobileSigninState(request, base, session.state === 'expired')
  const page = await apiData(session.api.lesson.student.$get({ query: { limit: '100' } }))
  return data({ ...base, state: 'list' as const, me: session.me, page }, { headers: { 'Cache-Control': 'no-store' } })
}

export const action = (args: ActionFunctionArgs) => mobileSessionAction(args, withQuery('/mobile/lesson', realmQuery(args.request)))

export default function MobileLessonRoute() {
  const d = useLoaderData<typeof loader>()
  return (
    <MobileSessionShell area="lesson" page={d}>
      {d.state !== 'signin' ? <MobileLessonList items={d.page.items} total={d.page.total} query={d.query} timeZone={d.timeZone} /> : null}
    </MobileSessionShell>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.lesson.load_error" />
