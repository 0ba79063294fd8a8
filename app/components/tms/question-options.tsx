import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useNumberText } from '~/components/form/kit'
import { Icon } from '~/components/ui/icon'
import { ANSWER_MEDIA, CONTENT_LANGUAGES, FILL_WORDS_MODES, MEDIA_TYPES, TEXT_COUNT_UNITS } from '#shared/schemas/tms/constants'
import type { ChoiceDraft, QuestionDraft } from './question-draft'
import { RichTextEditor } from './rich-text-editor'

export interface EditorRefs {
  genres: { id: string; name: string; min_words: number; max_words: number }[]
  skills: { id: string; name: string; type: string }[]
}

/** Field helpers of one question: its error text for a sub-path, and marking a sub-path as touched. */
export interface FieldAccess {
  err: (sub: string) => string | null
  touch: (sub: string) => void
}

type O = Record<string, unknown>

/** The options editor of each question type (seed 001 §3 "Options by type"). */
export function QuestionOptions({ q, onChange, f, refs }: { q: QuestionDraft; onChange: (options: unknown) => void; f: FieldAccess; refs: EditorRefs }) {
  const { t } = useTranslation()
  const o = (q.options ?? {}) as O
  const patch = (values: O) => {
    for (const k of Object.keys(values)) f.touch(`options.${k}`)
    onChange({ ...o, ...values })
  }
  const set = (sub: string, value: unknown) => patch({ [sub]: value })
  switch (q.type) {
    case 'single':
    case 'multi':
    case 'true_false':
      return <Choices q={q} options={q.options as ChoiceDraft[]} onChange={onChange} f={f} />
    case 'text':
    case 'text_ai':
      return (
        <div className="field-row">
          <NumberField
            label={t('tms.editor.min_text_count')}
            value={o.min_text_count}
            onChange={(v) => set('min_text_count', v)}
            error={f.err('options.min_text_count')}
          />
          <NumberField
            label={t('tms.editor.max_text_count')}
            value={o.max_text_count}
            onChange={(v) => set('max_text_count', v)}
            error={f.err('options.max_text_count')}
          />
        </div>
      )
    case 'fill_letters':
      return (
        <div className="field-row">
          <TextField label={t('tms.editor.letters_question')} value={o.question} onChange={(v) => set('question', v)} error={f.err('options.question')} />
          <TextField
            label={t('tms.editor.letters_answer')}
            value={o.answer}
            onChange={(v) => set('answer', v)}
            error={f.err('options.answer')}
            hint={t('tms.editor.letters_hint')}
          />
        </div>
      )
    case 'fill_words':
      return (
        <>
          <TextField
            label={t('tms.editor.sentence')}
            value={o.sentence}
            onChange={(v) => set('sentence', v)}
            error={f.err('options.sentence')}
            hint={t('tms.editor.sentence_hint')}
            multiline
          />
          <StringList
            label={t('tms.editor.incorrect')}
            items={(o.incorrect as string[]) ?? []}
            onChange={(v) => set('incorrect', v)}
            f={f}
            path="options.incorrect"
          />
          <SelectField
            label={t('tms.editor.mode')}
            value={String(o.mode ?? 'select')}
            options={FILL_WORDS_MODES.map((m) => [m, t(`tms.editor.mode_${m}`)])}
            onChange={(v) => set('mode', v)}
          />
        </>
      )
    case 'cloud':
      return (
        <>
          <TextField label={t('tms.editor.phrase')} value={o.phrase} onChange={(v) => set('phrase', v)} error={f.err('options.phrase')} />
          <StringList label={t('tms.editor.extra_words')} items={(o.extra as string[]) ?? []} onChange={(v) => set('extra', v)} f={f} path="options.extra" />
        </>
      )
    case 'order_sentences':
      return (
        <>
          <StringList
            label={t('tms.editor.sentences')}
            items={(o.sentences as string[]) ?? []}
            onChange={(v) => set('sentences', v)}
            f={f}
            path="options.sentences"
            ordered
          />
          <StringList
            label={t('tms.editor.incorrect_sentences')}
            items={(o.incorrect as string[]) ?? []}
            onChange={(v) => set('incorrect', v)}
            f={f}
            path="options.incorrect"
          />
        </>
      )
    case 'media':
      return (
        <fieldset className="option-list inline">
          <legend>{t('tms.editor.accept')}</legend>
          {ANSWER_MEDIA.map((k) => {
            const accept = (o.accept as string[]) ?? []
            return (
              <label key={k} className="switch">
                <input
                  type="checkbox"
                  checked={accept.includes(k)}
                  onChange={(e) => set('accept', e.currentTarget.checked ? [...accept, k] : accept.filter((x) => x !== k))}
                />{' '}
                {t(`tms.answer_media.${k}`)}
              </label>
            )
          })}
          {f.err('options.accept') ? <p className="error">{f.err('options.accept')}</p> : null}
        </fieldset>
      )
    case 'essay':
      return <EssayOptions o={o} set={set} patch={patch} f={f} refs={refs} />
    case 'game':
      return <TextField label={t('tms.editor.game_url')} value={o.url} onChange={(v) => set('url', v)} error={f.err('options.url')} />
    case 'info':
    case 'section':
      return null
    default: {
      // Each type of question-types.ts has its options editor here: a new type fails the type check until it has one.
      const unhandled: never = q.type
      return unhandled
    }
  }
}

