import { useFetcher } from '@remix-run/react'
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'
import { BusyButton } from '~/components/ui/busy-button'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { questionTypeLabel, QUESTION_TYPES, type QuestionType } from '#shared/schemas/tms/question-types'
import { ModelInput } from '#shared/schemas/tms/model'
import { BankPicker } from './bank-picker'
import { ModelFields, type CategoryOption, type ModelMeta } from './model-fields'
import { QuestionCard } from './question-card'
import { changeType, draftId, hasOwnOptions, newQuestion, toDraft, type QuestionDraft } from './question-draft'
import type { EditorRefs } from './question-options'

/** A new model's fields (the create screen starts from it; a generated draft fills it). */
export const EMPTY_MODEL: ModelEditorProps['initial'] = {
  title: '',
  kind: 'activity',
  description: '',
  tags: [],
  categories: [],
  style: { background_color: '' },
  min_execution_time: 0,
  max_execution_time: 0,
  token: false,
  audio_question: false,
  essay_transcription: false,
  verify_answers: false,
  disable_answer_review: false,
  auto_draft: false,
  questions: [],
}

export interface ModelEditorProps {
  initial: ModelMeta & { questions: Record<string, unknown>[] }
  categories: CategoryOption[]
  refs: EditorRefs
  canUseBank: boolean
}

/**
 * The task-model editor (seed 001 §3, §5): the model's fields and its questions (add, reorder by keyboard or drag,
 * duplicate, delete, change type, live preview), validated live with the API's own schema; leaving with unsaved
 * changes warns (seed 000 §2.4).
 */
