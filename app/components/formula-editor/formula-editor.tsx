import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { formulaProblem, renderFormula } from '#shared/rich-text'
import { PALETTES, insertTemplate, shownLatex, undefinedSequence } from './palettes'

const glyphs = new Map<string, string>()
/** A palette button's face: KaTeX's HTML for its LaTeX, computed once per symbol. */
function glyph(latex: string): string {
  let html = glyphs.get(latex)
  if (html === undefined) {
    html = renderFormula(latex, false)
    glyphs.set(latex, html)
  }
  return html
}

export interface FormulaEditorProps {
  label: string
  value: string
  onChange: (latex: string) => void
  /** Preview as a block (display style) or inline. */
  display?: boolean
}

/**
 * The LaTeX formula editor (issue 18, seed 002 §2): the LaTeX in a textarea, typeset live by KaTeX, palettes of
 * symbols and structures that insert at the caret (their first placeholder selected), and the seed's errors (§8):
 * "invalid formula", and "undefined control sequence" naming the sequence. Used by the rich-text editor's formula
 * dialog (so by the question editors) and by the slide editor.
 */
export function FormulaEditor({ label, value, onChange, display = true }: FormulaEditorProps) {
  const { t } = useTranslation()
  const id = useId()
  const area = useRef<HTMLTextAreaElement>(null)
  const [tab, setTab] = useState(PALETTES[0].id)
  const pending = useRef<{ start: number; end: number } | null>(null)
  const tabs = useRef<(HTMLButtonElement | null)[]>([])

  useLayoutEffect(() => {
    const sel = pending.current
    if (!sel || !area.current) return
    pending.current = null
    area.current.focus()
    area.current.setSelectionRange(sel.start, sel.end)
  }, [value])

  const problem = useMemo(() => (value.trim() ? formulaProblem(value) : null), [value])
  const preview = useMemo(() => (value.trim() && !problem ? renderFormula(value, display) : ''), [value, display, problem])
  const sequence = problem?.problem === 'formula_undefined' ? undefinedSequence(problem.detail) : null

  const insert = (template: string) => {
    const el = area.current
    const start = el?.selectionStart ?? value.length
    const end = el?.selectionEnd ?? value.length
    const next = insertTemplate(value, start, end, template)
    pending.current = { start: next.start, end: next.end }
    onChange(next.text)
  }

  const onTabKey = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? PALETTES.length - 1 : (index + delta + PALETTES.length) % PALETTES.length
    if (!delta && e.key !== 'Home' && e.key !== 'End') return
    e.preventDefault()
    setTab(PALETTES[to].id)
    tabs.current[to]?.focus()
  }

  const current = PALETTES.find((p) => p.id === tab) ?? PALETTES[0]
  return (
    <div className="formula-editor">
      <div className="field">
        <label htmlFor={`${id}-latex`}>{label}</label>
        <textarea
          ref={area}
          id={`${id}-latex`}
          className="input code"
          rows={3}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-status`}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
        />
      </div>
      <div className="formula-palettes">
        <div role="tablist" aria-label={t('formula.palettes')} className="formula-tabs">
          {PALETTES.map((p, i) => (
            <button
              key={p.id}
              ref={(el) => {
                tabs.current[i] = el
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${p.id}`}
              aria-selected={p.id === current.id}
              aria-controls={`${id}-panel`}
              tabIndex={p.id === current.id ? 0 : -1}
              className="formula-tab"
              onClick={() => setTab(p.id)}
              onKeyDown={(e) => onTabKey(e, i)}
            >
              {t(`formula.palette.${p.id}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${current.id}`}>
          <div role="group" aria-label={t(`formula.palette.${current.id}`)} className="formula-palette">
            {current.items.map((item) => {
              const shown = shownLatex(item)
              return (
                <button
                  key={item.insert}
                  type="button"
                  className="btn formula-symbol"
                  aria-label={t('formula.insert_symbol', { latex: shown })}
                  title={shown}
                  // Keep the textarea's selection: the insertion goes where the caret is.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => insert(item.insert)}
                >
                  <span aria-hidden="true" dangerouslySetInnerHTML={{ __html: glyph(shown) }} />
                </button>
              )
            })}
          </div>
        </div>
      </div>
      <div id={`${id}-status`} aria-live="polite">
        {problem ? (
          <p className="error" role="alert">
            {t(`validation.question.${problem.problem}`)}{' '}
            {sequence ? <code className="formula-sequence">{t('formula.sequence', { sequence })}</code> : <span className="hint">{problem.detail}</span>}
          </p>
        ) : preview ? (
          <div className="formula-preview" role="img" aria-label={value} dangerouslySetInnerHTML={{ __html: preview }} />
        ) : (
          <p className="hint">{t('formula.empty')}</p>
        )}
      </div>
    </div>
  )
}
