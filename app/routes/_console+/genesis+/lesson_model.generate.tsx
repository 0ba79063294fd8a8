import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData, useSearchParams } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { QuestionPairList } from '~/components/lesson/question-pairs'
import { RouteError } from '~/components/shell/route-error'
import { ConfirmDialog } from '~/components/ui/dialog'
import { GenesisHeader } from '~/components/genesis/header'
import { GenesisSources, genesisShouldRevalidate, useGenesisSources } from '~/components/genesis/sources'
import { useClock } from '~/components/ui/clock'
import { formatTime } from '~/lib/format'
import { GENERATED_KINDS, SETTING_OF, type GenesisJob, type GenesisJobSummary } from '#shared/schemas/lesson/genesis'
import type { ErrorItem } from '#shared/schemas/error'
import { generationAction, lessonGenerationData } from './__genesis.server'

export const handle = { title: 'pages.genesis.lesson_model' }

export const loader = ({ request, context }: LoaderFunctionArgs) => lessonGenerationData(request, context)
export const action = ({ request, context }: ActionFunctionArgs) => generationAction(request, context, 'genesis.lesson_model')
export const shouldRevalidate = genesisShouldRevalidate

type Answer = { ok: true; job: GenesisJob } | { ok: false; errors: ErrorItem[] }

/**
 * genesis/lesson_model/generate (issue 18): sources, the contents with their configurations and prices, the total
 * confirmed in a dialog, then the job's progress per content (the page asks the job to run its next content until it
 * ends), cancellable; the result shows the generated lesson. The job's id is kept in the address (`?job=`): a reload,
 * or a job picked from the user's recent ones, shows it again and resumes a running one.
 */
