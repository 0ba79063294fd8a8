import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { SurveyAnswerForm } from '~/components/survey/answer-form'
import { MobileRouteError, MobileShell } from '~/components/tms/mobile-shell'
import { Icon } from '~/components/ui/icon'
import { realmQuery, withQuery } from '~/lib/mobile-query'
import { apiData, validBody } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { mobileRecordPage, mobileSignin, mobileSignout, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import { SurveyAnswerInput } from '#shared/schemas/survey/survey'
import feedStyles from '~/styles/feed.css?url'
import tmsStyles from '~/styles/mobile-tms.css?url'
import { invalid, jsonField } from './_console+/lesson+/__lesson.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: tmsStyles },
]
export const handle = { title: 'pages.public.mobile.survey.apply' }

/**
 * GET /mobile/survey/{surveyId}/apply (public mobile-web; issue 19): the student answers a survey published to them
 * (once; required questions checked here and by the API), then sees the survey's confirmation message. A survey not
 * published to them answers "not found" in words; an answered one shows their answer.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const base = { brand: { name: realm.config.name, logo_url: realm.config.logo_url }, query: realmQuery(request), surveyId: params.surveyId ?? '' }
  return mobileRecordPage(request, context, realm, base, async (api) => ({
    state: 'survey' as const,
    survey: await apiData(api.survey.student[':id'].$get({ param: { id: base.surveyId } })),
    sent: new URL(request.url).searchParams.get('sent') === '1',
  }))
}

const Intent = v.picklist(['signin', 'signout'])

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const query = realmQuery(request)
  const path = `/mobile/survey/${encodeURIComponent(params.surveyId ?? '')}/apply`
  const raw = new URL(request.url).searchParams.get('intent')
  if (raw !== null) {
    const intent = v.safeParse(Intent, raw)
    if (!intent.success) throw new Response(null, { status: 400 })
    if (intent.output === 'signout') return mobileSignout(request, context, realm, withQuery('/mobile/tms', query, 'tab=surveys'))
    return mobileSignin(request, context, { ...realm, code: realm.code }, withQuery(path, query))
  }
  const session = await mobileUser(request, context, realm)
  if (session.state !== 'user') throw redirect(withQuery(path, query))
  const answers = jsonField(await request.formData(), 'answers')
  if (answers === undefined) return invalid('answers')
  return apiResult(async () => {
    await apiData(session.api.survey.student[':id'].answer.$post({ param: { id: params.surveyId ?? '' }, json: validBody(SurveyAnswerInput, { answers }) }))
    throw redirect(withQuery(path, query, 'sent=1'))
  })
}

export default function MobileSurveyApplyRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const path = `/mobile/survey/${encodeURIComponent(d.surveyId)}/apply`
  return (
    <MobileShell
      start={
        <Link to={withQuery('/mobile/tms', d.query, 'tab=surveys')} className="btn btn-icon">
          <Icon name="chevronLeft" label={t('mobile.survey.back')} />
        </Link>
      }
      title={d.state === 'survey' ? d.survey.title : t('mobile.survey.title')}
      signout={d.state !== 'signin' ? withQuery(path, d.query, 'intent=signout') : undefined}
    >
      {d.state === 'signin' ? <MobileSigninForm action={withQuery(path, d.query, 'intent=signin')} title={t('mobile.survey.signin_title')} /> : null}
      {d.state === 'missing' ? (
        <p className="card hint" role="alert">
          {t('errors.survey_not_found')}
        </p>
      ) : null}
      {d.state === 'survey' ? (
        <article className="survey-apply">
          {d.survey.description ? <p className="card">{d.survey.description}</p> : null}
          {d.survey.answer ? (
            <>
              <div className="card alert alert-success" role="status">
                {d.sent ? <p>{d.survey.confirmation_message || t('mobile.survey.thanks')}</p> : <p>{t('mobile.survey.already')}</p>}
              </div>
              <ol className="survey-answer-list">
                {d.survey.questions.map((q) => {
                  const value = d.survey.answer?.answers[q.id]
                  const text =
                    value === undefined
                      ? '—'
                      : q.type === 'single'
                        ? q.options[value as number]
                        : q.type === 'multi'
                          ? (value as number[]).map((k) => q.options[k]).join(', ')
                          : String(value)
                  return (
                    <li key={q.id} className="card">
                      <strong>{q.statement}</strong>
                      <p>{text}</p>
                    </li>
                  )
                })}
              </ol>
            </>
          ) : d.survey.status === 'expired' ? (
            <p className="card hint" role="status">
              {t('validation.survey.expired')}
            </p>
          ) : (
            <SurveyAnswerForm
              questions={d.survey.questions}
              isRequired={d.survey.is_required}
              initial={{}}
              submitLabel={t('mobile.survey.send')}
              failedTitle="mobile.survey.failed"
            />
          )}
        </article>
      ) : null}
    </MobileShell>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.survey.load_error" />