function Choices({ q, options, onChange, f }: { q: QuestionDraft; options: ChoiceDraft[]; onChange: (o: ChoiceDraft[]) => void; f: FieldAccess }) {
  const { t } = useTranslation()
  const update = (i: number, patch: Partial<ChoiceDraft>) => {
    f.touch('options')
    onChange(options.map((o, n) => (n === i ? { ...o, ...patch } : q.type !== 'multi' && patch.answer ? { ...o, answer: false } : o)))
  }
  return (
    <fieldset className="choices">
      <legend>{t('tms.editor.options')}</legend>
      {f.err('options') ? <p className="error">{f.err('options')}</p> : null}
      {options.map((o, i) => (
        <div key={o.id ?? i} className="choice-editor">
          <label className="switch correct-toggle">
            <input
              type={q.type === 'multi' ? 'checkbox' : 'radio'}
              checked={o.answer}
              onChange={(e) => update(i, { answer: e.currentTarget.checked })}
              name={`correct-${q.id}`}
            />
            {t('tms.editor.correct', { letter: String.fromCharCode(65 + i) })}
          </label>
          <RichTextEditor
            label={t('tms.editor.option', { letter: String.fromCharCode(65 + i) })}
            value={o.statement}
            onChange={(html) => update(i, { statement: html })}
            error={f.err(`options.${i}.statement`)}
            minimal
          />
          <div className="field-row">
            <SelectField
              label={t('tms.editor.media_type')}
              value={o.media_type}
              options={[['', t('tms.editor.no_media')], ...MEDIA_TYPES.map((m) => [m, t(`tms.media_type.${m}`)] as [string, string])]}
              onChange={(v) => update(i, { media_type: v })}
              error={f.err(`options.${i}.media_type`)}
            />
            <TextField
              label={t('tms.editor.media_url')}
              value={o.media_url}
              onChange={(v) => update(i, { media_url: v })}
              error={f.err(`options.${i}.media_url`)}
            />
          </div>
          <button type="button" className="btn btn-icon" onClick={() => onChange(options.filter((_, n) => n !== i))}>
            <Icon name="trash" label={t('tms.editor.remove_option', { letter: String.fromCharCode(65 + i) })} />
          </button>
        </div>
      ))}
      {options.length < 26 ? (
        <button type="button" className="btn" onClick={() => onChange([...options, { statement: '', answer: false, media_type: '', media_url: '' }])}>
          <Icon name="plus" /> {t('tms.editor.add_option')}
        </button>
      ) : null}
    </fieldset>
  )
}

