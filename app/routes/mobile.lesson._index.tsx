import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { MobileLessonList } from '~/components/lesson/mobile-lessons'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { BrandMark, MobileRouteError, MobileShell } from '~/components/tms/mobile-shell'
import { realmQuery, withQuery } from '~/lib/mobile-query'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { mobileSignin, mobileSigninState, mobileSignout, mobileUser } from '~/server/mobile-session.server'
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

const Intent = v.picklist(['signin', 'signout'])

export async function action({ request, context }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const intent = v.safeParse(Intent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  const home = withQuery('/mobile/lesson', realmQuery(request))
  if (intent.output === 'signout') return mobileSignout(request, context, realm, home)
  return mobileSignin(request, context, { ...realm, code: realm.code }, home)
}

export default function MobileLessonRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <MobileShell
      start={<BrandMark brand={d.brand} />}
      title={t('mobile.lesson.title')}
      signout={d.state !== 'signin' ? withQuery('/mobile/lesson', d.query, 'intent=signout') : undefined}
    >
      {d.state === 'signin' ? (
        <MobileSigninForm action={withQuery('/mobile/lesson', d.query, 'intent=signin')} title={t('mobile.lesson.signin_title')} />
      ) : (
        <MobileLessonList items={d.page.items} total={d.page.total} query={d.query} timeZone={d.timeZone} />
      )}
    </MobileShell>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.lesson.load_error" />
