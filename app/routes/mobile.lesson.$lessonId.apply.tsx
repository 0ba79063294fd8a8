import { QuestionPairList } from '~/components/lesson/question-pairs'
import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SlidePlayer } from '~/components/lesson/slide-player'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { MobileRouteError, MobileShell } from '~/components/tms/mobile-shell'
import { formulaLinks } from '~/components/tms/formula-styles'
import { RichText } from '~/components/tms/rich-text'
import { Icon } from '~/components/ui/icon'
import { realmQuery, withQuery } from '~/lib/mobile-query'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { mobileRecordPage, mobileSessionAction } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'
import lessonStyles from '~/styles/lesson.css?url'
import tmsStyles from '~/styles/mobile-tms.css?url'

export const links: LinksFunction = () => [
  ...formulaLinks(),
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: tmsStyles },
  { rel: 'stylesheet', href: lessonStyles },
]
export const handle = { title: 'pages.public.mobile.lesson.apply' }

/**
 * GET /mobile/lesson/{lessonId}/apply (public mobile-web, seed 001 §2; issue 18): the student reads the lesson's
 * summary and handout, steps through its slides with their narration (the stored narration audio, else spoken by the browser), and opens the lesson's
 * tasks in the task screen. A lesson not published to them answers "not found" in words.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const base = {
    brand: { name: realm.config.name, logo_url: realm.config.logo_url },
    query: realmQuery(request),
    lessonId: params.lessonId ?? '',
    timeZone: realm.config.time_zone || DEFAULT_TIME_ZONE,
  }
  return mobileRecordPage(request, context, realm, base, async (api) => ({
    state: 'lesson' as const,
    lesson: await apiData(api.lesson.student[':id'].$get({ param: { id: base.lessonId } })),
  }))
}

/** Signs in back to the lesson; signing out returns to the lesson list. */
export const action = (args: ActionFunctionArgs) =>
  mobileSessionAction(
    args,
    withQuery(`/mobile/lesson/${encodeURIComponent(args.params.lessonId ?? '')}/apply`, realmQuery(args.request)),
    withQuery('/mobile/lesson', realmQuery(args.request)),
  )

export default function MobileLessonApplyRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const path = `/mobile/lesson/${encodeURIComponent(d.lessonId)}/apply`
  return (
    <MobileShell
      start={
        <Link to={withQuery('/mobile/lesson', d.query)} className="btn btn-icon">
          <Icon name="chevronLeft" label={t('mobile.lesson.back')} />
        </Link>
      }
      title={d.state === 'lesson' ? d.lesson.title : t('mobile.lesson.title')}
      signout={d.state !== 'signin' ? withQuery(path, d.query, 'intent=signout') : undefined}
    >
      {d.state === 'signin' ? <MobileSigninForm action={withQuery(path, d.query, 'intent=signin')} title={t('mobile.lesson.signin_title')} /> : null}
      {d.state === 'missing' ? (
        <p className="card hint" role="alert">
          {t('errors.lesson_not_found')}
        </p>
      ) : null}
      {d.state === 'lesson' ? (
        <article lang={d.lesson.language} className="lesson-apply">
          {d.lesson.summary ? (
            <section className="card" aria-labelledby="lesson-summary">
              <h2 id="lesson-summary">{t('lesson.kind.summary')}</h2>
              <RichText html={d.lesson.summary} />
            </section>
          ) : null}
          {d.lesson.slides.length ? <SlidePlayer slides={d.lesson.slides} language={d.lesson.language} media={d.lesson.media} /> : null}
          {d.lesson.handout ? (
            <section className="card" aria-labelledby="lesson-handout">
              <h2 id="lesson-handout">{t('lesson.kind.handout')}</h2>
              <RichText html={d.lesson.handout} />
            </section>
          ) : null}
          {d.lesson.question_pairs.length ? (
            <section className="card" aria-labelledby="lesson-pairs">
              <h2 id="lesson-pairs">{t('lesson.kind.question_pairs')}</h2>
              <QuestionPairList pairs={d.lesson.question_pairs} />
            </section>
          ) : null}
          {d.lesson.task_list.length ? (
            <section className="card" aria-labelledby="lesson-tasks">
              <h2 id="lesson-tasks">{t('lesson.kind.task')}</h2>
              <ul className="mtms-list">
                {d.lesson.task_list.map((task) => (
                  <li key={task.id}>
                    {task.status === 'published' ? (
                      <Link className="btn" to={withQuery(`/mobile/tms/task/${encodeURIComponent(task.id)}/apply`, d.query)}>
                        {task.title}
                      </Link>
                    ) : (
                      <span>
                        {task.title} · {t(`tms.status.${task.status}`)}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </article>
      ) : null}
    </MobileShell>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.lesson.load_error" />
