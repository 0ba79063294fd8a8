import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldSpec } from '~/lib/form-fields'
import { DEFAULT_TIME_ZONE } from '~/lib/form-kit'
import { filterText } from '#shared/word-filter'
import { WordFilterBody } from '#shared/schemas/realm-settings'
import { KitForm, TextArea } from '../form/kit'
import { useToast } from '../ui/toast'

/** The word filter form's one field: a text box, one sentence per line (an error names its line). */
export const wordFilterFields: FieldSpec[] = [{ name: 'sentences', kind: 'lines', label: 'word_filter.title' }]

const lines = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)

/**
 * The realm's word filter (seed 002 §3) on the form kit: one sentence per line, checked live with the API's schema
 * (`WordFilterBody`, an error naming its line), and a box to try a text against the sentences being edited. Posts
 * `intent=word_filter` and `sentences` to its route's action (a fetcher: the page stays), which names the realm.
 */
export function WordFilterEditor({ realm, sentences, canEdit }: { realm: string; sentences: string[]; canEdit: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher({ key: `word-filter-${realm}` })
  const [list, setList] = useState(sentences)
  const [sample, setSample] = useState('')
  const preview = sample
    ? filterText(
        sample,
        list.map((s) => s.toLowerCase()),
      )
    : null

  return (
    <section className="word-filter" aria-labelledby={`wf-${realm}`}>
      <h2 id={`wf-${realm}`}>{t('word_filter.title')}</h2>
      <p className="hint">{t('word_filter.description')}</p>
      <KitForm
        id={`wf-form-${realm}`}
        schema={WordFilterBody}
        fields={wordFilterFields}
        defaultValue={{ sentences }}
        timeZone={DEFAULT_TIME_ZONE}
        fetcher={fetcher}
        lastResult={fetcher.data}
        onSaved={() => toast.push({ kind: 'success', message: 'word_filter.saved' })}
        className="simple-form"
        aria-label={t('word_filter.title')}
        submitLabel={t('word_filter.save')}
        protect
        buttons={canEdit ? undefined : <p className="hint">{t('word_filter.read_only')}</p>}
      >
        <input type="hidden" name="intent" value="word_filter" />
        <div onInput={(e) => setList(lines((e.target as HTMLTextAreaElement).value))}>
          <TextArea name="sentences" label={t('word_filter.sentences', { count: list.length })} rows={10} hint={t('word_filter.hint')} disabled={!canEdit} />
        </div>
      </KitForm>
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
    </section>
  )
}
