import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useSubmit } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { MobileAwards } from '~/components/achievement/mobile-awards'
import { MobileTrack } from '~/components/achievement/track-progress'
import { MobileLessonList } from '~/components/lesson/mobile-lessons'
import { MobileSurveyList } from '~/components/survey/mobile-surveys'
import { MobileRouteError, MobileSessionShell } from '~/components/tms/mobile-shell'
import { TokenEntry, TokenForm } from '~/components/tms/token-entry'
import { OfflineTabs } from '~/components/tms/offline-tasks'
import { Icon } from '~/components/ui/icon'
import { realmQuery, visualizePath, withQuery } from '~/lib/mobile-query'
import { dateTimeFormat } from '~/lib/format'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, publicApiAction } from '~/server/api-action.server'
import { clearMobileCookie, mobileApi, mobileSignin, mobileSignout, mobileToken, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'
import tmsStyles from '~/styles/mobile-tms.css?url'
import { STUDENT_FILTERS } from '../../worker/lib/answer-schemas'
import { DELIVERED_STATES } from '../../worker/lib/answer-state'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: tmsStyles },
]
export const handle = { title: 'mobile.tms.title' }

/** The content tabs of seed 001 §2 (tasks, expired, lessons, delivered); lessons are the student's lessons (issue 18), surveys theirs (issue 19). */
const TABS = ['tasks', 'expired', 'lessons', 'surveys', 'delivered'] as const
/** The menu filters in the seed's order. */
const MENU = ['class', 'all', 'group', 'tasks', 'delivered', 'expired', 'pending'] as const satisfies readonly (typeof STUDENT_FILTERS)[number][]
const PAGE = 25

const ListQuery = v.object({
  tab: v.optional(v.fallback(v.picklist(TABS), 'tasks'), 'tasks'),
  filter: v.optional(v.fallback(v.picklist(STUDENT_FILTERS), 'all'), 'all'),
  offset: v.optional(v.fallback(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(100_000)), 0), '0'),
})

