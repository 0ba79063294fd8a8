import { useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { FileUpload } from '~/components/ui/file-upload'
import { Icon } from '~/components/ui/icon'
import { INFO_KINDS, MEDIA_TYPES, QUESTION_LIMITS } from '#shared/schemas/tms/constants'
import { questionTypeLabel, INFORMATIVE_TYPES, PARTIAL_SCORE_TYPES, QUESTION_TYPES, SHUFFLE_TYPES, type QuestionType } from '#shared/schemas/tms/question-types'
import type { QuestionDraft } from './question-draft'
import { NumberField, QuestionOptions, SelectField, TextField, type EditorRefs, type FieldAccess } from './question-options'
import { QuestionView } from './question-view'
import { RichTextEditor } from './rich-text-editor'

export interface CardActions {
  change: (q: QuestionDraft) => void
  changeType: (type: QuestionType) => void
  move: (delta: number) => void
  duplicate: () => void
  remove: () => void
  /** Drag and drop: where a dragged question was dropped. */
  dropAt: (from: number) => void
}

const UPLOADS: Record<string, string[]> = { img: ['png', 'jpg', 'jpeg', 'gif', 'webp'], pdf: ['pdf'], audio: ['mp3', 'wav'] }

/** One question in the model editor: its fields, its options, and its live preview as the student sees it. */
export function QuestionCard({
  q,
  index,
  count,
  actions,
  f,
  refs,
  categories,
  single = false,
}: {
  q: QuestionDraft
  index: number
  count: number
  actions: CardActions
  f: FieldAccess
  refs: EditorRefs
  categories: { id: string; name: string }[]
  /** A question on its own (the bank): no reordering, copying or removing. */
  single?: boolean
}) {
  const { t } = useTranslation()
  const [preview, setPreview] = useState(false)
  const [draggable, setDraggable] = useState(false)
  const [over, setOver] = useState(false)
  const informative = INFORMATIVE_TYPES.includes(q.type)
  const set = <K extends keyof QuestionDraft>(key: K, value: QuestionDraft[K]) => {
    f.touch(String(key))
    actions.change({ ...q, [key]: value })
  }
  const n = index + 1
  const onGripKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault()
      actions.move(e.key === 'ArrowUp' ? -1 : 1)
    }
  }

  return (
    <li
      className={`question-card card${over ? ' drop-target' : ''}`}
      draggable={draggable}
      onDragStart={(e) => e.dataTransfer.setData('text/x-question-index', String(index))}
      onDragEnd={() => setDraggable(false)}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('text/x-question-index')) {
          e.preventDefault()
          setOver(true)
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false)
        const from = Number(e.dataTransfer.getData('text/x-question-index'))
        if (Number.isInteger(from) && from !== index) actions.dropAt(from)
      }}
      aria-labelledby={`question-${q.id}-title`}
    >
      <header className="question-card-header">
        {single ? null : (
          <button
            type="button"
            className="btn btn-icon grip"
            onMouseDown={() => setDraggable(true)}
            onMouseUp={() => setDraggable(false)}
            onKeyDown={onGripKey}
            aria-describedby={`question-${q.id}-grip`}
          >
            <Icon name="grip" label={t('tms.editor.drag', { n: String(n) })} />
          </button>
        )}
        <span id={`question-${q.id}-grip`} className="visually-hidden">
          {t('tms.editor.drag_hint')}
        </span>
        <h3 id={`question-${q.id}-title`}>{single ? t('tms.editor.question') : t('tms.editor.question_n', { n: String(n) })}</h3>
        <label className="visually-hidden" htmlFor={`type-${q.id}`}>
          {t('tms.editor.type')}
        </label>
        <select id={`type-${q.id}`} className="input type-select" value={q.type} onChange={(e) => actions.changeType(e.currentTarget.value as QuestionType)}>
          {QUESTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(questionTypeLabel(type))}
            </option>
          ))}
        </select>
        {q.bank_id ? <span className="badge">{t('tms.editor.from_bank')}</span> : null}
        <span className="card-tools">
          {single ? null : (
            <>
              <button type="button" className="btn btn-icon" disabled={index === 0} onClick={() => actions.move(-1)}>
                <Icon name="arrowUp" label={t('tms.editor.move_up', { n: String(n) })} />
              </button>
              <button type="button" className="btn btn-icon" disabled={index === count - 1} onClick={() => actions.move(1)}>
                <Icon name="arrowDown" label={t('tms.editor.move_down', { n: String(n) })} />
              </button>
              <button type="button" className="btn btn-icon" onClick={actions.duplicate}>
                <Icon name="copy" label={t('tms.editor.duplicate', { n: String(n) })} />
              </button>
            </>
          )}
          <button type="button" className="btn btn-icon" aria-pressed={preview} onClick={() => setPreview(!preview)}>
            <Icon name="eye" label={t('tms.editor.preview', { n: String(n) })} />
          </button>
          {single ? null : (
            <button type="button" className="btn btn-icon" onClick={actions.remove}>
              <Icon name="trash" label={t('tms.editor.remove', { n: String(n) })} />
            </button>
          )}
        </span>
      </header>
      <RichTextEditor
        key={`${q.id}-statement`}
        label={t('tms.editor.statement')}
        value={q.statement}
        onChange={(html) => set('statement', html)}
        error={f.err('statement')}
      />
      <div className="field-row">
        {informative || q.type === 'text_ai' ? null : (
          <NumberField
            label={t('tms.editor.score')}
            value={q.score}
            step={String(QUESTION_LIMITS.scoreStep)}
            onChange={(v) => set('score', v)}
            error={f.err('score')}
          />
        )}
        {informative ? null : (
          <label className="switch">
            <input type="checkbox" checked={q.required} onChange={(e) => set('required', e.currentTarget.checked)} /> {t('tms.editor.required')}
          </label>
        )}
        {SHUFFLE_TYPES.includes(q.type) ? (
          <label className="switch">
            <input type="checkbox" checked={q.shuffle} onChange={(e) => set('shuffle', e.currentTarget.checked)} /> {t('tms.editor.shuffle')}
          </label>
        ) : null}
        {PARTIAL_SCORE_TYPES.includes(q.type) ? (
          <label className="switch">
            <input type="checkbox" checked={q.partial_score} onChange={(e) => set('partial_score', e.currentTarget.checked)} /> {t('tms.editor.partial_score')}
          </label>
        ) : null}
      </div>
      {['score', 'required', 'shuffle', 'partial_score', 'categories'].map((k) =>
        f.err(k) && (k !== 'score' || informative || q.type === 'text_ai') ? (
          <p key={k} className="error">
            {f.err(k)}
          </p>
        ) : null,
      )}
      <div className="field-row">
        <SelectField
          label={t(q.type === 'info' ? 'tms.editor.info_kind' : 'tms.editor.media_type')}
          value={q.media_type}
          options={
            q.type === 'info'
              ? INFO_KINDS.map((k) => [k, t(`tms.media_type.${k}`)] as [string, string])
              : [['', t('tms.editor.no_media')], ...MEDIA_TYPES.map((m) => [m, t(`tms.media_type.${m}`)] as [string, string])]
          }
          onChange={(v) => set('media_type', v)}
          error={f.err('media_type')}
        />
        {q.media_type && q.media_type !== 'text' ? (
          <TextField
            label={t('tms.editor.media_url')}
            value={q.media_url}
            onChange={(v) => set('media_url', v)}
            error={f.err('media_url')}
            hint={q.media_type === 'video' ? t('tms.editor.video_hint') : undefined}
          />
        ) : null}
      </div>
      {UPLOADS[q.media_type] ? (
        <FileUpload
          label={t('tms.editor.upload_media')}
          options={{ accept: UPLOADS[q.media_type], persist: true }}
          onUploaded={(file) => set('media_url', file.cdn_full_url)}
        />
      ) : null}
      <QuestionOptions q={q} onChange={(options) => actions.change({ ...q, options })} f={f} refs={refs} />
      <RichTextEditor
        key={`${q.id}-comment`}
        label={t(q.type === 'text_ai' ? 'tms.editor.resolution' : 'tms.editor.comment')}
        value={q.comment}
        onChange={(html) => set('comment', html)}
        error={f.err('comment')}
      />
      {!informative && categories.length ? (
        <fieldset className="option-list inline">
          <legend>{t('tms.editor.question_categories')}</legend>
          {categories.map((c) => (
            <label key={c.id} className="switch">
              <input
                type="checkbox"
                checked={q.categories.includes(c.id)}
                onChange={(e) => set('categories', e.currentTarget.checked ? [...q.categories, c.id] : q.categories.filter((x) => x !== c.id))}
              />{' '}
              {c.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      {preview ? (
        <div className="live-preview" aria-label={t('tms.editor.live_preview')}>
          <QuestionView q={q as Parameters<typeof QuestionView>[0]['q']} index={informative ? null : index} />
        </div>
      ) : null}
    </li>
  )
}
