import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { Dialog } from '~/components/ui/dialog'
import { formulaProblem, renderFormula } from '#shared/rich-text'

/**
 * LaTeX formula editor: the formula typeset live by KaTeX, and "invalid formula" / "undefined control sequence" with
 * KaTeX's detail while it cannot be typeset (insertion waits until it can).
 */
export function FormulaDialog({
  open,
  initial,
  onClose,
  onSave,
}: {
  open: boolean
  initial: { latex: string; display: 'inline' | 'block' }
  onClose: () => void
  onSave: (f: { latex: string; display: 'inline' | 'block' }) => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const [latex, setLatex] = useState(initial.latex)
  const [display, setDisplay] = useState(initial.display)
  useEffect(() => {
    if (open) {
      setLatex(initial.latex)
      setDisplay(initial.display)
    }
  }, [open, initial.latex, initial.display])
  const problem = useMemo(() => (latex.trim() ? formulaProblem(latex) : null), [latex])
  const preview = useMemo(() => (latex.trim() && !problem ? renderFormula(latex, display === 'block') : ''), [latex, display, problem])
  return (
    <Dialog open={open} onClose={onClose} title={t('richtext.formula.title')} labelledBy={`${id}-title`}>
      <div className="field">
        <label htmlFor={`${id}-latex`}>{t('richtext.formula.latex')}</label>
        <textarea
          id={`${id}-latex`}
          className="input code"
          rows={3}
          value={latex}
          onChange={(e) => setLatex(e.currentTarget.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-status`}
          spellCheck={false}
        />
      </div>
      <fieldset className="option-list inline">
        <legend>{t('richtext.formula.mode')}</legend>
        {(['inline', 'block'] as const).map((m) => (
          <label key={m} className="switch">
            <input type="radio" name={`${id}-mode`} checked={display === m} onChange={() => setDisplay(m)} /> {t(`richtext.formula.${m}`)}
          </label>
        ))}
      </fieldset>
      <div id={`${id}-status`} aria-live="polite">
        {problem ? (
          <p className="error">
            {t(`validation.question.${problem.problem}`)} <span className="hint">{problem.detail}</span>
          </p>
        ) : preview ? (
          <div className="formula-preview" dangerouslySetInnerHTML={{ __html: preview }} />
        ) : null}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('settings.cancel')}
        </button>
        <button type="button" className="btn btn-primary" disabled={!latex.trim() || Boolean(problem)} onClick={() => onSave({ latex: latex.trim(), display })}>
          {t('richtext.formula.save')}
        </button>
      </div>
    </Dialog>
  )
}
