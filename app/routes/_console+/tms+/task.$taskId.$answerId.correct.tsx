import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AdjustmentsInput, RevisionRequest, correctionSchema, correctionValues } from '#shared/schemas/tms/correction'
import { questionType, type QuestionType } from '#shared/schemas/tms/question-types'
import { KitForm, NumberInput, TextArea } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { AnswerStatus, CORRECTABLE, DeliveryBadge } from '~/components/tms/answer-badges'
import { formulaLinks } from '~/components/tms/formula-styles'
import { AnswerFiles, MarkedText, usePoints, type RevisionError } from '~/components/tms/marked-text'
import { RichText } from '~/components/tms/rich-text'
import { ZoneCaption, useClock } from '~/components/ui/clock'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { formatTime } from '~/lib/format'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { requireRoute } from '~/server/auth.server'
import { scoredQuestions } from './__correct'
import { correctAction, loadAnswer } from './__correct.server'
import { TeacherMarksField } from './__correct-marks'

export const links = formulaLinks

export const handle = { title: 'pages.tms.task.correct' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { answer } = await loadAnswer(request, context, params.taskId ?? '', params.answerId ?? '')
  const { realm } = await requireRoute(request, context, 'tms.task.correct')
  // The AI revision's attempt key: a resend of this page's request is the same revision (one debit).
  return { answer, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE, revisionKey: crypto.randomUUID() }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => correctAction(request, context, params.taskId ?? '', params.answerId ?? '')

type Detail = ReturnType<typeof useLoaderData<typeof loader>>['answer']
type Q = Detail['questions'][number]
type Given = { option?: string; options?: string[]; text?: string; words?: string[]; files?: string[] }

/**
 * `tms/task/{taskId}/{answerId}/correct` (seed 001 §2, §4 "Correction"): the student's answer question by question
 * with the automatic score, the teacher's score (valid only up to the question's score, on its step) and comment,
 * final considerations and the AI comment as the teacher edits it; save, finalize, or request adjustments (the
 * unsaved changes discarded, after a warning); the history of corrections.
 */
export default function CorrectRoute() {
  const { answer, timeZone, revisionKey } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  // Each form of the screen gets the action's answer only when it was the one submitted.
  const sent = (result as { initialValue?: { action?: unknown } } | undefined)?.initialValue?.action
  const resultOf = (action: string) => (sent === action || (action === 'save' && sent !== 'request_adjustments' && sent !== 'ai_revision') ? result : undefined)
  const lastResult = resultOf('save')
  const { t } = useTranslation()
  const points = usePoints()
  const clock = useClock()
  const navigation = useNavigation()
  const questions = useMemo(() => scoredQuestions(answer.questions, answer.essay_skills), [answer.questions, answer.essay_skills])
  const withAi = answer.ai_comment.trim() !== ''
  const schema = useMemo(() => correctionSchema(questions), [questions])
  const prepare = useMemo(() => correctionValues(questions, withAi), [questions, withAi])
  const open = answer.status === 'submitted' || answer.status === 'review'
  const given = answer.answers as Record<string, Given>
  const name = answer.nick
  const defaults = {
    scores: Object.fromEntries(questions.map((q) => [q.id, shown(answer.scores[q.id] ?? answer.auto_scores[q.id])])),
    comments: answer.comments,
    skill_grades: Object.fromEntries(
      Object.entries(answer.skill_grades).map(([id, grades]) => [id, Object.fromEntries(Object.entries(grades).map(([k, g]) => [k, shown(g)]))]),
    ),
    final_considerations: answer.final_considerations,
    ai_comment: answer.ai_comment,
  }
  function shown(v: number | undefined) {
    return typeof v === 'number' ? String(v).replace('.', t('correct.decimal_separator')) : ''
  }
  const byId = new Map(answer.questions.map((q) => [q.id ?? '', q]))
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('correct.title')}</h1>
          <p>
            {answer.task?.title} · {t('correct.performed_by', { name })} <AnswerStatus status={answer.status} /> <DeliveryBadge delivery={answer.delivery} />
          </p>
        </div>
        <Link to={`/tms/task/detail/${answer.task?.id ?? ''}`} className="btn">
          {t('correct.back_to_task')}
        </Link>
      </div>
      <section className="card" aria-labelledby="answer-facts">
        <h2 id="answer-facts">{t('correct.facts')}</h2>
        <dl className="facts">
          <dt>{t('correct.performed_by_label')}</dt>
          <dd>{name}</dd>
          <dt>{t('resources.tms_answer.fields.delivered_at')}</dt>
          <dd>{formatTime(answer.delivered_at, clock) || '—'}</dd>
          <dt>{t('correct.duration')}</dt>
          <dd>{answer.duration_seconds === null ? '—' : t('correct.minutes', { value: String(Math.round(answer.duration_seconds / 6) / 10) })}</dd>
          <dt>{t('correct.offline')}</dt>
          <dd>{t(answer.offline ? 'tms.yes' : 'tms.no')}</dd>
          <dt>{t('resources.tms_answer.fields.score')}</dt>
          <dd>{t('correct.score_of', { score: points(answer.score), max: points(answer.max_score) })}</dd>
          {answer.corrected_by ? (
            <>
              <dt>{t('correct.corrected_by')}</dt>
              <dd>{t('tms.task.created_by', { by: answer.corrected_by, at: formatTime(answer.corrected_at, clock) })}</dd>
            </>
          ) : null}
          {answer.opinion ? (
            <>
              <dt>{t('correct.opinion')}</dt>
              <dd>
                {t(`correct.opinion_${answer.opinion}`)}
                {answer.opinion_comment ? ` — ${answer.opinion_comment}` : ''}
              </dd>
            </>
          ) : null}
        </dl>
        <ZoneCaption label={(zone) => t('table.time_zone', { zone })} />
      </section>
      {!open ? (
        <p className="alert alert-info" role="status">
          {t(CORRECTABLE.includes(answer.status) ? 'correct.closed_finalized' : 'correct.closed_student')}
        </p>
      ) : null}
      {answer.assistant.revisable ? (
        <AiAssistant answer={answer} open={open} timeZone={timeZone} revisionKey={revisionKey} lastResult={resultOf('ai_revision')} />
      ) : null}
      {/* A new state of the answer (a correction saved, a revision's comment) is a new form with its values. */}
      <KitForm
        key={`${answer.status}|${answer.history.length}|${answer.corrected_at ?? ''}|${answer.ai_revision ?? ''}|${answer.ai_comment}`}
        schema={schema}
        prepare={prepare}
        lastResult={lastResult}
        defaultValue={defaults}
        timeZone={timeZone}
        protect
        id="correction"
        aria-label={t('correct.title')}
        className="card correction-form"
        labels={Object.fromEntries(
          questions.flatMap((q, i) => [
            [`scores.${q.id}`, t('correct.score_label_n', { n: String(i + 1) })],
            [`comments.${q.id}`, t('correct.comment_label_n', { n: String(i + 1) })],
            ...(answer.essay_skills[q.id] ?? []).map((k) => [`skill_grades.${q.id}.${k.id}`, t('correct.skills.grade_n', { n: String(i + 1), name: k.name })]),
          ]),
        )}
        buttons={
          open ? (
            <>
              <button type="submit" className="btn" name="action" value="save" disabled={navigation.state !== 'idle'} onMouseDown={(e) => e.preventDefault()}>
                <Icon name="check" /> {t('correct.save')}
              </button>
              <button
                type="submit"
                className="btn btn-primary"
                name="action"
                value="finalize"
                disabled={navigation.state !== 'idle'}
                onMouseDown={(e) => e.preventDefault()}
              >
                <Icon name="check" /> {t('correct.finalize')}
              </button>
            </>
          ) : (
            <></>
          )
        }
      >
        <h2>{t('correct.student_answer')}</h2>
        {questions.map((sq, i) => {
          const q = byId.get(sq.id) as Q
          const kind = questionType(q.type as QuestionType).scoring
          return (
            <fieldset key={sq.id} className="correction-question">
              <legend>
                {t('correct.question_n', { n: String(i + 1) })} · {t(`tms.type.${q.type}`)} · {t('correct.worth', { score: points(sq.score) })}
              </legend>
              <RichText html={q.statement} />
              <div className="student-answer" aria-label={t('correct.student_answer_n', { n: String(i + 1) })} role="group">
                <GivenAnswer q={q} a={given[sq.id]} revision={revisionOf(answer, sq.id)} teacherMarks={answer.marks[sq.id]} />
              </div>
              <Proposal answer={answer} questionId={sq.id} max={sq.score} />
              {sq.skills?.length ? (
                <fieldset className="skill-grades">
                  <legend>{t('correct.skills.title')}</legend>
                  <p className="hint">{t('correct.skills.hint', { max: points(sq.score) })}</p>
                  <div className="form-grid">
                    {(answer.essay_skills[sq.id] ?? []).map((k) => (
                      <NumberInput
                        key={k.id}
                        name={`skill_grades.${sq.id}.${k.id}`}
                        label={t('correct.skills.grade', { name: k.name, weight: points(k.weight) })}
                        disabled={!open}
                      />
                    ))}
                  </div>
                </fieldset>
              ) : null}
              {sq.markable && given[sq.id]?.text ? (
                <TeacherMarksField questionId={sq.id} n={i + 1} text={given[sq.id]?.text ?? ''} initial={answer.marks[sq.id] ?? []} disabled={!open} />
              ) : null}
              {kind === 'auto' ? (
                <p className="hint">{t('correct.auto_score', { score: points(answer.auto_scores[sq.id] ?? 0), max: points(sq.score) })}</p>
              ) : null}
              <div className="form-grid">
                <NumberInput
                  name={`scores.${sq.id}`}
                  label={t('correct.score_label', { max: points(sq.score) })}
                  hint={t(kind === 'auto' ? 'correct.score_hint_auto' : 'correct.score_hint', { max: points(sq.score) })}
                  disabled={!open}
                />
                <TextArea name={`comments.${sq.id}`} label={t('correct.comment_label')} rows={2} disabled={!open} />
              </div>
            </fieldset>
          )
        })}
        <TextArea name="final_considerations" label={t('correct.final_considerations')} rows={4} disabled={!open} />
        {withAi ? <TextArea name="ai_comment" label={t('correct.ai_comment')} hint={t('correct.ai_comment_hint')} rows={4} disabled={!open} /> : null}
      </KitForm>
      {open ? <Adjustments timeZone={timeZone} lastResult={resultOf('request_adjustments')} /> : null}
      <History answer={answer} />
    </>
  )
}

