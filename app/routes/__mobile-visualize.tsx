import type { LinksFunction } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, RadioGroup, TextArea } from '~/components/form/kit'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { AnswerFiles, MarkedText, usePoints } from '~/components/tms/marked-text'
import { MobileRouteError, MobileShell } from '~/components/tms/mobile-shell'
import { RichText } from '~/components/tms/rich-text'
import { Icon } from '~/components/ui/icon'
import { dateTimeFormat } from '~/lib/format'
import { visualizePath, withQuery } from '~/lib/mobile-query'
import feedStyles from '~/styles/feed.css?url'
import tmsStyles from '~/styles/mobile-tms.css?url'
import { OpinionInput } from '../../worker/lib/answer-schemas'
import type { visualizeLoader } from './__mobile-visualize.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: tmsStyles },
]
export const handle = { title: 'pages.public.mobile.tms.visualize' }

type Data = ReturnType<typeof useLoaderData<typeof visualizeLoader>>
type View = Extract<Data, { state: 'answer' }>['view']
type Q = { id: string; type: string; statement: string; score?: number; options?: unknown }
type Given = { option?: string; options?: string[]; text?: string; words?: string[]; files?: string[] }

const INFORMATIVE = new Set(['info', 'section'])
/** Essays are graded out of 10 (seed 001 §9 "Essay rating shown out of 10"). */
const outOfTen = (score: number, max: number) => (max > 0 ? (score / max) * 10 : 0)

/**
 * `mobile/tms/task/{taskId}/{answerId}/visualize` and `mobile/tms/task/expired/{taskId}/{answerId}/visualize`
 * (seed 001 §2): the student's delivered answer question by question, and once the correction may be shown, the
 * score per question (essays also out of 10), the teacher's comments, final considerations and the AI comment with
 * its error marks; the student's opinion on the AI comment, sent once.
 */
export default function MobileVisualizeRoute() {
  const d = useLoaderData<typeof visualizeLoader>()
  const { t } = useTranslation()
  const back = withQuery('/mobile/tms', d.query, `tab=${d.expired ? 'expired' : 'delivered'}`)
  const here = withQuery(visualizePath(d.taskId, d.answerId, d.expired), d.query)
  return (
    <MobileShell
      start={
        <Link to={back} className="btn" aria-label={t('mobile.tms.apply.back')}>
          {t('mobile.tms.title')}
        </Link>
      }
      title={d.state === 'answer' ? d.view.task.title : t('pages.public.mobile.tms.visualize')}
      signout={d.state !== 'signin' ? withQuery(here, 'intent=signout') : undefined}
    >
      {d.state === 'signin' ? <MobileSigninForm action={withQuery(here, 'intent=signin')} title={t('mobile.tms.signin_title')} /> : null}
      {d.state === 'missing' ? (
        <div className="card" role="alert">
          <p>{t('answer.error.answer_not_found')}</p>
          <Link className="btn btn-primary" to={back}>
            {t('mobile.tms.apply.back')}
          </Link>
        </div>
      ) : null}
      {d.state === 'answer' ? <AnswerView view={d.view} here={here} /> : null}
    </MobileShell>
  )
}

