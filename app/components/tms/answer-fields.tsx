import { useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { essayIssues } from '#shared/essay-check'
import { EssayPhotos } from './answer-media'
import { OnlineCheck, type CheckMark } from './online-check'
import { RichText } from './rich-text'

type EssayPhotosProps = Parameters<typeof EssayPhotos>[0]

/**
 * The student's answer widgets of the apply screen (issue 17) for the question types that are more than a choice or
 * a text box. Each keeps its state and writes it into hidden inputs of the surrounding form, in the names the
 * screen's action reads: `q.text.<id>` (fill letters, essay) and `q.words.<id>` repeated in order (fill words one
 * per gap, cloud and order sentences the built sequence). Every drag has a keyboard (and touch) alternative: pick a
 * word with a tap or Enter, then place it; move items with their buttons or Alt+arrow keys.
 */

type Common = { id: string; n: number; disabled?: boolean; onChange?: () => void }

/** fill_letters: the word to write, as many letters as its answer (spaces do not count). */
export function FillLetters({ id, n, question, length, initial, disabled, onChange }: Common & { question: string; length: number; initial: string }) {
  const { t } = useTranslation()
  const hint = useId()
  const [value, setValue] = useState(initial)
  const letters = value.replace(/\s/g, '').length
  return (
    <div className="mtms-letters">
      {question ? <p className="mtms-letters-question">{question}</p> : null}
      <label>
        <span className="visually-hidden">{t('mobile.tms.apply.your_answer', { n })}</span>
        <input
          className="input"
          name={`q.text.${id}`}
          value={value}
          maxLength={length}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          disabled={disabled}
          aria-describedby={hint}
          aria-label={t('mobile.tms.apply.your_answer', { n })}
          onChange={(e) => {
            setValue(e.target.value.replace(/\s/g, ''))
            onChange?.()
          }}
        />
      </label>
      <p className="hint" id={hint}>
        {t('mobile.tms.apply.letters', { count: length, done: letters })}
      </p>
    </div>
  )
}

type Item = { type: 'text'; value: string } | { type: 'gap' }

/** Indexes of `bank` matching `saved` (each bank entry used once), for restoring a draft. */
function restore(bank: readonly string[], saved: readonly string[], keepEmpty: boolean): (number | null)[] {
  const used = new Set<number>()
  const out: (number | null)[] = []
  for (const word of saved) {
    const i = bank.findIndex((w, j) => !used.has(j) && w === word)
    if (i >= 0) used.add(i)
    if (i >= 0 || keepEmpty) out.push(i >= 0 ? i : null)
  }
  return out
}

/**
 * fill_words: the sentence with its gaps. Mode `select`: a list of the bank's words at each gap. Mode `drag_and_drop`: the
 * bank's words are dragged onto the gaps, or (keyboard, touch) picked with Enter or a tap and placed by activating a
 * gap; activating a filled gap with nothing picked sends its word back to the bank.
 */
export function FillWords({
  id,
  n,
  items,
  words,
  mode,
  initial,
  disabled,
  onChange,
}: Common & { items: Item[]; words: string[]; mode: string; initial: string[] }) {
  const { t } = useTranslation()
  const gapCount = items.filter((i) => i.type === 'gap').length
  const [gaps, setGaps] = useState<(number | null)[]>(() => {
    const restored = restore(words, initial, true)
    return Array.from({ length: gapCount }, (_, g) => restored[g] ?? null)
  })
  const [picked, setPicked] = useState<number | null>(null)
  const [said, setSaid] = useState('')
  const [selected, setSelected] = useState<string[]>(() => Array.from({ length: gapCount }, (_, g) => initial[g] ?? ''))
  const options = [...new Set(words)]

  if (mode !== 'drag_and_drop') {
    let g = -1
    return (
      <p className="mtms-sentence">
        {items.map((item, i) => {
          if (item.type === 'text') return <span key={i}>{item.value}</span>
          g += 1
          const gap = g
          return (
            <select
              key={i}
              className="input mtms-gap-select"
              name={`q.words.${id}`}
              value={selected[gap]}
              disabled={disabled}
              aria-label={t('mobile.tms.apply.gap', { g: gap + 1, n })}
              onChange={(e) => {
                setSelected((s) => s.map((x, j) => (j === gap ? e.target.value : x)))
                onChange?.()
              }}
            >
              <option value="">{t('mobile.tms.apply.gap_empty')}</option>
              {options.map((w) => (
                <option key={w} value={w}>
                  {w}
                </option>
              ))}
            </select>
          )
        })}
      </p>
    )
  }

  const used = new Set(gaps.filter((x): x is number => x !== null))
  const place = (gap: number, word: number) => {
    setGaps((gs) => gs.map((x, j) => (j === gap ? word : x === word ? null : x)))
    setPicked(null)
    setSaid(t('mobile.tms.apply.placed', { word: words[word], g: gap + 1 }))
    onChange?.()
  }
  const activateGap = (gap: number) => {
    if (picked !== null) return place(gap, picked)
    const word = gaps[gap]
    if (word === null) return setSaid(t('mobile.tms.apply.pick_first'))
    setGaps((gs) => gs.map((x, j) => (j === gap ? null : x)))
    setSaid(t('mobile.tms.apply.returned', { word: words[word] }))
    onChange?.()
  }
  const drop = (gap: number) => (e: DragEvent) => {
    e.preventDefault()
    const word = Number(e.dataTransfer.getData('text/x-word-index'))
    if (Number.isInteger(word) && word >= 0 && word < words.length) place(gap, word)
  }
  let g = -1
  return (
    <div
      className="mtms-dnd"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || picked === null) return
        e.preventDefault()
        setPicked(null)
        setSaid('')
      }}
    >
      <p className="mtms-sentence">
        {items.map((item, i) => {
          if (item.type === 'text') return <span key={i}>{item.value}</span>
          g += 1
          const gap = g
          const word = gaps[gap]
          return (
            <button
              key={i}
              type="button"
              className={`mtms-gap${word === null ? ' empty' : ''}`}
              disabled={disabled}
              aria-label={t('mobile.tms.apply.gap_button', { g: gap + 1, word: word === null ? t('mobile.tms.apply.gap_empty') : words[word] })}
              onClick={() => activateGap(gap)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={drop(gap)}
            >
              {word === null ? '\u00a0' : words[word]}
            </button>
          )
        })}
      </p>
      {gaps.map((w, j) => (
        <input key={j} type="hidden" name={`q.words.${id}`} value={w === null ? '' : words[w]} />
      ))}
      <div className="mtms-bank" role="group" aria-label={t('mobile.tms.apply.bank', { n })}>
        {words.map((w, i) =>
          used.has(i) ? null : (
            <button
              key={i}
              type="button"
              className="mtms-word"
              draggable={!disabled}
              disabled={disabled}
              aria-pressed={picked === i}
              onClick={() => {
                setPicked(picked === i ? null : i)
                setSaid(picked === i ? '' : t('mobile.tms.apply.picked', { word: w }))
              }}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/x-word-index', String(i))
                e.dataTransfer.effectAllowed = 'move'
              }}
            >
              {w}
            </button>
          ),
        )}
      </div>
      <p className="hint">{t('mobile.tms.apply.dnd_hint')}</p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
    </div>
  )
}

