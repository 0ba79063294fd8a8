import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import type { ErrorItem } from '#shared/schemas/error'
import { BankClassify } from '#shared/schemas/tms/bank'
import { GRADES } from '#shared/schemas/tms/constants'
import { questionTypeLabel, QUESTION_TYPES } from '#shared/schemas/tms/question-types'

const TOPIC = ['subject_id', 'standard_id', 'descriptor_id'] as const

/**
 * Manual classification of the chosen bank questions (seed 001 §5 "Question bank"): the types it applies to (at least
 * one) and one complete topic — grade, subject, standard, descriptor — checked live with the API's own schema.
 */
export function BankClassifyDialog({ ids, onClose }: { ids: string[] | null; onClose: () => void }) {
  const { t } = useTranslation()
  const id = useId()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; intent: string; errors: ErrorItem[]; updated?: number }>()
  const [values, setValues] = useState({
    types: [...QUESTION_TYPES] as string[],
    grade_id: '',
    subject_id: '',
    standard_id: '',
    descriptor_id: '',
    curriculum: '',
  })
  const [tried, setTried] = useState(false)
  const handled = useRef<unknown>(null)
  const body = useMemo(() => ({ ...values, ids: ids ?? [], grade_id: values.grade_id ? Number(values.grade_id) : null }), [values, ids])
  const live = useMemo(() => liveErrors(BankClassify, body), [body])
  const server = fetcher.data && !fetcher.data.ok ? fetcher.data.errors : []
  const err = (field: string) => {
    if (tried && live[field]) return ruleText(t, live[field])
    const item = server.find((e) => e.field === field)
    return item ? errorText(t, item) : null
  }
  const { state, data } = fetcher
  useEffect(() => {
    if (state !== 'idle' || !data || handled.current === data) return
    handled.current = data
    if (data.ok) {
      toast.push({ kind: 'success', message: 'tms.bank.classified', values: { count: String(data.updated ?? 0) } })
      onClose()
    }
  }, [state, data, toast, onClose])

  const set = (patch: Partial<typeof values>) => setValues((x) => ({ ...x, ...patch }))
  const submit = () => {
    setTried(true)
    if (Object.keys(live).length) return
    const form = new FormData()
    form.set('intent', 'classify')
    form.set('ids', JSON.stringify(ids ?? []))
    for (const type of values.types) form.append('types', type)
    for (const k of ['grade_id', 'subject_id', 'standard_id', 'descriptor_id', 'curriculum'] as const) form.set(k, values[k])
    fetcher.submit(form, { method: 'post' })
  }
  const message = (field: string) => {
    const m = err(field)
    return m ? (
      <p className="error" id={`${id}-${field}-error`}>
        {m}
      </p>
    ) : null
  }

  return (
    <Dialog
      open={ids !== null}
      onClose={onClose}
      title={t('tms.bank.classify_title', { count: ids?.length ?? 0 })}
      labelledBy={`${id}-title`}
      className="dialog-wide"
    >
      <fieldset className="option-list inline">
        <legend>{t('tms.bank.classify_types')}</legend>
        {QUESTION_TYPES.map((type) => (
          <label key={type} className="switch">
            <input
              type="checkbox"
              checked={values.types.includes(type)}
              onChange={(e) => set({ types: e.currentTarget.checked ? [...values.types, type] : values.types.filter((x) => x !== type) })}
            />{' '}
            {t(questionTypeLabel(type))}
          </label>
        ))}
        {message('types')}
      </fieldset>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-grade`}>{t('resources.tms_question_bank.fields.grade_id')}</label>
          <select
            id={`${id}-grade`}
            className="input"
            value={values.grade_id}
            onChange={(e) => set({ grade_id: e.currentTarget.value })}
            aria-invalid={err('grade_id') ? true : undefined}
          >
            <option value="">—</option>
            {GRADES.map((g) => (
              <option key={g} value={String(g)}>
                {t(`tms.grade.${g}`)}
              </option>
            ))}
          </select>
          {message('grade_id')}
        </div>
        {TOPIC.map((f) => (
          <div key={f} className="field">
            <label htmlFor={`${id}-${f}`}>{t(`resources.tms_question_bank.fields.${f}`)}</label>
            <input
              id={`${id}-${f}`}
              className="input"
              value={values[f]}
              onChange={(e) => set({ [f]: e.currentTarget.value })}
              aria-invalid={err(f) ? true : undefined}
            />
            {message(f)}
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-curriculum`}>{t('resources.tms_question_bank.fields.curriculum')}</label>
          <input id={`${id}-curriculum`} className="input" value={values.curriculum} onChange={(e) => set({ curriculum: e.currentTarget.value })} />
        </div>
      </div>
      <p className="hint">{t('tms.bank.topic_hint_all')}</p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('settings.cancel')}
        </button>
        <button type="button" className="btn btn-primary" disabled={fetcher.state !== 'idle'} onClick={submit}>
          {fetcher.state !== 'idle' ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('tms.bank.classify')}
        </button>
      </div>
    </Dialog>
  )
}
