import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '~/components/ui/dialog'
import { FormulaEditor } from '~/components/formula-editor/formula-editor'
import { formulaProblem } from '#shared/rich-text'

/**
 * The rich-text editor's formula dialog: the formula editor (palettes, live KaTeX preview, the seed's errors) and the
 * display mode; insertion waits until the formula can be typeset.
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
  return (
    <Dialog open={open} onClose={onClose} title={t('richtext.formula.title')} labelledBy={`${id}-title`}>
      <FormulaEditor label={t('richtext.formula.latex')} value={latex} onChange={setLatex} display={display === 'block'} />
      <fieldset className="option-list inline">
        <legend>{t('richtext.formula.mode')}</legend>
        {(['inline', 'block'] as const).map((m) => (
          <label key={m} className="switch">
            <input type="radio" name={`${id}-mode`} checked={display === m} onChange={() => setDisplay(m)} /> {t(`richtext.formula.${m}`)}
          </label>
        ))}
      </fieldset>
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
