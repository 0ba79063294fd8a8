import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { SelectField, TextField } from '~/components/tms/question-options'
import { BusyButton } from '~/components/ui/busy-button'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import { useDraft } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { SURVEY_DEFAULTS, SURVEY_QUESTION_TYPES, SurveyInput, type SurveyDraft, type SurveyQuestionType } from '#shared/schemas/survey/survey'

type QuestionDraft = { id: string; type: SurveyQuestionType; statement: string; required: boolean; options: string[] }

const newQuestionId = () => `q${Math.random().toString(36).slice(2, 10)}`
const blankQuestion = (): QuestionDraft => ({ id: newQuestionId(), type: 'single', statement: '', required: false, options: ['', ''] })

/**
 * The survey model editor (issue 19): title, description, required flag, confirmation message and the questions
 * (single, multi, text, scale 1–5), checked live with the API's schema; saved as JSON (`model`). A model with
 * published surveys is shown read-only (the API refuses changes, seed 001 §4). Unsaved-changes protected.
 */
export function SurveyModelEditor({ initial, locked }: { initial: SurveyDraft; locked: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const id = useId()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'survey-model' })
  const saving = fetcher.state !== 'idle'
  const { state, setState, set, setDirty, tried, setTried, guard } = useDraft(
    () => ({ ...SURVEY_DEFAULTS, ...initial, questions: (initial.questions ?? []) as QuestionDraft[] }),
    saving,
  )
  const setQuestion = (i: number, patch: Partial<QuestionDraft>) => set({ questions: state.questions.map((q, j) => (j === i ? { ...q, ...patch } : q)) })
  const move = (i: number, by: number) => {
    const qs = [...state.questions]
    const [q] = qs.splice(i, 1)
    qs.splice(i + by, 0, q)
    set({ questions: qs })
  }
  const live = useMemo(() => liveErrors(SurveyInput, state), [state])
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length)
      toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'survey.editor.save_failed' })
  }, [fetcher.state, fetcher.data, toast, t])
  const err = (field: string) => {
    if (tried && live[field]) return ruleText(t, live[field])
    const item = fetcher.data?.errors?.find((e) => e.field === field)
    return item ? errorText(t, item) : null
  }
  const typeOptions = SURVEY_QUESTION_TYPES.map((k) => [k, t(`survey.type.${k}`)] as const)

  return (
    <form
      className="card survey-editor"
      onSubmit={(e) => {
        e.preventDefault()
        setTried(true)
        if (locked || Object.keys(live).length) return
        setDirty(false)
        fetcher.submit({ model: JSON.stringify(state) }, { method: 'post' })
      }}
    >
      {locked ? (
        <p className="alert alert-info" role="status">
          {t('validation.survey.model_update_blocked')}
        </p>
      ) : null}
      <fieldset disabled={locked} className="form-grid">
        <TextField label={t('resources.survey.fields.title')} value={state.title} onChange={(title) => set({ title })} error={err('title')} />
        <TextField
          label={t('resources.survey.fields.description')}
          value={state.description}
          onChange={(description) => set({ description })}
          error={err('description')}
          multiline
        />
        <label className="switch">
          <input type="checkbox" checked={Boolean(state.is_required)} onChange={(e) => set({ is_required: e.currentTarget.checked })} />{' '}
          {t('resources.survey.fields.is_required')}
        </label>
        <p className="hint">{t('survey.editor.required_hint')}</p>
        <TextField
          label={t('resources.survey.fields.confirmation_message')}
          value={state.confirmation_message}
          onChange={(confirmation_message) => set({ confirmation_message })}
          error={err('confirmation_message')}
          hint={t('survey.editor.confirmation_hint')}
          multiline
        />
        <h2 id={`${id}-questions`}>{t('resources.survey.fields.questions')}</h2>
        {state.questions.length === 0 ? <p className="hint">{t('survey.editor.no_questions')}</p> : null}
        <ol className="survey-questions" aria-labelledby={`${id}-questions`}>
          {state.questions.map((q, i) => (
            <li key={q.id} className="card survey-question" data-question={i}>
              <fieldset className="form-grid">
                <legend>{t('survey.editor.question_n', { n: i + 1 })}</legend>
                <SelectField
                  label={t('survey.editor.type')}
                  value={q.type}
                  options={typeOptions}
                  onChange={(type) =>
                    setQuestion(i, {
                      type: type as SurveyQuestionType,
                      options: type === 'single' || type === 'multi' ? (q.options.length ? q.options : ['', '']) : [],
                    })
                  }
                />
                <TextField
                  label={t('survey.editor.statement')}
                  value={q.statement}
                  onChange={(statement) => setQuestion(i, { statement })}
                  error={err(`questions.${i}.statement`)}
                  multiline
                />
                <label className="switch">
                  <input type="checkbox" checked={q.required} onChange={(e) => setQuestion(i, { required: e.currentTarget.checked })} />{' '}
                  {t('survey.editor.required')}
                </label>
                {q.type === 'scale' ? <p className="hint">{t('survey.editor.scale_hint')}</p> : null}
                {q.type === 'single' || q.type === 'multi' ? (
                  <div className="survey-options">
                    {q.options.map((o, k) => (
                      <div key={k} className="field-row">
                        <TextField
                          label={t('survey.editor.option_n', { n: k + 1 })}
                          value={o}
                          onChange={(text) => setQuestion(i, { options: q.options.map((x, j) => (j === k ? text : x)) })}
                          error={err(`questions.${i}.options.${k}`)}
                        />
                        <button
                          type="button"
                          className="btn btn-icon"
                          onClick={() => setQuestion(i, { options: q.options.filter((_, j) => j !== k) })}
                          aria-label={t('survey.editor.option_remove', { n: k + 1 })}
                        >
                          <Icon name="trash" />
                        </button>
                      </div>
                    ))}
                    {err(`questions.${i}.options`) ? <p className="error">{err(`questions.${i}.options`)}</p> : null}
                    <button type="button" className="btn" onClick={() => setQuestion(i, { options: [...q.options, ''] })}>
                      <Icon name="plus" /> {t('survey.editor.option_add')}
                    </button>
                  </div>
                ) : null}
                <div className="toolbar-actions">
                  <button type="button" className="btn" disabled={i === 0} onClick={() => move(i, -1)}>
                    {t('survey.editor.up')}
                  </button>
                  <button type="button" className="btn" disabled={i === state.questions.length - 1} onClick={() => move(i, 1)}>
                    {t('survey.editor.down')}
                  </button>
                  <button type="button" className="btn" onClick={() => set({ questions: state.questions.filter((_, j) => j !== i) })}>
                    <Icon name="trash" /> {t('survey.editor.question_remove', { n: i + 1 })}
                  </button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        <button type="button" className="btn" onClick={() => set({ questions: [...state.questions, blankQuestion()] })}>
          <Icon name="plus" /> {t('survey.editor.question_add')}
        </button>
      </fieldset>
      <div className="form-actions">
        <button
          type="button"
          className="btn"
          disabled={locked}
          onClick={() => {
            setState({ ...SURVEY_DEFAULTS, questions: [] as QuestionDraft[] } as typeof state)
            setDirty(true)
          }}
        >
          {t('survey.editor.reset')}
        </button>
        <BusyButton busy={saving} icon="check" disabled={locked}>
          {t('survey.editor.save')}
        </BusyButton>
      </div>
      {guard}
    </form>
  )
}
