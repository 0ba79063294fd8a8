import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useFetcher, useLoaderData, useSubmit, type ShouldRevalidateFunction } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { MobileRouteError, MobileShell } from '~/components/tms/mobile-shell'
import { TokenEntry } from '~/components/tms/token-entry'
import { OfflineApplyPanel, useOfflineApply } from '~/components/tms/offline-apply'
import { openCheckMarks, type CheckMark, type CheckReply } from '~/components/tms/online-check'
import { EssayField, FillLetters, FillWords, WordSequence } from '~/components/tms/answer-fields'
import { GameAnswer, MediaAnswer, type AnswerRoutes } from '~/components/tms/answer-media'
import { TaskTimer, taskDeadline } from '~/components/tms/answer-timer'
import { MediaView } from '~/components/tms/media-view'
import { RichText } from '~/components/tms/rich-text'
import { ConfirmDialog } from '~/components/ui/dialog'
import { formAnswers } from '~/lib/answer-form'
import { essayIssues } from '#shared/essay-check'
import { Icon } from '~/components/ui/icon'
import { realmQuery, withQuery } from '~/lib/mobile-query'
import { errorText } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import type { FileKind } from '#shared/schemas/file'
import { RealmApiError, apiData } from '~/server/api.server'
import { mobileSigninState, mobileApi, mobileSignin, mobileSignout, mobileToken, mobileUser } from '~/server/mobile-session.server'
import { setFlash } from '~/server/flash.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'
import tmsStyles from '~/styles/mobile-tms.css?url'
import { DraftInput, type AnswerValue } from '../../worker/lib/answer-schemas'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: tmsStyles },
]
export const handle = { title: 'pages.public.mobile.tms.apply' }

/** The question types this screen answers; the others are shown with a note (not answerable on the web yet). */
const ANSWERED = new Set([
  'single',
  'true_false',
  'multi',
  'text',
  'text_ai',
  'fill_letters',
  'fill_words',
  'cloud',
  'order_sentences',
  'essay',
  'media',
  'game',
])
const INFORMATIVE = new Set(['info', 'section'])
/** Auto draft (a model's `auto_draft` flag): the answers are saved this long after the student's last change. */
const AUTO_DRAFT_DELAY_MS = 15_000