/**
 * GET /mobile/tms (public mobile-web, seed 000 §2.3, seed 001 §2; issue 17): the signed-in student's tasks — content
 * tabs (tasks under the menu filter, expired, lessons, delivered) — each with its date status, deadline in the
 * realm's time zone and the student's answer state; a token-protected task not yet opened asks its code. Without a
 * mobile session it shows the mobile sign-in (the same session as `/mobile/feed`).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const brand = { name: realm.config.name, logo_url: realm.config.logo_url }
  const q = v.parse(ListQuery, Object.fromEntries(new URL(request.url).searchParams))
  const base = { brand, timeZone: realm.config.time_zone || DEFAULT_TIME_ZONE, query: realmQuery(request), tab: q.tab, filter: q.filter }
  const noStore = { 'Cache-Control': 'no-store' }
  const session = await mobileUser(request, context, realm)
  if (session.state === 'none') return data({ ...base, state: 'signin' as const }, { headers: noStore })
  if (session.state === 'expired')
    return data({ ...base, state: 'signin' as const }, { headers: { ...noStore, 'Set-Cookie': await clearMobileCookie(request) } })
  const { api, me } = session
  // The student's awards (issue 19): a failure shows the section's error, never fails the page.
  // The student's tracks (issue 19): the same, a failure shows the section's error.
  const [awards, tracks] = await Promise.all([
    apiData(api.achievement.mine.$get()).then(
      (r) => r.items,
      () => null,
    ),
    apiData(api.achievement.track.mine.$get()).then(
      (r) => r.items,
      () => null,
    ),
  ])
  if (q.tab === 'lessons') {
    const lessons = await apiData(api.lesson.student.$get({ query: { limit: '100' } }))
    return data({ ...base, state: 'lessons' as const, me, lessons, awards, tracks }, { headers: noStore })
  }
  if (q.tab === 'surveys') {
    const surveys = await apiData(api.survey.student.$get({ query: { limit: '100' } }))
    return data({ ...base, state: 'surveys' as const, me, surveys, awards, tracks }, { headers: noStore })
  }
  // The tasks tab lists under the menu's filter; the expired and delivered tabs are those filters.
  const filter = q.tab === 'tasks' ? q.filter : q.tab
  const page = await apiData(api.tms['answer-student'].$get({ query: { filter, limit: String(PAGE), offset: String(q.offset) } }))
  return data({ ...base, state: 'list' as const, me, page, offset: q.offset, awards, tracks }, { headers: noStore })
}

const Intent = v.picklist(['signin', 'signout', 'open'])

export async function action({ request, context }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const params = new URL(request.url).searchParams
  const intent = v.safeParse(Intent, params.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  const query = realmQuery(request)
  const home = withQuery('/mobile/tms', query)

  if (intent.output === 'open') {
    // A token-protected task's first open: the API checks the code (token_required / token_invalid on the field).
    const taskId = params.get('task') ?? ''
    return publicApiAction(
      request,
      context,
      {
        schema: TokenForm,
        call: (api, { token }) => apiData(api.tms['answer-student'][':taskId'].open.$post({ param: { taskId }, json: token ? { token } : {} })),
        redirect: withQuery(`/mobile/tms/task/${encodeURIComponent(taskId)}/apply`, query),
      },
      mobileApi(request, context, realm, await mobileToken(request)),
    )
  }
  if (intent.output === 'signout') return mobileSignout(request, context, realm, home)
  return mobileSignin(request, context, { ...realm, code: realm.code }, withQuery('/mobile/tms', query, params.get('tab') ? `tab=${params.get('tab')}` : ''))
}

export default function MobileTmsRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <MobileSessionShell area="tms" page={d}>
      {d.state !== 'signin' ? (
        <>
          <p>{t('mobile.feed.hello', { name: d.me.name || d.me.nick })}</p>
          {/* Online: the server's list with its content tabs; offline: what this device holds (issue 17). */}
          <OfflineTabs
            query={d.query}
            nick={d.me.nick}
            timeZone={d.timeZone}
            delivered={d.state === 'list' ? d.page.items.filter((x) => x.answer_status && DELIVERED.has(x.answer_status)).map((x) => x.id) : []}
          >
            <Tabs />
            {d.state === 'lessons' ? (
              <MobileLessonList items={d.lessons.items} total={d.lessons.total} query={d.query} timeZone={d.timeZone} />
            ) : d.state === 'surveys' ? (
              <MobileSurveyList items={d.surveys.items} total={d.surveys.total} query={d.query} timeZone={d.timeZone} />
            ) : (
              <TaskList />
            )}
          </OfflineTabs>
          <MobileTrack items={d.tracks} query={d.query} />
          <MobileAwards items={d.awards} />
        </>
      ) : null}
    </MobileSessionShell>
  )
}

function Tabs() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <nav className="mtms-tabs" aria-label={t('mobile.tms.tabs')}>
      {TABS.map((tab) => (
        <Link key={tab} to={withQuery('/mobile/tms', d.query, `tab=${tab}`)} aria-current={d.tab === tab ? 'page' : undefined} className="mtms-tab">
          {t(`mobile.tms.tab.${tab}`)}
        </Link>
      ))}
    </nav>
  )
}

