import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { MARK_CATEGORIES, type TeacherMark } from '#shared/schemas/tms/correction'

/**
 * The marks a teacher adds by hand to a written answer (seed 001 §3 Correction "custom errors"): category, the
 * student's words (they must be in the text: checked here and by the API) and an explanation. The list travels with
 * the correction form as `marks.<questionId>[i].…` fields; an empty list clears the question's marks.
 */
export function TeacherMarksField({
  questionId,
  n,
  text,
  initial,
  disabled,
}: {
  questionId: string
  n: number
  text: string
  initial: TeacherMark[]
  disabled: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const [marks, setMarks] = useState(initial)
  const [draft, setDraft] = useState<TeacherMark>({ category: 'orthography', excerpt: '', explanation: '' })
  const [problem, setProblem] = useState('')
  const add = () => {
    const excerpt = draft.excerpt.trim()
    if (!excerpt) return setProblem(t('validation.required'))
    if (!text.includes(excerpt)) return setProblem(t('answer.error.excerpt_not_found'))
    setMarks((m) => [...m, { ...draft, excerpt, explanation: draft.explanation.trim() }])
    setDraft({ ...draft, excerpt: '', explanation: '' })
    setProblem('')
  }
  return (
    <fieldset className="teacher-marks">
      <legend>{t('correct.marks.title_n', { n: String(n) })}</legend>
      {marks.map((m, i) => (
        <span key={i} hidden>
          <input type="hidden" name={`marks.${questionId}[${i}].category`} value={m.category} />
          <input type="hidden" name={`marks.${questionId}[${i}].excerpt`} value={m.excerpt} />
          <input type="hidden" name={`marks.${questionId}[${i}].explanation`} value={m.explanation} />
        </span>
      ))}
      {marks.length ? (
        <ol className="error-list">
          {marks.map((m, i) => (
            <li key={i}>
              <strong>{t(`correct.category.${m.category}`)}</strong> “{m.excerpt}”{m.explanation ? ` — ${m.explanation}` : ''}{' '}
              {disabled ? null : (
                <button
                  type="button"
                  className="btn btn-sm"
                  aria-label={t('correct.marks.remove', { excerpt: m.excerpt })}
                  onClick={() => setMarks((all) => all.filter((_, j) => j !== i))}
                >
                  <Icon name="close" />
                </button>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="hint">{t('correct.marks.none')}</p>
      )}
      {disabled ? null : (
        <div className="form-grid teacher-mark-new">
          <label className="field">
            <span>{t('correct.marks.category')}</span>
            <select className="input" value={draft.category} onChange={(e) => setDraft({ ...draft, category: e.target.value })}>
              {MARK_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`correct.category.${c}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('correct.marks.excerpt')}</span>
            <input
              className="input"
              value={draft.excerpt}
              maxLength={300}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(e) => setDraft({ ...draft, excerpt: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault()
                  add()
                }
              }}
            />
          </label>
          <label className="field">
            <span>{t('correct.marks.explanation')}</span>
            <input className="input" value={draft.explanation} maxLength={600} onChange={(e) => setDraft({ ...draft, explanation: e.target.value })} />
          </label>
          <button type="button" className="btn" onClick={add}>
            <Icon name="plus" /> {t('correct.marks.add')}
          </button>
          {problem ? (
            <p className="error" id={`${id}-problem`} role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      )}
    </fieldset>
  )
}
