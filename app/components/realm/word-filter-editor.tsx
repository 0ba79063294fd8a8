import { useFetcher } from '@remix-run/react'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { filterText } from '#shared/word-filter'
import { schemaErrors } from '~/lib/form'
import type { ErrorItem } from '#shared/schemas/error'
import { WordFilterBody } from '#shared/schemas/realm-settings'
import { Icon } from '../ui/icon'
import { useToast } from '../ui/toast'

export interface ListSaveResult {
  ok: boolean
  errors: ErrorItem[]
}

/**
 * The realm's word filter (seed 002 §3): one sentence per line, checked live with the API's schema, and a box to
 * try a text against the sentences being edited. Saves with `{ intent: 'word_filter', realm, sentences }`.
 */
export function WordFilterEditor({ realm, sentences, canEdit, action }: { realm: string; sentences: string[]; canEdit: boolean; action?: string }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<ListSaveResult>({ key: `word-filter-${realm}` })
  const [saved, setSaved] = useState(sentences)
  const [text, setText] = useState(sentences.join('\n'))
  const [sample, setSample] = useState('')
  const list = useMemo(
    () =>
      text
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    [text],
  )
  const errors = schemaErrors(WordFilterBody, { sentences: list })
  const firstError = Object.entries(errors)[0]
  const saving = fetcher.state !== 'idle'
  const dirty = !saving && list.join('\n') !== saved.join('\n')
  const guard = useUnsavedChanges(dirty)
  const preview = sample
    ? filterText(
        sample,
        list.map((s) => s.toLowerCase()),
      )
    : null

  // What was sent, so a finished save marks exactly that as saved (the text may change while it runs).
  const [sent, setSent] = useState<string[] | null>(null)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || !sent) return
    if (fetcher.data.ok) {
      setSaved(sent)
      toast.push({ kind: 'success', message: 'word_filter.saved' })
    } else toast.pushErrors(fetcher.data.errors, { title: 'word_filter.save_failed' })
    setSent(null)
  }, [fetcher.state, fetcher.data, sent, toast])

  return (
    <section className="word-filter" aria-labelledby={`wf-${realm}`}>
      <h2 id={`wf-${realm}`}>{t('word_filter.title')}</h2>
      <p className="hint">{t('word_filter.description')}</p>
      <div className="field">
        <label htmlFor={`wf-text-${realm}`}>{t('word_filter.sentences', { count: list.length })}</label>
        <textarea
          id={`wf-text-${realm}`}
          className="input"
          rows={10}
          value={text}
          readOnly={!canEdit}
          onChange={(e) => setText(e.currentTarget.value)}
          aria-invalid={firstError ? true : undefined}
          aria-describedby={`wf-msg-${realm}`}
        />
        <p className={firstError ? 'error' : 'hint'} id={`wf-msg-${realm}`} role={firstError ? 'alert' : undefined}>
          {firstError ? t('word_filter.line_error', { line: Number(firstError[0].split('.')[1] ?? 0) + 1, message: t(firstError[1]) }) : t('word_filter.hint')}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`wf-sample-${realm}`}>{t('word_filter.try')}</label>
        <input
          id={`wf-sample-${realm}`}
          className="input"
          value={sample}
          onChange={(e) => setSample(e.currentTarget.value)}
          aria-describedby={`wf-preview-${realm}`}
        />
        <p className="hint" id={`wf-preview-${realm}`} aria-live="polite">
          {preview ? (preview.matches.length ? t('word_filter.preview', { text: preview.text }) : t('word_filter.preview_clean')) : ''}
        </p>
      </div>
      {canEdit ? (
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-primary"
            disabled={saving || Boolean(firstError) || !dirty}
            onClick={() => {
              setSent(list)
              fetcher.submit(jsonBody({ intent: 'word_filter', realm, sentences: list }), { method: 'post', encType: 'application/json', action })
            }}
          >
            {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('word_filter.save')}
          </button>
        </div>
      ) : (
        <p className="hint">{t('word_filter.read_only')}</p>
      )}
      {guard}
    </section>
  )
}