/** The menu filter of the tasks tab: a GET form (works without script; with script a choice applies at once). */
function FilterMenu() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const submit = useSubmit()
  const realm = new URLSearchParams(d.query).get('realm')
  return (
    <Form method="get" action="/mobile/tms" className="mtms-filter" onChange={(e) => submit(e.currentTarget)}>
      {realm ? <input type="hidden" name="realm" value={realm} /> : null}
      <input type="hidden" name="tab" value="tasks" />
      <label htmlFor="mtms-filter">{t('mobile.tms.filter')}</label>
      <select id="mtms-filter" name="filter" className="input" defaultValue={d.filter} key={d.filter}>
        {MENU.map((f) => (
          <option key={f} value={f}>
            {t(`mobile.tms.filter.${f}`)}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn">
          {t('mobile.tms.filter_apply')}
        </button>
      </noscript>
    </Form>
  )
}

function TaskList() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  if (d.state !== 'list') return null
  const { page } = d
  const more = d.offset + page.items.length < page.total
  const tabQuery = `tab=${d.tab}${d.tab === 'tasks' ? `&filter=${d.filter}` : ''}`
  return (
    <section aria-labelledby="mtms-list-title">
      {d.tab === 'tasks' ? <FilterMenu /> : null}
      <h2 id="mtms-list-title" className="mtms-count">
        {d.tab === 'tasks' ? t(`mobile.tms.filter.${d.filter}`) : t(`mobile.tms.tab.${d.tab}`)} · {t('mobile.tms.count', { count: page.total })}
      </h2>
      {page.items.length ? (
        <ul className="mtms-list">
          {page.items.map((task) => (
            <TaskCard key={task.id} task={task} />
          ))}
        </ul>
      ) : (
        <p className="card hint" role="status">
          {t('mobile.tms.empty')}
        </p>
      )}
      <nav className="feed-actions" aria-label={t('mobile.tms.title')}>
        {d.offset > 0 ? (
          <Link className="btn" to={withQuery('/mobile/tms', d.query, tabQuery)}>
            {t('mobile.tms.first')}
          </Link>
        ) : null}
        {more ? (
          <Link className="btn" to={withQuery('/mobile/tms', d.query, tabQuery, `offset=${d.offset + PAGE}`)}>
            {t('mobile.tms.more')}
          </Link>
        ) : null}
      </nav>
    </section>
  )
}

type Row = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'list' }>['page']['items'][number]

const EDITABLE = new Set(['draft', 'pending'])
const DELIVERED = new Set<string>(DELIVERED_STATES)

function TaskCard({ task }: { task: Row }) {
  const d = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation()
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: d.timeZone }).format(new Date(iso))
  const titleId = `mtms-task-${task.id}`
  const open = task.status === 'published'
  const state = task.answer_status ?? (open ? 'none' : 'expired')
  // Open or editable: the apply screen; a token task never opened asks its code first.
  const canApply = open && (!task.answer_status || EDITABLE.has(task.answer_status))
  const needsToken = canApply && task.token && !task.answer_status
  const apply = withQuery(`/mobile/tms/task/${encodeURIComponent(task.id)}/apply`, d.query)
  // A delivered answer opens its visualize screen (the expired variant once the task expired, seed 001 §2).
  const delivered = task.answer_id && task.answer_status && DELIVERED.has(task.answer_status)
  const result = withQuery(visualizePath(task.id, task.answer_id ?? '', task.status === 'expired'), d.query)
  return (
    <li className="card mtms-task" aria-labelledby={titleId} data-task={task.id}>
      <div className="mtms-task-head">
        <h3 id={titleId}>{task.title}</h3>
        <span className={`badge mtms-status-${task.status}`}>{t(`tms.status.${task.status}`)}</span>
      </div>
      <p className="mtms-meta">
        <span>{t(`tms.kind.${task.kind}`)}</span>
        <span>{t('mobile.tms.deadline', { date: when(task.expire_at) })}</span>
        <span className="mtms-state" data-state={state}>
          {t(`mobile.tms.state.${state}`)}
        </span>
        {task.delivered_at ? (
          <span>
            {t('mobile.tms.delivered_at', { date: when(task.delivered_at) })}
            {task.delivery ? ` (${t(task.delivery === 'delayed' ? 'mobile.tms.delayed' : 'mobile.tms.on_time')})` : ''}
          </span>
        ) : null}
        {task.token ? (
          <span>
            <Icon name="key" /> {t('mobile.tms.token_protected')}
          </span>
        ) : null}
      </p>
      {needsToken ? (
        <TokenEntry taskId={task.id} action={withQuery('/mobile/tms', d.query, 'intent=open', `task=${encodeURIComponent(task.id)}`)} timeZone={d.timeZone} />
      ) : canApply ? (
        <Link className="btn btn-primary" to={apply}>
          {t(task.answer_status ? 'mobile.tms.continue' : 'mobile.tms.open')}
        </Link>
      ) : delivered ? (
        <Link className="btn" to={result}>
          <Icon name="eye" /> {t('mobile.tms.see_result')}
        </Link>
      ) : null}
    </li>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.tms.load_error" />