function EssayOptions({
  o,
  set,
  patch,
  f,
  refs,
}: {
  o: O
  set: (sub: string, v: unknown) => void
  patch: (values: O) => void
  f: FieldAccess
  refs: EditorRefs
}) {
  const { t } = useTranslation()
  const chosen = (o.assessed_skill_ids as string[]) ?? []
  const groups = refs.skills.filter((s) => s.type === 'group')
  return (
    <>
      <div className="field-row">
        <SelectField
          label={t('tms.editor.language')}
          value={String(o.language ?? '')}
          options={[['', '—'], ...CONTENT_LANGUAGES.map((l) => [l, l] as [string, string])]}
          onChange={(v) => set('language', v)}
          error={f.err('options.language')}
        />
        <SelectField
          label={t('tms.editor.genre')}
          value={String(o.genre ?? '')}
          options={[['', '—'], ...refs.genres.map((g) => [g.id, g.name] as [string, string])]}
          onChange={(v) => {
            // A genre brings its word limits as the starting point.
            const g = refs.genres.find((x) => x.id === v)
            patch({ genre: v, ...(g ? { min_word_count: g.min_words, max_word_count: g.max_words } : {}) })
          }}
          error={f.err('options.genre')}
        />
        <SelectField
          label={t('tms.editor.count_unit')}
          value={String(o.text_count_unit ?? 'word')}
          options={TEXT_COUNT_UNITS.map((u) => [u, t(`tms.unit.${u}`)])}
          onChange={(v) => set('text_count_unit', v)}
        />
      </div>
      <div className="field-row">
        <NumberField
          label={t('tms.editor.min_word_count')}
          value={o.min_word_count}
          onChange={(v) => set('min_word_count', v)}
          error={f.err('options.min_word_count')}
        />
        <NumberField
          label={t('tms.editor.max_word_count')}
          value={o.max_word_count}
          onChange={(v) => set('max_word_count', v)}
          error={f.err('options.max_word_count')}
        />
      </div>
      <fieldset className="option-list">
        <legend>{t('tms.editor.skills')}</legend>
        {refs.skills
          .filter((s) => s.type === 'skill')
          .map((s) => (
            <label key={s.id} className="switch">
              <input
                type="checkbox"
                checked={chosen.includes(s.id)}
                onChange={(e) => set('assessed_skill_ids', e.currentTarget.checked ? [...chosen, s.id] : chosen.filter((x) => x !== s.id))}
              />{' '}
              {s.name}
            </label>
          ))}
        {f.err('options.assessed_skill_ids') ? <p className="error">{f.err('options.assessed_skill_ids')}</p> : null}
      </fieldset>
      <SelectField
        label={t('tms.editor.skill_group')}
        value={String(o.assessed_skill_group_id ?? '')}
        options={[['', '—'], ...groups.map((g) => [g.id, g.name] as [string, string])]}
        onChange={(v) => set('assessed_skill_group_id', v)}
        error={f.err('options.assessed_skill_group_id')}
      />
      <RichTextEditor
        label={t('tms.editor.support_text')}
        value={String(o.support_text ?? '')}
        onChange={(html) => set('support_text', html)}
        error={f.err('options.support_text')}
      />
    </>
  )
}

/** A list of short texts (incorrect words, extra words, sentences), each with its own error. */
function StringList({
  label,
  items,
  onChange,
  f,
  path,
  ordered,
}: {
  label: string
  items: string[]
  onChange: (v: string[]) => void
  f: FieldAccess
  path: string
  ordered?: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <fieldset className="string-list">
      <legend>{label}</legend>
      {f.err(path) ? <p className="error">{f.err(path)}</p> : null}
      {items.map((value, i) => (
        <div key={i} className="string-item">
          <label className="visually-hidden" htmlFor={`${id}-${i}`}>{`${label} ${i + 1}`}</label>
          {ordered ? <span className="badge">{i + 1}</span> : null}
          <input
            id={`${id}-${i}`}
            className="input"
            value={value}
            aria-invalid={f.err(`${path}.${i}`) ? true : undefined}
            onChange={(e) => onChange(items.map((x, n) => (n === i ? e.currentTarget.value : x)))}
          />
          <button type="button" className="btn btn-icon" onClick={() => onChange(items.filter((_, n) => n !== i))}>
            <Icon name="trash" label={t('tms.editor.remove_item', { n: String(i + 1) })} />
          </button>
          {f.err(`${path}.${i}`) ? <p className="error">{f.err(`${path}.${i}`)}</p> : null}
        </div>
      ))}
      <button type="button" className="btn" onClick={() => onChange([...items, ''])}>
        <Icon name="plus" /> {t('tms.editor.add_item')}
      </button>
    </fieldset>
  )
}

export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  multiline,
}: {
  label: string
  value: unknown
  onChange: (v: string) => void
  error?: string | null
  hint?: string
  multiline?: boolean
}) {
  const id = useId()
  const props = {
    id,
    className: 'input',
    value: String(value ?? ''),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? `${id}-msg` : undefined,
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea rows={2} {...props} onChange={(e) => onChange(e.currentTarget.value)} />
      ) : (
        <input {...props} onChange={(e) => onChange(e.currentTarget.value)} />
      )}
      {error ? (
        <p className="error" id={`${id}-msg`}>
          {error}
        </p>
      ) : hint ? (
        <p className="hint" id={`${id}-msg`}>
          {hint}
        </p>
      ) : null}
    </div>
  )
}

export function NumberField({
  label,
  value,
  onChange,
  error,
  step,
}: {
  label: string
  value: unknown
  onChange: (v: number) => void
  error?: string | null
  step?: string
}) {
  const id = useId()
  // Typed as text and kept as typed (a number input dropped `1.` and `-` while typing: 1.5 became 15, -5 became 5).
  const typed = useNumberText(value, onChange)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="text"
        inputMode={step && step !== '1' ? 'decimal' : 'numeric'}
        autoComplete="off"
        {...typed}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-msg` : undefined}
      />
      {error ? (
        <p className="error" id={`${id}-msg`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function SelectField({
  label,
  value,
  options,
  onChange,
  error,
}: {
  label: string
  value: string
  options: readonly (readonly [string, string])[]
  onChange: (v: string) => void
  error?: string | null
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-msg` : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      {error ? (
        <p className="error" id={`${id}-msg`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