export default function LessonGenerateRoute() {
  const options = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<Answer>()
  const activated = GENERATED_KINDS.filter((k) => options.settings.activate[SETTING_OF[k]])
  const src = useGenesisSources()
  const [chosen, setChosen] = useState<Record<string, boolean>>(() => Object.fromEntries(activated.map((k) => [k, true])))
  const [configs, setConfigs] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      activated.map((k) => [k, options.settings.default_config[k] ?? options.configs.find((c) => c.type === k && c.default_selected)?.id ?? '']),
    ),
  )
  const [confirming, setConfirming] = useState(false)
  const [key, setKey] = useState(() => crypto.randomUUID())
  const [job, setJob] = useState<GenesisJob | null>(options.job)
  const [errors, setErrors] = useState<ErrorItem[]>([])
  const [, setSearchParams] = useSearchParams()

  // The job the address names (after a reload, a recent job picked, or "new generation"): shown, and resumed if running.
  useEffect(() => {
    setJob(options.job)
    // Back to the form: the next generation is a new request (its own idempotency key).
    if (!options.job) setKey(crypto.randomUUID())
  }, [options.job])

  const kinds = activated.filter((k) => chosen[k] && (k !== 'narrative' || chosen.slide))
  const total = kinds.reduce((n, k) => n + options.prices[k], 0)
  const { sources, title, language } = src

  useEffect(() => {
    const d = fetcher.data
    if (!d || fetcher.state !== 'idle') return
    if (d.ok) {
      setJob(d.job)
      setErrors([])
      // A new job goes into the address, so a reload comes back to it.
      if (new URLSearchParams(window.location.search).get('job') !== d.job.id) setSearchParams({ job: d.job.id }, { replace: true, preventScrollReset: true })
    } else setErrors(d.errors)
  }, [fetcher.data, fetcher.state, setSearchParams])

  // While the job runs, ask it to run its next content (one request per content: the progress is live).
  useEffect(() => {
    if (!job || job.status !== 'running' || fetcher.state !== 'idle') return
    const timer = setTimeout(() => fetcher.submit({ intent: 'run', job: job.id }, { method: 'post', encType: 'application/json' }), 300)
    return () => clearTimeout(timer)
  }, [job, fetcher])

  const start = () => {
    setConfirming(false)
    fetcher.submit(
      {
        intent: 'start',
        body: {
          title,
          language,
          sources,
          idempotency_key: key,
          contents: kinds.map((k) => ({ kind: k, config_id: configs[k] || null, confirm_points: options.prices[k] })),
        },
      },
      { method: 'post', encType: 'application/json' },
    )
  }
  const busy = fetcher.state !== 'idle'

  return (
    <>
      <GenesisHeader title={t('pages.genesis.lesson_model')} engine={options.engine} errors={errors} />
      {options.job_missing && (
        <p role="alert" className="form-errors">
          {t('genesis.error.job_not_found')}
        </p>
      )}
      {job && (
        <p>
          <Link to="." className="btn">
            {t('genesis.new_generation')}
          </Link>
        </p>
      )}
      {!job && (
        <form
          className="form-grid"
          onSubmit={(e) => {
            e.preventDefault()
            setConfirming(true)
          }}
        >
          <GenesisSources s={src} lessons={options.lessons} />
          <fieldset>
            <legend>{t('genesis.contents')}</legend>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t('genesis.content')}</th>
                  <th scope="col">{t('genesis.config')}</th>
                  <th scope="col">{t('genesis.price')}</th>
                </tr>
              </thead>
              <tbody>
                {activated.map((k) => (
                  <tr key={k}>
                    <td>
                      <label>
                        <input
                          type="checkbox"
                          checked={!!chosen[k]}
                          disabled={k === 'narrative' && !chosen.slide}
                          onChange={(e) => setChosen({ ...chosen, [k]: e.target.checked })}
                        />{' '}
                        {t(`genesis.kind.${k}`)}
                      </label>
                    </td>
                    <td>
                      <select
                        aria-label={t('genesis.config_of', { kind: t(`genesis.kind.${k}`) })}
                        value={configs[k] ?? ''}
                        disabled={!options.settings.allow_custom[SETTING_OF[k]]}
                        onChange={(e) => setConfigs({ ...configs, [k]: e.target.value })}
                      >
                        <option value="">{t('genesis.config_default')}</option>
                        {options.configs
                          .filter((c) => c.type === k)
                          .map((c) => (
                            <option key={c.id} value={c.id}>
                              {c.title}
                            </option>
                          ))}
                      </select>
                    </td>
                    <td>{t('genesis.points', { count: options.prices[k] })}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={2}>
                    {t('genesis.total')}
                  </th>
                  <td data-testid="genesis-total">{t('genesis.points', { count: total })}</td>
                </tr>
              </tfoot>
            </table>
          </fieldset>
          <div className="form-actions">
            <button type="submit" className="btn primary" disabled={busy || !kinds.length || !sources.length}>
              {t('genesis.generate')}
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('genesis.confirm_title')}
        message={t('genesis.confirm_message', { count: total })}
        confirmLabel={t('genesis.confirm')}
        cancelLabel={t('genesis.cancel')}
        onConfirm={start}
        onCancel={() => setConfirming(false)}
      />
      {job && (
        <JobProgress
          job={job}
          busy={busy}
          onCancel={() => fetcher.submit({ intent: 'cancel', job: job.id }, { method: 'post', encType: 'application/json' })}
          onOpen={() => fetcher.submit({ intent: 'lesson', job: job.id }, { method: 'post', encType: 'application/json' })}
        />
      )}
      <RecentJobs jobs={options.recent} current={job?.id ?? null} />
    </>
  )
}

/** The user's latest generations (at most 10), each a link back to its progress or result. */
function RecentJobs({ jobs, current }: { jobs: GenesisJobSummary[]; current: string | null }) {
  const { t } = useTranslation()
  const clock = useClock()
  return (
    <section aria-labelledby="genesis-recent" className="genesis-recent">
      <h2 id="genesis-recent">{t('genesis.recent')}</h2>
      {jobs.length === 0 ? (
        <p className="muted">{t('genesis.recent_none')}</p>
      ) : (
        <ul>
          {jobs.map((j) => (
            <li key={j.id}>
              <Link to={`?job=${encodeURIComponent(j.id)}`} aria-current={j.id === current ? 'page' : undefined}>
                {j.title}
              </Link>{' '}
              — {t(`genesis.job.${j.status}`)} ({t('genesis.recent_progress', { ended: j.ended, count: j.contents })}) ·{' '}
              <time dateTime={j.created_at}>{formatTime(j.created_at, clock)}</time>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function JobProgress({ job, busy, onCancel, onOpen }: { job: GenesisJob; busy: boolean; onCancel: () => void; onOpen: () => void }) {
  const { t } = useTranslation()
  const done = job.contents.filter((c) => c.status !== 'pending' && c.status !== 'running').length
  return (
    <section aria-labelledby="genesis-progress">
      <h2 id="genesis-progress">{t(`genesis.job.${job.status}`)}</h2>
      <progress max={job.contents.length} value={done} aria-label={t('genesis.progress')} />
      <ul role="status" aria-live="polite" className="genesis-progress">
        {job.contents.map((c) => (
          <li key={c.kind} data-status={c.status}>
            {t(`genesis.progress_of.${c.kind}`)} — {t(`genesis.state.${c.status}`)}
            {c.error
              ? ` (${t(`genesis.failure.${c.error}`, { defaultValue: t('genesis.failure.ai_failed') })}${c.refunded ? `; ${t('genesis.refunded')}` : ''})`
              : ''}
          </li>
        ))}
      </ul>
      {job.status === 'running' && (
        <button type="button" className="btn" onClick={onCancel}>
          {t('genesis.cancel_job')}
        </button>
      )}
      {job.status !== 'running' && job.result ? (
        <p>
          <button type="button" className="btn primary" onClick={onOpen} disabled={busy} aria-busy={busy}>
            {busy ? t('genesis.opening_lesson') : t('genesis.open_lesson')}
          </button>
        </p>
      ) : null}
      {job.result && <LessonResult lesson={job.result} />}
    </section>
  )
}

function LessonResult({ lesson }: { lesson: NonNullable<GenesisJob['result']> }) {
  const { t } = useTranslation()
  const plain = (html: string) =>
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  return (
    <article aria-labelledby="genesis-result" className="genesis-result">
      <h2 id="genesis-result">{lesson.title}</h2>
      <p className="muted">{t('genesis.open_in_editor_note')}</p>
      {lesson.summary && (
        <section>
          <h3>{t('genesis.kind.summary')}</h3>
          {lesson.summary
            .split('</p>')
            .filter(Boolean)
            .map((p, i) => (
              <p key={i}>{plain(p)}</p>
            ))}
        </section>
      )}
      {lesson.class_plan?.html && (
        <section>
          <h3>
            {t('genesis.kind.class_plan')} ({lesson.class_plan.minutes} min)
          </h3>
          <p>{plain(lesson.class_plan.html)}</p>
        </section>
      )}
      {lesson.slides && (
        <section>
          <h3>{t('genesis.kind.slide')}</h3>
          <ol>
            {lesson.slides.map((s) => (
              <li key={s.id}>
                <strong>{plain((s.objects[0] as { html?: string } | undefined)?.html ?? '')}</strong>
                {s.narration && <p>{s.narration}</p>}
              </li>
            ))}
          </ol>
        </section>
      )}
      {lesson.question_pairs && (
        <section>
          <h3>{t('genesis.kind.question_pairs')}</h3>
          <QuestionPairList pairs={lesson.question_pairs} />
        </section>
      )}
      {lesson.questions && (
        <section>
          <h3>{t('genesis.kind.task')}</h3>
          <ol>
            {lesson.questions.map((q, i) => (
              <li key={i}>
                {t(`tms.type.${q.type}`)}: {plain(q.statement)}
              </li>
            ))}
          </ol>
        </section>
      )}
      {lesson.handout && (
        <details>
          <summary>{t('genesis.kind.handout')}</summary>
          <p>{plain(lesson.handout)}</p>
        </details>
      )}
    </article>
  )
}

export const ErrorBoundary = RouteError