function AnswerView({ view, here }: { view: View; here: string }) {
  const d = useLoaderData<typeof visualizeLoader>()
  const { t, i18n } = useTranslation()
  const points = usePoints()
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: d.timeZone }).format(new Date(iso))
  const { answer, task } = view
  const c = answer.correction
  const questions = (view.questions as Q[]).filter((q) => q.id)
  const given = answer.answers as Record<string, Given>
  const finalized = answer.status === 'finished' || answer.status === 'pending_agreement'
  const essay = task.kind === 'essay'
  return (
    <>
      <section className="card mtms-summary" aria-labelledby="mtms-summary-title">
        <h2 id="mtms-summary-title">{t('mobile.tms.visualize.summary')}</h2>
        <p className="mtms-meta">
          <span className="mtms-state" data-state={answer.status}>
            {t(`mobile.tms.state.${answer.status}`)}
          </span>
          {answer.delivered_at ? (
            <span>
              {t('mobile.tms.delivered_at', { date: when(answer.delivered_at) })}
              {answer.delivery ? ` (${t(answer.delivery === 'delayed' ? 'mobile.tms.delayed' : 'mobile.tms.on_time')})` : ''}
            </span>
          ) : null}
          {answer.duration_seconds !== null ? (
            <span>{t('mobile.tms.visualize.duration', { count: Math.max(1, Math.round(answer.duration_seconds / 60)) })}</span>
          ) : null}
        </p>
        {c ? (
          <p className="mtms-score" data-testid="total-score">
            <strong>{t('mobile.tms.visualize.score', { score: points(c.score), max: points(c.max_score) })}</strong>
            {essay && c.max_score > 0 ? <span> · {t('mobile.tms.visualize.grade', { grade: points(outOfTen(c.score ?? 0, c.max_score)) })}</span> : null}
          </p>
        ) : (
          <p className="hint" role="status">
            {answer.status === 'draft' || answer.status === 'pending' ? (
              <>
                {t('mobile.tms.visualize.not_delivered')}{' '}
                <Link to={withQuery(`/mobile/tms/task/${encodeURIComponent(task.id)}/apply`, d.query)}>{t('mobile.tms.continue')}</Link>
              </>
            ) : finalized && task.display_answer_at ? (
              t('mobile.tms.visualize.shown_from', { date: when(task.display_answer_at) })
            ) : (
              t('mobile.tms.visualize.in_review')
            )}
          </p>
        )}
      </section>
      {c?.final_considerations ? (
        <section className="card" aria-labelledby="mtms-final-title">
          <h2 id="mtms-final-title">{t('mobile.tms.visualize.final_considerations')}</h2>
          <p className="answer-text">{c.final_considerations}</p>
        </section>
      ) : null}
      {c?.ai_comment ? <AiComment correction={c} here={here} /> : null}
      <h2 className="mtms-count">{t('mobile.tms.visualize.answers')}</h2>
      {questions.length ? (
        <ol className="mtms-questions">
          {questions.map((q, i) => (
            <li key={q.id} className={`card mtms-question${INFORMATIVE.has(q.type) ? ' mtms-info' : ''}`} data-question={q.id} data-type={q.type}>
              <div className="mtms-statement">
                <span className="hint">
                  {t('mobile.tms.apply.question', { n: i + 1 })} · {t(`tms.type.${q.type}`)}
                </span>
                <RichText html={q.statement} />
              </div>
              {INFORMATIVE.has(q.type) ? null : (
                <>
                  <GivenAnswer q={q} a={given[q.id]} marks={[...(c?.marks[q.id] ?? []), ...(c?.teacher_marks[q.id] ?? [])]} />
                  {c?.skill_grades[q.id] ? (
                    <ul className="mtms-skills" aria-label={t('mobile.tms.visualize.skills')}>
                      {(view.essay_skills[q.id] ?? []).map((k) =>
                        c.skill_grades[q.id][k.id] === undefined ? null : (
                          <li key={k.id}>{t('mobile.tms.visualize.skill_grade', { name: k.name, grade: points(c.skill_grades[q.id][k.id]) })}</li>
                        ),
                      )}
                    </ul>
                  ) : null}
                  {c && typeof c.scores[q.id] === 'number' ? (
                    <p className="mtms-score">
                      {t('mobile.tms.visualize.question_score', { score: points(c.scores[q.id]), max: points(q.score ?? 0) })}
                      {q.type === 'essay' && q.score ? ` · ${t('mobile.tms.visualize.grade', { grade: points(outOfTen(c.scores[q.id], q.score)) })}` : ''}
                    </p>
                  ) : null}
                  {c?.comments[q.id] ? (
                    <p className="mtms-comment">
                      <strong>{t('mobile.tms.visualize.teacher_comment')}</strong> {c.comments[q.id]}
                    </p>
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="card hint" role="status">
          {t('mobile.tms.visualize.no_questions')}
        </p>
      )}
    </>
  )
}

/** The student's answer to a question, in words: the options chosen, the text (with the correction's marks), words, files. */
function GivenAnswer({ q, a, marks }: { q: Q; a: Given | undefined; marks: { category: string; excerpt: string; explanation: string }[] }) {
  const { t } = useTranslation()
  if (!a || (a.option === undefined && !a.options?.length && !a.text && !a.words?.some(Boolean) && !a.files?.length))
    return <p className="hint">{t('mobile.tms.visualize.not_answered')}</p>
  const opts = Array.isArray(q.options) ? (q.options as { id: string; statement: string }[]) : []
  const chosen = a.option !== undefined ? [a.option] : (a.options ?? [])
  return (
    <div className="mtms-given" aria-label={t('mobile.tms.visualize.your_answer')}>
      {chosen.length ? (
        <ul className="choice-list">
          {chosen.map((id) => (
            <li key={id} className="choice">
              <RichText html={opts.find((x) => x.id === id)?.statement ?? id} />
            </li>
          ))}
        </ul>
      ) : null}
      {a.text ? <MarkedText text={a.text} errors={marks} /> : null}
      {a.words?.length ? <p className="answer-text">{a.words.map((w) => w || '—').join(' · ')}</p> : null}
      <AnswerFiles files={a.files} />
    </div>
  )
}

/** The AI comment, and the student's opinion on it: a form until sent, then the opinion, locked (seed 001 §4). */
function AiComment({ correction, here }: { correction: NonNullable<View['answer']['correction']>; here: string }) {
  const d = useLoaderData<typeof visualizeLoader>()
  const { t, i18n } = useTranslation()
  const lastResult = useActionData()
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: d.timeZone }).format(new Date(iso))
  return (
    <section className="card mtms-ai" aria-labelledby="mtms-ai-title">
      <h2 id="mtms-ai-title">
        <Icon name="sparkle" /> {t('mobile.tms.visualize.ai_comment')}
      </h2>
      <p className="answer-text">{correction.ai_comment}</p>
      {correction.opinion ? (
        <div className="mtms-opinion" role="status" data-testid="opinion-sent">
          <p>
            <strong>{t('mobile.tms.visualize.your_opinion')}</strong> {t(`mobile.tms.visualize.opinion.${correction.opinion}`)}
            {correction.opinion_at ? ` · ${when(correction.opinion_at)}` : ''}
          </p>
          {correction.opinion_comment ? <p className="answer-text">{correction.opinion_comment}</p> : null}
          <p className="hint">
            <Icon name="check" /> {t('mobile.tms.visualize.opinion_locked')}
          </p>
        </div>
      ) : (
        <KitForm
          id="mtms-opinion"
          schema={OpinionInput}
          lastResult={lastResult}
          action={withQuery(here, 'intent=opinion')}
          timeZone={d.timeZone}
          submitLabel={t('mobile.tms.visualize.send_opinion')}
          submitIcon="send"
          labels={{ opinion: t('mobile.tms.visualize.opinion_label'), comment: t('mobile.tms.visualize.opinion_comment') }}
        >
          <RadioGroup
            name="opinion"
            label={t('mobile.tms.visualize.opinion_label')}
            hint={t('mobile.tms.visualize.opinion_hint')}
            options={[
              { value: 'agree', label: t('mobile.tms.visualize.opinion.agree') },
              { value: 'disagree', label: t('mobile.tms.visualize.opinion.disagree') },
            ]}
          />
          <TextArea name="comment" label={t('mobile.tms.visualize.opinion_comment')} rows={3} />
        </KitForm>
      )}
    </section>
  )
}

export const ErrorBoundary = () => <MobileRouteError message="mobile.tms.visualize.load_error" />