/** The student's answer to one question, in words: the options chosen (right ones marked), the text, words, files. */
function GivenAnswer({ q, a, revision, teacherMarks = [] }: { q: Q; a: Given | undefined; revision?: Revised; teacherMarks?: RevisionError[] }) {
  const { t } = useTranslation()
  if (!a || (a.option === undefined && !a.options?.length && !a.text && !a.words?.length && !a.files?.length))
    return <p className="empty">{t('correct.not_answered')}</p>
  const opts = Array.isArray(q.options) ? (q.options as { id?: string; statement: string; answer?: boolean }[]) : []
  const chosen = a.option !== undefined ? [a.option] : (a.options ?? [])
  return (
    <>
      {chosen.length ? (
        <ul className="choice-list">
          {chosen.map((id) => {
            const o = opts.find((x) => x.id === id)
            return (
              <li key={id} className={o?.answer ? 'choice correct' : 'choice'}>
                <RichText html={o?.statement ?? id} />
                <span className="hint">{t(o?.answer ? 'correct.right_option' : 'correct.wrong_option')}</span>
              </li>
            )
          })}
        </ul>
      ) : null}
      {a.text ? <MarkedText text={a.text} errors={[...(revision?.errors ?? []), ...teacherMarks]} /> : null}
      {a.words?.length ? <p className="answer-text">{a.words.join(' · ')}</p> : null}
      <AnswerFiles files={a.files} />
    </>
  )
}