/**
 * cloud and order_sentences: the answer built from a bank (the cloud's words into a sentence, the sentences into
 * their order; distractors stay out). A bank item joins the end of the answer with a tap or Enter, or dragged onto
 * the answer; answer items move with their buttons, Alt+↑/↓, or dragged onto another item; Delete or their button
 * sends them back.
 */
export function WordSequence({ id, n, bank, initial, kind, disabled, onChange }: Common & { bank: string[]; initial: string[]; kind: 'cloud' | 'order' }) {
  const { t } = useTranslation()
  const [chosen, setChosen] = useState<number[]>(() => restore(bank, initial, false).filter((x): x is number => x !== null))
  const [said, setSaid] = useState('')
  const listRef = useRef<HTMLOListElement>(null)
  const focusItem = (pos: number) => requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLElement>('.mtms-seq-item')[pos]?.focus())
  const update = (next: number[], message: string) => {
    setChosen(next)
    setSaid(message)
    onChange?.()
  }
  const add = (i: number, at = chosen.length) => {
    const next = chosen.filter((x) => x !== i)
    next.splice(Math.min(at, next.length), 0, i)
    update(next, t('mobile.tms.apply.added', { word: bank[i], pos: next.indexOf(i) + 1 }))
  }
  const move = (pos: number, to: number) => {
    if (to < 0 || to >= chosen.length) return
    const next = [...chosen]
    const [x] = next.splice(pos, 1)
    next.splice(to, 0, x)
    update(next, t('mobile.tms.apply.moved', { word: bank[x], pos: to + 1 }))
    focusItem(to)
  }
  const remove = (pos: number) => {
    const x = chosen[pos]
    update(
      chosen.filter((_, j) => j !== pos),
      t('mobile.tms.apply.returned', { word: bank[x] }),
    )
    if (chosen.length > 1) focusItem(Math.min(pos, chosen.length - 2))
  }
  const keys = (pos: number) => (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return
    const act =
      e.altKey && e.key === 'ArrowUp'
        ? () => move(pos, pos - 1)
        : e.altKey && e.key === 'ArrowDown'
          ? () => move(pos, pos + 1)
          : e.key === 'Delete' || e.key === 'Backspace'
            ? () => remove(pos)
            : null
    if (!act) return
    e.preventDefault()
    act()
  }
  const dropAt = (pos: number) => (e: DragEvent) => {
    e.preventDefault()
    e.stopPropagation()
    const from = e.dataTransfer.getData('text/x-seq-pos')
    const word = e.dataTransfer.getData('text/x-word-index')
    if (from !== '') move(Number(from), pos)
    else if (word !== '' && Number(word) < bank.length) add(Number(word), pos)
  }
  const label = kind === 'cloud' ? 'mobile.tms.apply.sequence_cloud' : 'mobile.tms.apply.sequence_order'
  return (
    <div className="mtms-dnd">
      <p className="hint" id={`mtms-seq-${id}`}>
        {t(label, { n })}
      </p>
      <ol
        ref={listRef}
        className={`mtms-seq${kind === 'order' ? ' mtms-seq-order' : ''}`}
        aria-labelledby={`mtms-seq-${id}`}
        onDragOver={(e) => e.preventDefault()}
        onDrop={dropAt(chosen.length)}
      >
        {chosen.length === 0 ? <li className="mtms-seq-empty hint">{t('mobile.tms.apply.sequence_empty')}</li> : null}
        {chosen.map((x, pos) => (
          // A focusable item with keyboard moves (Alt+arrows, Delete); its buttons do the same for touch and pointers.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
          <li
            key={x}
            className="mtms-seq-item"
            tabIndex={disabled ? -1 : 0}
            draggable={!disabled}
            aria-label={t('mobile.tms.apply.item', { word: bank[x], pos: pos + 1, count: chosen.length })}
            onKeyDown={keys(pos)}
            onDragStart={(e) => {
              e.dataTransfer.setData('text/x-seq-pos', String(pos))
              e.dataTransfer.effectAllowed = 'move'
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={dropAt(pos)}
          >
            <Icon name="grip" />
            <span className="mtms-seq-text">{bank[x]}</span>
            <span className="mtms-seq-actions">
              <button type="button" className="btn btn-icon" disabled={disabled || pos === 0} onClick={() => move(pos, pos - 1)}>
                <span aria-hidden="true">↑</span>
                <span className="visually-hidden">{t('mobile.tms.apply.move_up', { word: bank[x] })}</span>
              </button>
              <button type="button" className="btn btn-icon" disabled={disabled || pos === chosen.length - 1} onClick={() => move(pos, pos + 1)}>
                <span aria-hidden="true">↓</span>
                <span className="visually-hidden">{t('mobile.tms.apply.move_down', { word: bank[x] })}</span>
              </button>
              <button type="button" className="btn btn-icon" disabled={disabled} onClick={() => remove(pos)}>
                <Icon name="close" label={t('mobile.tms.apply.remove', { word: bank[x] })} />
              </button>
            </span>
          </li>
        ))}
      </ol>
      {chosen.map((x) => (
        <input key={x} type="hidden" name={`q.words.${id}`} value={bank[x]} />
      ))}
      <div className="mtms-bank" role="group" aria-label={t('mobile.tms.apply.bank', { n })}>
        {bank.map((w, i) =>
          chosen.includes(i) ? null : (
            <button
              key={i}
              type="button"
              className={`mtms-word${kind === 'order' ? ' mtms-word-long' : ''}`}
              draggable={!disabled}
              disabled={disabled}
              onClick={() => add(i)}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/x-word-index', String(i))
                e.dataTransfer.effectAllowed = 'move'
              }}
            >
              {w}
            </button>
          ),
        )}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
    </div>
  )
}

