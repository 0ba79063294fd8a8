import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, translatedErrors } from '~/lib/error-text'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { SCALE_POINTS, SURVEY_TEXT_MAX, answered, type SurveyQuestion, type SurveyValue } from '#shared/schemas/survey/survey'

type Answers = Record<string, SurveyValue>

/**
 * A survey's questions as a form (issue 19): the student's answer on the phone and the staff's revision. Single and
 * scale are radio groups, multi a group of checkboxes, text a text area; required questions are marked and checked
 * before sending (the API checks them again). Posts `answers` as JSON to the route's action.
 */
export function SurveyAnswerForm({
  questions,
  isRequired,
  initial,
  submitLabel,
  failedTitle,
}: {
  questions: SurveyQuestion[]
  isRequired: boolean
  initial: Answers
  submitLabel: string
  failedTitle: string
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const id = useId()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'survey-answer' })
  const [answers, setAnswers] = useState<Answers>(initial)
  const [dirty, setDirty] = useState(false)
  const [tried, setTried] = useState(false)
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(dirty && !saving)
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length) toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: failedTitle })
  }, [fetcher.state, fetcher.data, toast, t, failedTitle])
  const set = (qid: string, value: SurveyValue | undefined) => {
    setDirty(true)
    setAnswers((a) => {
      const next = { ...a }
      if (value === undefined) delete next[qid]
      else next[qid] = value
      return next
    })
  }
  const required = (q: SurveyQuestion) => isRequired || q.required
  const missing = questions.filter((q) => required(q) && !answered(answers[q.id]))
  const err = (q: SurveyQuestion) => {
    if (tried && missing.includes(q)) return t('validation.survey.required_answer')
    const item = fetcher.data?.errors?.find((e) => e.field === `answers.${q.id}`)
    return item ? errorText(t, item) : null
  }

  return (
    <form
      className="survey-answer"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        setTried(true)
        if (missing.length) {
          document.getElementById(`${id}-q-${missing[0].id}`)?.focus()
          return
        }
        setDirty(false)
        fetcher.submit({ answers: JSON.stringify(answers) }, { method: 'post' })
      }}
    >
      <p className="hint">{t('survey.answer.required_note')}</p>
      <ol className="survey-answer-list">
        {questions.map((q, i) => {
          const message = err(q)
          const value = answers[q.id]
          const name = `${id}-${q.id}`
          const describedBy = message ? `${name}-err` : undefined
          return (
            <li key={q.id} className="card survey-answer-item" data-question={q.id}>
              <fieldset aria-describedby={describedBy} aria-invalid={message ? true : undefined}>
                <legend id={`${id}-q-${q.id}`} tabIndex={-1}>
                  <span className="survey-n">{i + 1}.</span> {q.statement}
                  {required(q) ? (
                    <span className="required" aria-label={t('survey.answer.required')}>
                      {' '}
                      *
                    </span>
                  ) : null}
                </legend>
                {q.type === 'single' || q.type === 'multi' ? (
                  <div className="option-list">
                    {q.options.map((o, k) => {
                      const checked = q.type === 'single' ? value === k : Array.isArray(value) && value.includes(k)
                      return (
                        <label key={k} className="switch">
                          <input
                            type={q.type === 'single' ? 'radio' : 'checkbox'}
                            name={name}
                            checked={checked}
                            onChange={(e) => {
                              if (q.type === 'single') set(q.id, k)
                              else {
                                const list = Array.isArray(value) ? value : []
                                const next = e.currentTarget.checked ? [...list, k] : list.filter((x) => x !== k)
                                set(q.id, next.length ? next : undefined)
                              }
                            }}
                          />{' '}
                          {o}
                        </label>
                      )
                    })}
                  </div>
                ) : q.type === 'scale' ? (
                  <div className="survey-scale">
                    <div className="survey-scale-points" role="radiogroup" aria-labelledby={`${id}-q-${q.id}`}>
                      {SCALE_POINTS.map((p) => (
                        <label key={p} className="survey-scale-point">
                          <input type="radio" name={name} checked={value === p} onChange={() => set(q.id, p)} />
                          <span>{p}</span>
                        </label>
                      ))}
                    </div>
                    <p className="survey-scale-ends hint">
                      <span>{t('survey.answer.scale_low')}</span>
                      <span>{t('survey.answer.scale_high')}</span>
                    </p>
                  </div>
                ) : (
                  <textarea
                    className="input"
                    rows={3}
                    maxLength={SURVEY_TEXT_MAX}
                    aria-label={q.statement}
                    value={typeof value === 'string' ? value : ''}
                    onChange={(e) => set(q.id, e.currentTarget.value || undefined)}
                  />
                )}
                {message ? (
                  <p className="error" id={describedBy} role="alert">
                    {message}
                  </p>
                ) : null}
              </fieldset>
            </li>
          )
        })}
      </ol>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="send" />} {submitLabel}
        </button>
      </div>
      {guard}
    </form>
  )
}