/** Request adjustments: a comment for the student, after a warning that the unsaved changes are discarded. */
function Adjustments({ timeZone, lastResult }: { timeZone: string; lastResult: unknown }) {
  const { t } = useTranslation()
  const submit = useSubmit()
  const [asking, setAsking] = useState(false)
  const form = useRef<HTMLFormElement | null>(null)
  return (
    <>
      <KitForm
        schema={AdjustmentsInput}
        lastResult={lastResult}
        timeZone={timeZone}
        id="adjustments"
        aria-label={t('correct.request_adjustments')}
        buttons={
          <button
            type="button"
            className="btn btn-danger"
            onClick={(e) => {
              form.current = e.currentTarget.form
              if (form.current?.reportValidity()) setAsking(true)
            }}
          >
            <Icon name="restore" /> {t('correct.request_adjustments')}
          </button>
        }
      >
        <h2>{t('correct.request_adjustments')}</h2>
        <input type="hidden" name="action" value="request_adjustments" />
        <TextArea name="comment" label={t('correct.adjustments_comment')} hint={t('correct.adjustments_hint')} rows={3} required />
      </KitForm>
      <ConfirmDialog
        open={asking}
        title={t('correct.request_adjustments')}
        message={t('correct.adjustments_confirm')}
        confirmLabel={t('correct.adjustments_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          if (form.current) submit(form.current, { method: 'post' })
        }}
      />
    </>
  )
}