/**
 * essay (typed, or transcribed from its photographed pages when `photos` is given): the support text, the text with its count in the question's unit against its limits, and the
 * likely slips the device finds (essay-check.ts), listed so the student can correct them before delivering.
 */
export function EssayField({
  id,
  n,
  supportText,
  min,
  max,
  unit,
  initial,
  disabled,
  onChange,
  photos,
  check,
}: Common & {
  supportText: string
  min: number
  max: number
  unit: 'word' | 'line'
  initial: string
  photos?: Omit<EssayPhotosProps, 'onText'>
  /** The Online Check (online-check.tsx): where to post it, and who keeps its marks. */
  check?: { action: string; onMarks: (marks: CheckMark[]) => void }
}) {
  const { t } = useTranslation()
  const [text, setText] = useState(initial)
  // The text a transcription replaced, while the student may still take it back.
  const [replaced, setReplaced] = useState<string | null>(null)
  const count = unit === 'line' ? text.split(/\r?\n/).filter((l) => l.trim()).length : text.split(/\s+/).filter(Boolean).length
  const issues = essayIssues(text)
  const countId = `mtms-essay-${id}-count`
  return (
    <div className="mtms-essay">
      {supportText ? (
        <details className="mtms-support">
          <summary>{t('mobile.tms.apply.support_text')}</summary>
          <RichText html={supportText} />
        </details>
      ) : null}
      {photos ? (
        <EssayPhotos
          {...photos}
          onText={(x) => {
            setReplaced(text.trim() ? text : null)
            setText(x)
            onChange?.()
          }}
        />
      ) : null}
      {replaced !== null ? (
        <button
          type="button"
          className="btn mtms-wrap"
          disabled={disabled}
          onClick={() => {
            setText(replaced)
            setReplaced(null)
            onChange?.()
          }}
        >
          <Icon name="restore" /> {t('mobile.tms.essay.restore_text')}
        </button>
      ) : null}
      <label className="mtms-text">
        <span className="visually-hidden">{t('mobile.tms.apply.your_essay', { n })}</span>
        <textarea
          className="input"
          name={`q.text.${id}`}
          rows={10}
          value={text}
          disabled={disabled}
          aria-label={t('mobile.tms.apply.your_essay', { n })}
          aria-describedby={countId}
          onChange={(e) => {
            setText(e.target.value)
            onChange?.()
          }}
        />
      </label>
      <p className={`hint${(max > 0 && count > max) || (text.trim() && count < min) ? ' warn' : ''}`} id={countId}>
        {t(unit === 'line' ? 'mobile.tms.apply.essay_lines' : 'mobile.tms.apply.essay_words', { count, min, max })}
      </p>
      {issues.length ? (
        <details className="mtms-issues">
          <summary>{t('mobile.tms.apply.essay_issues', { count: issues.length })}</summary>
          <ul>
            {issues.map((issue, i) => (
              <li key={i}>
                {t(`mobile.tms.apply.issue.${issue.kind}`)}: <q>{issue.text}</q>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {check ? <OnlineCheck questionId={id} text={text} action={check.action} disabled={disabled} onMarks={check.onMarks} /> : null}
    </div>
  )
}