/**
 * GET /mobile/tms/task/{taskId}/apply (public mobile-web; issue 17): opens the task (`POST …/open`: the first open
 * starts its time and signs the receipt) and shows its questions — choices, written answers, fill letters, fill words,
 * cloud, order sentences and the typed essay (answer-fields.tsx) — with the student's draft, the clock of a timed task
 * (answer-timer.tsx: warnings, delivery at the timeout) and the model's auto draft; "save draft" and "deliver" (after
 * the in-page confirmation) post to the API. A token-protected task never opened asks its code; a task that cannot
 * be answered says why in words.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const brand = { name: realm.config.name, logo_url: realm.config.logo_url }
  const base = { brand, query: realmQuery(request), taskId: params.taskId ?? '', timeZone: realm.config.time_zone || DEFAULT_TIME_ZONE }
  const noStore = { 'Cache-Control': 'no-store' }
  const session = await mobileUser(request, context, realm)
  if (session.state !== 'user') return mobileSigninState(request, base, session.state === 'expired')
  try {
    const opened = await apiData(session.api.tms['answer-student'][':taskId'].open.$post({ param: { taskId: base.taskId }, json: {} }))
    // A new device answer id per screen: a delivery posted twice from it counts once (answer_already_registered).
    return data({ ...base, state: 'task' as const, opened, answerId: crypto.randomUUID(), nick: session.me.nick }, { headers: noStore })
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    if (err.status >= 500) throw err
    // A token-protected task opened by its address for the first time: the screen asks its code.
    if (err.errors.some((e) => e.cause === 'token_required')) return data({ ...base, state: 'token' as const }, { headers: noStore })
    return data({ ...base, state: 'refused' as const, errors: err.errors }, { headers: noStore })
  }
}

/** An automatic draft does not reload the screen's data (the open answers the same receipt; the form keeps its state). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.includes('auto=1') || formAction?.includes('intent=check') ? false : defaultShouldRevalidate

const Intent = v.picklist(['signin', 'signout', 'draft', 'deliver', 'check'])

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const query = realmQuery(request)
  const taskId = params.taskId ?? ''
  const here = withQuery(`/mobile/tms/task/${encodeURIComponent(taskId)}/apply`, query)
  const intent = v.safeParse(Intent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  if (intent.output === 'signin') return mobileSignin(request, context, { ...realm, code: realm.code }, here)
  if (intent.output === 'signout') return mobileSignout(request, context, realm, withQuery('/mobile/tms', query))
  const form = await request.formData()
  if (intent.output === 'check') return onlineCheck(request, context, realm, taskId, form)
  const body = v.safeParse(DraftInput, { answer_id: form.get('answer_id'), receipt: form.get('receipt'), answers: formAnswers(form) })
  if (!body.success)
    return data({ errors: [{ field: 'answers', cause: 'invalid', value: null, message: 'mobile.tms.apply.invalid' }] as ErrorItem[] }, { status: 400 })
  const api = mobileApi(request, context, realm, await mobileToken(request))
  const call = api.tms['answer-student'][':taskId']
  // An automatic draft (the model's auto_draft) answers in place: no flash, no redirect.
  const auto = intent.output === 'draft' && new URL(request.url).searchParams.get('auto') === '1'
  try {
    if (intent.output === 'draft') await apiData(call.draft.$put({ param: { taskId }, json: body.output }))
    else await apiData(call.deliver.$post({ param: { taskId }, json: body.output }))
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    return data({ errors: err.errors, auto }, { status: err.status })
  }
  if (auto) return data({ autosaved: new Date().toISOString() })
  if (intent.output === 'draft') throw redirect(here, { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'mobile.tms.apply.saved' }) } })
  throw redirect(withQuery('/mobile/tms', query, 'tab=delivered'), {
    headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'mobile.tms.apply.delivered' }) },
  })
}

/** `?intent=check`: the Online Check of one essay's text (the API validates it); answers in place, as a fetcher's data. */
async function onlineCheck(request: Request, context: ActionFunctionArgs['context'], realm: Parameters<typeof mobileApi>[2], taskId: string, form: FormData) {
  const question_id = String(form.get('question_id') ?? '')
  const text = String(form.get('text') ?? '')
  const api = mobileApi(request, context, realm, await mobileToken(request))
  try {
    const check = await apiData(api.tms['answer-student'][':taskId'].check.$post({ param: { taskId }, json: { question_id, text } }))
    return data({ check: { ...check, question_id, text } } satisfies CheckReply)
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    return data({ question_id, errors: err.errors } satisfies CheckReply, { status: err.status })
  }
}

type Question = { id: string; type: string; statement: string; score?: number; options?: unknown; media_type?: string; media_url?: string }
type Opt = { id: string; statement: string }

export default function MobileTmsApplyRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const here = withQuery(`/mobile/tms/task/${encodeURIComponent(d.taskId)}/apply`, d.query)
  return (
    <MobileShell
      start={
        <Link to={withQuery('/mobile/tms', d.query)} className="btn" aria-label={t('mobile.tms.apply.back')}>
          {t('mobile.tms.title')}
        </Link>
      }
      title={d.state === 'task' ? d.opened.task.title : t('pages.public.mobile.tms.apply')}
    >
      {d.state === 'signin' ? <MobileSigninForm action={withQuery(here, 'intent=signin')} title={t('mobile.tms.signin_title')} /> : null}
      {d.state === 'refused' ? (
        <div className="card" role="alert">
          {d.errors.map((e, i) => (
            <p key={i}>{errorText(t, e)}</p>
          ))}
          <Link className="btn btn-primary" to={withQuery('/mobile/tms', d.query)}>
            {t('mobile.tms.apply.back')}
          </Link>
        </div>
      ) : null}
      {d.state === 'token' ? (
        <div className="card">
          <p>{t('answer.error.token_required')}</p>
          <TokenEntry
            taskId={d.taskId}
            action={withQuery('/mobile/tms', d.query, 'intent=open', `task=${encodeURIComponent(d.taskId)}`)}
            timeZone={d.timeZone}
          />
        </div>
      ) : null}
      {d.state === 'task' ? <TaskForm here={here} /> : null}
    </MobileShell>
  )
}

