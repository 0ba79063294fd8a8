import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { realmQuery, visualizePath, withQuery } from '~/lib/mobile-query'
import { DEFAULT_TIME_ZONE, publicApiAction } from '~/server/api-action.server'
import { RealmApiError, apiData } from '~/server/api.server'
import { mobileSigninState, mobileApi, mobileSignin, mobileSignout, mobileToken, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import { OpinionInput } from '../../worker/lib/answer-schemas'

const isExpiredPath = (request: Request) => new URL(request.url).pathname.includes('/mobile/tms/task/expired/')

/**
 * The visualize screens (public mobile-web; issue 17, seed 001 §2): the signed-in student's own delivered answer
 * (`GET /tms/answer-student/{taskId}/answer/{answerId}`: 404 unless it is theirs), with the correction when the API
 * shows it (finalized, from the display-answer date). Without a mobile session, the mobile sign-in.
 */
export async function visualizeLoader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const taskId = params.taskId ?? ''
  const answerId = params.answerId ?? ''
  const expired = isExpiredPath(request)
  const base = {
    brand: { name: realm.config.name, logo_url: realm.config.logo_url },
    query: realmQuery(request),
    timeZone: realm.config.time_zone || DEFAULT_TIME_ZONE,
    taskId,
    answerId,
    expired,
  }
  const noStore = { 'Cache-Control': 'no-store' }
  const session = await mobileUser(request, context, realm)
  if (session.state !== 'user') return mobileSigninState(request, base, session.state === 'expired')
  try {
    const view = await apiData(session.api.tms['answer-student'][':taskId'].answer[':answerId'].$get({ param: { taskId, answerId } }))
    return data({ ...base, state: 'answer' as const, view }, { headers: noStore })
  } catch (err) {
    if (!(err instanceof RealmApiError) || err.status >= 500) throw err
    // Not the student's answer (or none, or a malformed id): the page says so, with the 404 status.
    return data({ ...base, state: 'missing' as const }, { status: 404, headers: noStore })
  }
}

const Intent = v.picklist(['signin', 'signout', 'opinion'])

/** Sign-in and sign-out of the mobile session, and the opinion on the AI comment (once: the API refuses a second). */
export async function visualizeAction({ request, context, params }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const query = realmQuery(request)
  const taskId = params.taskId ?? ''
  const here = withQuery(visualizePath(taskId, params.answerId ?? '', isExpiredPath(request)), query)
  const intent = v.safeParse(Intent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  if (intent.output === 'signin') return mobileSignin(request, context, { ...realm, code: realm.code }, here)
  if (intent.output === 'signout') return mobileSignout(request, context, realm, withQuery('/mobile/tms', query))
  return publicApiAction(
    request,
    context,
    {
      schema: OpinionInput,
      call: (api, body) => apiData(api.tms['answer-student'][':taskId'].opinion.$post({ param: { taskId }, json: body })),
      redirect: here,
      flash: 'mobile.tms.visualize.opinion_sent',
    },
    mobileApi(request, context, realm, await mobileToken(request)),
  )
}