export function ModelEditor({ initial, categories, refs, canUseBank }: ModelEditorProps) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'model-editor' })
  const { questions: initialQuestions, ...initialMeta } = initial
  const [meta, setMeta] = useState<ModelMeta>(initialMeta)
  const [questions, setQuestions] = useState<QuestionDraft[]>(() => initialQuestions.map(toDraft))
  const [touched, setTouched] = useState<Set<string>>(new Set())
  const [tried, setTried] = useState(false)
  const [dirty, setDirty] = useState(false)
  const [newType, setNewType] = useState<QuestionType>('single')
  const [pendingType, setPendingType] = useState<{ id: string; type: QuestionType } | null>(null)
  const [picking, setPicking] = useState(false)
  const [announce, setAnnounce] = useState('')
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(dirty && !saving)

  const draft = useMemo(() => ({ ...meta, questions }), [meta, questions])
  const deferred = useDeferredValue(draft)
  const live = useMemo(() => liveErrors(ModelInput, deferred), [deferred])
  const server = fetcher.data?.errors ?? []
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length)
      toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'tms.editor.save_failed' })
  }, [fetcher.state, fetcher.data, toast, t])

  const isTouched = (key: string) => tried || [...touched].some((k) => key === k || key.startsWith(`${k}.`))
  const messageAt = (path: string, touchKey: string) => {
    if (live[path] && isTouched(touchKey)) return ruleText(t, live[path])
    const item = server.find((e) => e.field === path)
    return item ? errorText(t, item) : null
  }
  const touch = useCallback((key: string) => setTouched((s) => (s.has(key) ? s : new Set(s).add(key))), [])
  const edit = () => setDirty(true)

  const setQ = (id: string, next: (q: QuestionDraft) => QuestionDraft) => {
    edit()
    setQuestions((qs) => qs.map((q) => (q.id === id ? next(q) : q)))
  }
  const move = (from: number, to: number) => {
    if (to < 0 || to >= questions.length || from === to) return
    edit()
    setQuestions((qs) => {
      const next = [...qs]
      const [q] = next.splice(from, 1)
      next.splice(to, 0, q)
      return next
    })
    setAnnounce(t('tms.editor.moved', { n: String(to + 1) }))
  }
  const add = (drafts: QuestionDraft[]) => {
    edit()
    setQuestions((qs) => [...qs, ...drafts])
    setAnnounce(t('tms.editor.added', { count: drafts.length }))
  }
  const addFromBank = useCallback((items: Record<string, unknown>[]) => {
    setDirty(true)
    setQuestions((qs) => [...qs, ...items.map((item) => toDraft({ ...item, id: draftId() }))])
    setPicking(false)
  }, [])
  const requestType = (q: QuestionDraft, type: QuestionType) => {
    if (type === q.type) return
    if (hasOwnOptions(q, t)) setPendingType({ id: q.id, type })
    else setQ(q.id, (x) => changeType(x, type, t))
  }

  function save() {
    setTried(true)
    if (Object.keys(liveErrors(ModelInput, draft)).length) {
      toast.push({ kind: 'error', message: 'tms.editor.fix_errors' })
      return
    }
    fetcher.submit({ intent: 'save', model: JSON.stringify(draft) }, { method: 'post' })
  }

  const general = [
    ...(tried && live.questions ? [ruleText(t, live.questions)] : []),
    ...server
      .filter((e) => !e.field.startsWith('questions.') && !['title', 'categories', 'tags', 'max_execution_time', 'min_execution_time'].includes(e.field))
      .map((e) => errorText(t, e)),
  ]
  return (
    <div className="model-editor">
      {general.length ? (
        <div className="alert alert-error" role="alert">
          <ul>
            {general.map((m, i) => (
              <li key={i}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ModelFields
        meta={meta}
        categories={categories}
        err={(field) => messageAt(field, field)}
        set={(patch, field) => {
          edit()
          touch(field)
          setMeta((m) => ({ ...m, ...patch }))
        }}
      />
      <section aria-labelledby="questions-title">
        <h2 id="questions-title">{t('tms.editor.questions', { count: questions.length })}</h2>
        <p className="visually-hidden" aria-live="polite">
          {announce}
        </p>
        {questions.length === 0 ? <p className="empty card">{t('tms.editor.no_questions')}</p> : null}
        <ol className="question-list">
          {questions.map((q, i) => (
            <QuestionCard
              key={q.id}
              q={q}
              index={i}
              count={questions.length}
              refs={refs}
              categories={categories.filter((c) => c.enabled && c.selectable)}
              f={{ err: (sub) => messageAt(`questions.${i}.${sub}`, `${q.id}.${sub}`), touch: (sub) => touch(`${q.id}.${sub}`) }}
              actions={{
                change: (next) => setQ(q.id, () => next),
                changeType: (type) => requestType(q, type),
                move: (delta) => move(i, i + delta),
                dropAt: (from) => move(from, i),
                duplicate: () => {
                  edit()
                  setQuestions((qs) => [...qs.slice(0, i + 1), { ...structuredClone(q), id: draftId() }, ...qs.slice(i + 1)])
                  setAnnounce(t('tms.editor.duplicated', { n: String(i + 2) }))
                },
                remove: () => {
                  edit()
                  setQuestions((qs) => qs.filter((x) => x.id !== q.id))
                  setAnnounce(t('tms.editor.removed', { n: String(i + 1) }))
                },
              }}
            />
          ))}
        </ol>
        <div className="add-question card">
          <label htmlFor="new-question-type">{t('tms.editor.new_type')}</label>
          <select id="new-question-type" className="input" value={newType} onChange={(e) => setNewType(e.currentTarget.value as QuestionType)}>
            {QUESTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(questionTypeLabel(type))}
              </option>
            ))}
          </select>
          <button type="button" className="btn" onClick={() => add([newQuestion(newType, t)])}>
            <Icon name="plus" /> {t('tms.editor.add_question')}
          </button>
          {canUseBank ? (
            <button type="button" className="btn" onClick={() => setPicking(true)}>
              <Icon name="search" /> {t('tms.bank.add_from_bank')}
            </button>
          ) : null}
        </div>
      </section>
      <div className="form-actions sticky-actions">
        <BusyButton busy={saving} icon="check" onClick={save}>
          {t('tms.editor.save')}
        </BusyButton>
      </div>
      <ConfirmDialog
        open={pendingType !== null}
        title={t('tms.editor.change_type_title')}
        message={t('tms.editor.change_type_message', { type: pendingType ? t(questionTypeLabel(pendingType.type)) : '' })}
        confirmLabel={t('tms.editor.change_type_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setPendingType(null)}
        onConfirm={() => {
          if (pendingType) setQ(pendingType.id, (x) => changeType(x, pendingType.type, t))
          setPendingType(null)
        }}
      />
      <BankPicker open={picking} onClose={() => setPicking(false)} onAdd={addFromBank} />
      {guard}
    </div>
  )
}