type Phase = 'idle' | 'confirm' | 'essay'

function TaskForm({ here }: { here: string }) {
  const d = useLoaderData<typeof loader>()
  const answer = useActionData<{ errors: ErrorItem[] }>()
  const { t, i18n } = useTranslation()
  const submit = useSubmit()
  const autoDraft = useFetcher<typeof action>()
  const formRef = useRef<HTMLFormElement>(null)
  const [phase, setPhase] = useState<Phase>('idle')
  const [local, setLocal] = useState<string | null>(null)
  const [timedOut, setTimedOut] = useState(false)
  const [changes, setChanges] = useState(0)
  // The Online Check's last marks per essay: they join the device's slips in the delivery's confirmation.
  const [checkMarks, setCheckMarks] = useState<Record<string, CheckMark[]>>({})
  // The server's clock minus the device's, measured once when the screen is shown (the open's server_time).
  const [measuredOffsetMs] = useState(() => (d.state === 'task' ? Date.parse(d.opened.server_time) - Date.now() : 0))
  const opened = d.state === 'task' ? d.opened : null
  // Offline use (app/components/tms/offline-apply.tsx): answers kept on the device, the delivery queued offline.
  const offline = useOfflineApply(
    { query: d.query, nick: d.state === 'task' ? d.nick : '', taskId: d.taskId, opened, measuredOffsetMs, form: formRef },
    changes,
  )
  const offsetMs = offline.offsetMs
  const locked = timedOut || offline.queued
  const needOnline = () => setLocal(t('mobile.tms.offline.need_online'))
  const questions = (opened?.questions ?? []) as Question[]
  const deliverUrl = withQuery(here, 'intent=deliver')
  // The task's upload and transcription routes (answer-media.tsx: media answers, an essay's photos).
  const taskPath = `/mobile/tms/task/${encodeURIComponent(d.taskId)}`
  const routes: AnswerRoutes = { file: withQuery(`${taskPath}/file`, d.query), transcribe: withQuery(`${taskPath}/transcribe`, d.query) }
  const answered = () => (formRef.current ? Object.keys(formAnswers(new FormData(formRef.current))).length > 0 : false)
  const changed = () => {
    setLocal(null)
    setChanges((c) => c + 1)
  }

  // Auto draft: a while after the last change, when something is answered and the time is not over.
  useEffect(() => {
    if (!opened?.task.auto_draft || !changes || timedOut || !offline.online) return
    const timer = setTimeout(() => {
      if (!formRef.current || !answered()) return
      autoDraft.submit(new FormData(formRef.current), { method: 'post', action: withQuery(here, 'intent=draft', 'auto=1') })
    }, AUTO_DRAFT_DELAY_MS)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs per change; the fetcher and form are stable
  }, [changes, timedOut])

  if (d.state !== 'task' || !opened) return null
  const saved = (offline.restored ?? opened.answer?.answers ?? {}) as Record<string, AnswerValue>
  const missing = [...new Set(questions.filter((q) => !ANSWERED.has(q.type) && !INFORMATIVE.has(q.type)).map((q) => q.type))]
  const errorsOf = (id: string) => (answer?.errors ?? []).filter((e) => e.field === `answers.${id}`)
  const general = (answer?.errors ?? []).filter((e) => !e.field.startsWith('answers.'))
  const autoData = autoDraft.data as { autosaved?: string; errors?: ErrorItem[] } | undefined
  const timed = opened.task.show_timer || opened.task.max_execution_time > 0
  const deadline = taskDeadline({ openedAt: opened.opened_at, expireAt: opened.task.expire_at, maxMinutes: opened.task.max_execution_time })

  const deliverNow = async () => {
    setPhase('idle')
    if (!formRef.current || (await offline.deliverOffline(new FormData(formRef.current), needOnline))) return
    submit(formRef.current, { method: 'post', action: deliverUrl })
  }
  /** The essays still holding slips the device finds: the delivery asks again while there are any. */
  const essayProblems = () => {
    if (!formRef.current) return []
    const form = new FormData(formRef.current)
    return questions.flatMap((q, i) => {
      if (q.type !== 'essay') return []
      const text = String(form.get(`q.text.${q.id}`) ?? '')
      const count = essayIssues(text).length + openCheckMarks(checkMarks[q.id] ?? [], text).length
      return count ? [{ n: i + 1, count }] : []
    })
  }
  const problems = phase === 'essay' ? essayProblems() : []
  const minutes = opened.task.min_execution_time
  const maxMinutes = opened.task.max_execution_time

  return (
    <>
      {minutes || maxMinutes ? (
        <p className="hint mtms-limits">
          {[minutes ? t('mobile.tms.apply.min_time', { count: minutes }) : '', maxMinutes ? t('mobile.tms.apply.max_time', { count: maxMinutes }) : '']
            .filter(Boolean)
            .join(' · ')}
        </p>
      ) : null}
      <OfflineApplyPanel offline={offline} page={here} list={withQuery('/mobile/tms', d.query)} opened={opened} timeZone={d.timeZone} />
      <Form ref={formRef} method="post" action={withQuery(here, 'intent=draft')} className="mtms-apply" noValidate onChange={changed}>
        <input type="hidden" name="answer_id" value={d.answerId} />
        <input type="hidden" name="receipt" value={opened.receipt} />
        {opened.answer ? <p className="hint">{t(`mobile.tms.state.${opened.answer.status}`)}</p> : null}
        {general.length ? (
          <div className="card error" role="alert">
            {general.map((e, i) => (
              <p key={i}>{errorText(t, e)}</p>
            ))}
          </div>
        ) : null}
        {missing.length ? (
          <p className="card hint" role="status">
            {t('mobile.tms.apply.types_missing', { types: missing.map((type) => t(`tms.type.${type}`)).join(', ') })}
          </p>
        ) : null}
        <fieldset className="mtms-all" disabled={locked} key={offline.restored ? 'device' : 'server'}>
          <legend className="visually-hidden">{opened.task.title}</legend>
          <ol className="mtms-questions">
            {questions.map((q, i) => (
              <QuestionField
                key={q.id}
                q={q}
                n={i + 1}
                saved={saved[q.id]}
                errors={errorsOf(q.id)}
                disabled={locked}
                onChange={changed}
                routes={routes}
                transcription={opened.task.transcription}
                check={{ action: withQuery(here, 'intent=check'), onMarks: (marks) => setCheckMarks((all) => ({ ...all, [q.id]: marks })) }}
              />
            ))}
          </ol>
        </fieldset>
        {/* Kept in view at the bottom of the phone: the clock, its warnings and the actions. */}
        <div className="mtms-footer">
          {timed ? (
            <TaskTimer
              deadline={deadline}
              offsetMs={offsetMs}
              show={opened.task.show_timer}
              onTimeout={(already) => {
                // Time is over: what is answered is delivered as it is (no confirmation: a draft is no longer accepted);
                // with nothing answered, the screen only says the time is over. A screen opened after the time (a
                // reload, an answer sent back for adjustments) only locks: the student did nothing in this time.
                const form = formRef.current ? new FormData(formRef.current) : null
                setPhase('idle')
                setTimedOut(true)
                if (!already && form && Object.keys(formAnswers(form)).length)
                  void offline.deliverOffline(form, needOnline).then((queued) => queued || submit(form, { method: 'post', action: deliverUrl }))
              }}
            />
          ) : null}
          {local ? (
            <p className="error" role="alert">
              {local}
            </p>
          ) : null}
          <p className="hint" role="status">
            {autoDraft.state !== 'idle'
              ? t('mobile.tms.apply.autosaving')
              : autoData?.autosaved
                ? t('mobile.tms.apply.autosaved', {
                    time: new Date(autoData.autosaved).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' }),
                  })
                : autoData?.errors
                  ? t('mobile.tms.apply.autosave_failed', { reason: autoData.errors.map((e) => errorText(t, e)).join(' ') })
                  : ''}
          </p>
          <div className="form-actions">
            <button
              type="submit"
              className="btn"
              disabled={locked}
              onClick={(e) => {
                if (answered() && navigator.onLine) return
                e.preventDefault()
                // Without network a downloaded task's answers are already kept on the device at every change.
                setLocal(t(!answered() ? 'answer.error.no_answer' : offline.record ? 'mobile.tms.offline.kept' : 'error.http.offline'))
              }}
            >
              <Icon name="check" /> {t('mobile.tms.apply.save_draft')}
            </button>
            <button
              type="submit"
              className="btn btn-primary"
              formAction={deliverUrl}
              disabled={locked}
              onClick={(e) => {
                // With script, the in-page confirmation first (without it, the button delivers at once).
                e.preventDefault()
                if (!answered()) return setLocal(t('answer.error.no_answer'))
                setPhase('confirm')
              }}
            >
              <Icon name="send" /> {t('mobile.tms.apply.deliver')}
            </button>
          </div>
        </div>
      </Form>
      {/* One dialog through both steps: closing one and opening another would read the close as a cancel. */}
      <ConfirmDialog
        open={phase !== 'idle'}
        title={t(phase === 'essay' ? 'mobile.tms.apply.essay_confirm_title' : 'mobile.tms.apply.confirm_title')}
        message={
          phase === 'essay' ? (
            <>
              <p>{t('mobile.tms.apply.essay_confirm')}</p>
              <ul>
                {problems.map((p) => (
                  <li key={p.n}>{t('mobile.tms.apply.essay_confirm_item', { n: p.n, count: p.count })}</li>
                ))}
              </ul>
            </>
          ) : (
            t('mobile.tms.apply.confirm')
          )
        }
        confirmLabel={t(phase === 'essay' ? 'mobile.tms.apply.deliver_anyway' : 'mobile.tms.apply.deliver')}
        cancelLabel={t(phase === 'essay' ? 'mobile.tms.apply.review_essay' : 'mobile.tms.apply.keep_answering')}
        onCancel={() => setPhase('idle')}
        onConfirm={() => (phase === 'confirm' && essayProblems().length ? setPhase('essay') : void deliverNow())}
      />
    </>
  )
}