/** The corrections made so far (seed 001 §3 "Correction": history), newest first. */
function History({ answer }: { answer: Detail }) {
  const { t } = useTranslation()
  const clock = useClock()
  const rows = [...answer.history].reverse()
  return (
    <section className="card" aria-labelledby="correction-history">
      <h2 id="correction-history">{t('correct.history')}</h2>
      {rows.length === 0 ? (
        <p className="empty">{t('correct.history_empty')}</p>
      ) : (
        <ol className="history-list">
          {rows.map((h, i) => (
            <li key={i}>
              <strong>{t(`correct.action.${h.action}`)}</strong> · {t('tms.task.created_by', { by: h.created_by, at: formatTime(h.created_at, clock) })} ·{' '}
              {t('correct.status_change', { from: t(`correct.status.${h.status_before}`), to: t(`correct.status.${h.status_after}`) })}
              {h.comment ? <p>{h.comment}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

type Revised = { question_id: string; score: number; skills?: { skill_id: string; score: number }[]; errors?: RevisionError[] }

const revisionOf = (answer: Detail, id: string): Revised | undefined => answer.ai_result.questions?.find((q) => q.question_id === id)

/** The AI revision's proposed score of a question and its assessed skills (out of 10). */
function Proposal({ answer, questionId, max }: { answer: Detail; questionId: string; max: number }) {
  const { t } = useTranslation()
  const points = usePoints()
  const r = revisionOf(answer, questionId)
  if (!r) return null
  const skills = r.skills ?? []
  return (
    <p className="ai-proposal">
      <Icon name="sparkle" /> {t('correct.ai.proposed', { score: points(r.score), max: points(max) })}
      {skills.length
        ? ` — ${skills.map((s) => t('correct.ai.skill', { name: answer.ai_result.skills_named?.[s.skill_id] ?? s.skill_id, score: points(s.score) })).join('; ')}`
        : ''}
    </p>
  )
}

/**
 * The AI correction assistant (seed 001 §4 "AI revision"): its state (in progress, success, fail), which engine
 * answers (the local engine is named as such: rules, no model), and the request, confirmed at its price.
 */
function AiAssistant({
  answer,
  open,
  timeZone,
  revisionKey,
  lastResult,
}: {
  answer: Detail
  open: boolean
  timeZone: string
  revisionKey: string
  lastResult: unknown
}) {
  const { t } = useTranslation()
  const submit = useSubmit()
  const [asking, setAsking] = useState(false)
  const form = useRef<HTMLFormElement | null>(null)
  const a = answer.assistant
  const state = answer.ai_revision ?? 'none'
  return (
    <section className="card" aria-labelledby="ai-assistant">
      <h2 id="ai-assistant">
        <Icon name="sparkle" /> {t('correct.ai.title')}
      </h2>
      <p>
        {t('correct.ai.state')}:{' '}
        <span className={`badge ${state === 'fail' ? 'badge-error' : state === 'success' ? 'badge-success' : ''}`}>{t(`correct.ai.state_${state}`)}</span>
        {answer.ai_result.engine ? <span className="hint"> · {t(`correct.ai.by_${answer.ai_result.engine === 'local' ? 'local' : 'model'}`)}</span> : null}
      </p>
      <p className="hint">
        {a.engine === 'local' ? t(a.problem ? 'correct.ai.engine_local_problem' : 'correct.ai.engine_local') : t('correct.ai.engine_model')}
      </p>
      {open ? (
        <KitForm
          schema={RevisionRequest}
          lastResult={lastResult}
          timeZone={timeZone}
          id="ai-revision"
          aria-label={t('correct.ai.title')}
          className="inline-form"
          buttons={
            <button
              type="button"
              className="btn btn-primary"
              onClick={(e) => {
                form.current = e.currentTarget.form
                setAsking(true)
              }}
            >
              <Icon name="sparkle" /> {t(state === 'success' ? 'correct.ai.again' : 'correct.ai.run', { points: String(a.charged) })}
            </button>
          }
        >
          <input type="hidden" name="action" value="ai_revision" />
          <input type="hidden" name="confirm_points" value={String(a.price)} />
          <input type="hidden" name="idempotency_key" value={revisionKey} />
        </KitForm>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={t('correct.ai.title')}
        message={a.charged > 0 ? t('correct.ai.confirm_paid', { points: String(a.charged) }) : t('correct.ai.confirm_free')}
        confirmLabel={t('correct.ai.confirm_yes')}
        cancelLabel={t('settings.cancel')}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          if (form.current) submit(form.current, { method: 'post' })
        }}
      />
    </section>
  )
}

export const ErrorBoundary = RouteError
