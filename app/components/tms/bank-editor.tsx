import { useFetcher } from '@remix-run/react'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { BankItemInput } from '#shared/schemas/tms/bank'
import { DIFFICULTIES, GRADES, type QuestionType } from '#shared/schemas/tms/constants'
import { QuestionCard } from './question-card'
import { changeType, hasOwnOptions, toDraft, type QuestionDraft } from './question-draft'
import { SelectField, TextField, type EditorRefs } from './question-options'
import { questionTypeLabel } from '#shared/schemas/tms/question-types'

export interface Classification {
  difficulty: string
  tags: string[]
  grade_id: number | null
  subject_id: string
  standard_id: string
  descriptor_id: string
  batch_id: string
  curriculum: string
}

const CLASSIFICATION = ['difficulty', 'tags', 'grade_id', 'subject_id', 'standard_id', 'descriptor_id', 'batch_id', 'curriculum'] as const

/** The classification part of a bank record. */
export const classificationOf = (row: Classification): Classification => Object.fromEntries(CLASSIFICATION.map((k) => [k, row[k]])) as unknown as Classification

/**
 * A question-bank item (seed 001 §3): the question (any type, default text) and its classification — difficulty,
 * tags, grade (1–16), subject, standard, descriptor (a topic: all four or none), batch and curriculum.
 */
export function BankEditor({
  initial,
  refs,
  categories,
}: {
  initial: Record<string, unknown> & Classification
  refs: EditorRefs
  categories: { id: string; name: string }[]
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'bank-editor' })
  const [q, setQ] = useState<QuestionDraft>(() => toDraft(initial))
  // Only the classification's own keys: a copy of the whole record put its stale `statement` (and every other
  // question field) over the edited question in the body, so a new item's typed statement was never sent.
  const [c, setC] = useState<Classification>(() => classificationOf(initial))
  const [dirty, setDirty] = useState(false)
  const [tried, setTried] = useState(false)
  const [pendingType, setPendingType] = useState<QuestionType | null>(null)
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(dirty && !saving)
  const body = useMemo(() => {
    const { id: _id, ...question } = q
    return { ...question, ...c }
  }, [q, c])
  const live = useMemo(() => liveErrors(BankItemInput, body), [body])
  const server = fetcher.data?.errors ?? []
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length)
      toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'tms.editor.save_failed' })
  }, [fetcher.state, fetcher.data, toast, t])
  const err = (path: string) => {
    if ((tried || dirty) && live[path]) return ruleText(t, live[path])
    const item = server.find((e) => e.field === path)
    return item ? errorText(t, item) : null
  }
  const setClass = (patch: Partial<Classification>) => {
    setDirty(true)
    setC((x) => ({ ...x, ...patch }))
  }

  return (
    <div className="bank-editor">
      <ol className="question-list">
        <QuestionCard
          q={q}
          index={0}
          count={1}
          single
          refs={refs}
          categories={categories}
          f={{ err, touch: () => setDirty(true) }}
          actions={{
            change: (next) => {
              setDirty(true)
              setQ(next)
            },
            changeType: (type) => {
              if (type === q.type) return
              if (hasOwnOptions(q, t)) return setPendingType(type)
              setDirty(true)
              setQ(changeType(q, type, t))
            },
            move: () => undefined,
            dropAt: () => undefined,
            duplicate: () => undefined,
            remove: () => undefined,
          }}
        />
      </ol>
      <section className="card" aria-labelledby="classification-title">
        <h2 id="classification-title">{t('tms.bank.classification')}</h2>
        <div className="field-row">
          <SelectField
            label={t('resources.tms_question_bank.fields.difficulty')}
            value={c.difficulty}
            options={DIFFICULTIES.map((d) => [d, t(`tms.difficulty.${d}`)])}
            onChange={(v) => setClass({ difficulty: v })}
          />
          <SelectField
            label={t('resources.tms_question_bank.fields.grade_id')}
            value={c.grade_id === null ? '' : String(c.grade_id)}
            options={[['', '—'], ...GRADES.map((g) => [String(g), t(`tms.grade.${g}`)] as [string, string])]}
            onChange={(v) => setClass({ grade_id: v ? Number(v) : null })}
            error={err('grade_id')}
          />
        </div>
        <div className="field-row">
          {(['subject_id', 'standard_id', 'descriptor_id'] as const).map((f) => (
            <TextField key={f} label={t(`resources.tms_question_bank.fields.${f}`)} value={c[f]} onChange={(v) => setClass({ [f]: v })} error={err(f)} />
          ))}
        </div>
        <p className="hint">{t('tms.bank.topic_hint')}</p>
        <div className="field-row">
          <TextField
            label={t('resources.tms_question_bank.fields.tags')}
            value={c.tags.join(', ')}
            onChange={(v) =>
              setClass({
                tags: v
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              })
            }
            error={err('tags')}
            hint={t('tms.editor.tags_hint')}
          />
          <TextField
            label={t('resources.tms_question_bank.fields.batch_id')}
            value={c.batch_id}
            onChange={(v) => setClass({ batch_id: v })}
            error={err('batch_id')}
          />
          <TextField
            label={t('resources.tms_question_bank.fields.curriculum')}
            value={c.curriculum}
            onChange={(v) => setClass({ curriculum: v })}
            error={err('curriculum')}
          />
        </div>
      </section>
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={saving}
          onClick={() => {
            setTried(true)
            if (Object.keys(liveErrors(BankItemInput, body)).length) return toast.push({ kind: 'error', message: 'tms.editor.fix_errors' })
            fetcher.submit({ item: JSON.stringify(body) }, { method: 'post' })
          }}
        >
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('tms.form.save')}
        </button>
      </div>
      <ConfirmDialog
        open={pendingType !== null}
        title={t('tms.editor.change_type_title')}
        message={t('tms.editor.change_type_message', { type: pendingType ? t(questionTypeLabel(pendingType)) : '' })}
        confirmLabel={t('tms.editor.change_type_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setPendingType(null)}
        onConfirm={() => {
          if (pendingType) {
            setDirty(true)
            setQ(changeType(q, pendingType, t))
          }
          setPendingType(null)
        }}
      />
      {guard}
    </div>
  )
}