type Words = { items?: ({ type: 'text'; value: string } | { type: 'gap' })[]; words?: string[]; mode?: string; sentences?: string[] }

function QuestionField({
  q,
  n,
  saved,
  errors,
  disabled,
  onChange,
  routes,
  transcription,
  check,
}: {
  q: Question
  n: number
  saved?: AnswerValue
  errors: ErrorItem[]
  disabled: boolean
  onChange: () => void
  routes: AnswerRoutes
  /** Who transcribes essay photos when the model takes them (`essay_transcription`); null: essays are typed only. */
  transcription: 'vision' | 'device' | null
  check: { action: string; onMarks: (marks: CheckMark[]) => void }
}) {
  const { t } = useTranslation()
  const statementId = `mtms-q-${q.id}`
  const errorId = errors.length ? `mtms-q-${q.id}-error` : undefined
  const error = errors.length ? (
    <p className="error" id={errorId} role="alert">
      {errors.map((e) => errorText(t, e)).join(' ')}
    </p>
  ) : null
  const media = q.media_type && q.media_url ? <MediaView type={q.media_type} url={q.media_url} /> : null
  if (INFORMATIVE.has(q.type))
    return (
      <li className={`card mtms-question mtms-info${q.type === 'section' ? ' mtms-section' : ''}`}>
        <RichText html={q.statement} />
        {media}
      </li>
    )
  const options = Array.isArray(q.options) ? (q.options as Opt[]) : []
  const o = (q.options && !Array.isArray(q.options) ? q.options : {}) as Words & Record<string, unknown>
  const common = { id: q.id, n, disabled, onChange }
  const body = () => {
    switch (q.type) {
      case 'single':
      case 'true_false':
        return options.map((x) => (
          <label key={x.id} className="mtms-option">
            <input type="radio" name={`q.option.${q.id}`} value={x.id} defaultChecked={saved?.option === x.id} />
            <RichText html={x.statement} />
          </label>
        ))
      case 'multi':
        return options.map((x) => (
          <label key={x.id} className="mtms-option">
            <input type="checkbox" name={`q.options.${q.id}`} value={x.id} defaultChecked={saved?.options?.includes(x.id)} />
            <RichText html={x.statement} />
          </label>
        ))
      case 'text':
      case 'text_ai':
        return (
          <label className="mtms-text">
            <span className="visually-hidden">{t('mobile.tms.apply.your_answer', { n })}</span>
            <textarea
              className="input"
              name={`q.text.${q.id}`}
              rows={5}
              defaultValue={saved?.text ?? ''}
              aria-label={t('mobile.tms.apply.your_answer', { n })}
            />
          </label>
        )
      case 'fill_letters':
        return <FillLetters {...common} question={String(o.question ?? '')} length={Number(o.length ?? 0)} initial={saved?.text ?? ''} />
      case 'fill_words':
        return <FillWords {...common} items={o.items ?? []} words={o.words ?? []} mode={o.mode ?? 'select'} initial={saved?.words ?? []} />
      case 'cloud':
        return <WordSequence {...common} kind="cloud" bank={o.words ?? []} initial={saved?.words ?? []} />
      case 'order_sentences':
        return <WordSequence {...common} kind="order" bank={o.sentences ?? []} initial={saved?.words ?? []} />
      case 'essay':
        return (
          <EssayField
            {...common}
            supportText={String(o.support_text ?? '')}
            min={Number(o.min_word_count ?? 0)}
            max={Number(o.max_word_count ?? 0)}
            unit={o.text_count_unit === 'line' ? 'line' : 'word'}
            initial={saved?.text ?? ''}
            photos={
              transcription
                ? { id: q.id, n, routes, mode: transcription, language: String(o.language ?? ''), initial: saved?.files ?? [], disabled, onChange }
                : undefined
            }
            check={check}
          />
        )
      case 'media':
        return <MediaAnswer {...common} routes={routes} accept={(o.accept as FileKind[] | undefined) ?? []} initial={saved?.files ?? []} />
      case 'game':
        return <GameAnswer {...common} url={String(o.url ?? '')} initial={saved?.text ?? ''} />
      default:
        return <p className="hint">{t('mobile.tms.apply.type_unavailable')}</p>
    }
  }
  return (
    <li className="card mtms-question" data-question={q.id} data-type={q.type}>
      <fieldset aria-labelledby={statementId} aria-describedby={errorId} aria-invalid={errors.length ? true : undefined}>
        <div id={statementId} className="mtms-statement">
          <span className="hint">
            {t('mobile.tms.apply.question', { n })} · {t(`tms.type.${q.type}`)}
            {q.score ? ` · ${t('mobile.tms.apply.score', { count: q.score })}` : ''}
          </span>
          <RichText html={q.statement} />
        </div>
        {media}
        {body()}
        {error}
      </fieldset>
    </li>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.tms.apply.load_error" />
