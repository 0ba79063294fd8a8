import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import type { ListPage } from '#shared/schemas/common'
import type { BankItem } from '#shared/schemas/tms/bank'
import { DIFFICULTIES } from '#shared/schemas/tms/constants'
import { questionTypeLabel, QUESTION_TYPES } from '#shared/schemas/tms/question-types'

/**
 * Adds question-bank questions to a model: search the bank (text, type, difficulty, subject), choose, and the
 * editor's action answers them as copies linked to their source (`bank_id`).
 */
export function BankPicker({ open, onClose, onAdd }: { open: boolean; onClose: () => void; onAdd: (questions: Record<string, unknown>[]) => void }) {
  const { t } = useTranslation()
  const id = useId()
  const search = useFetcher<{ page: ListPage<BankItem> }>()
  const pick = useFetcher<{ bank: Record<string, unknown>[] | null }>()
  const [query, setQuery] = useState({ like: '', type: '', difficulty: '', subject_id: '' })
  // The search sent: the list loads when the dialog opens and on each explicit search, not on every keystroke.
  const [sent, setSent] = useState(query)
  const [chosen, setChosen] = useState<string[]>([])
  const handled = useRef<unknown>(null)
  const url = `/tms/question_bank?${new URLSearchParams({ index: '', limit: '25', ...Object.fromEntries(Object.entries(sent).filter(([, v]) => v)) }).toString()}`
  const { load } = search

  useEffect(() => {
    if (open) load(url)
  }, [open, url, load])
  useEffect(() => {
    if (pick.state !== 'idle' || !pick.data?.bank || handled.current === pick.data) return
    handled.current = pick.data
    onAdd(pick.data.bank)
    setChosen([])
  }, [pick.state, pick.data, onAdd])
  const items = search.data?.page?.items ?? []

  return (
    <Dialog open={open} onClose={onClose} title={t('tms.bank.pick_title')} labelledBy={`${id}-title`} className="dialog-wide">
      <form
        className="bank-search"
        onSubmit={(e) => {
          e.preventDefault()
          setSent({ ...query })
        }}
      >
        <label>
          {t('table.search')}
          <input className="input" type="search" value={query.like} onChange={(e) => setQuery({ ...query, like: e.currentTarget.value })} />
        </label>
        <label>
          {t('resources.tms_question_bank.fields.type')}
          <select className="input" value={query.type} onChange={(e) => setQuery({ ...query, type: e.currentTarget.value })}>
            <option value="">{t('table.filter.any')}</option>
            {QUESTION_TYPES.map((q) => (
              <option key={q} value={q}>
                {t(questionTypeLabel(q))}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('resources.tms_question_bank.fields.difficulty')}
          <select className="input" value={query.difficulty} onChange={(e) => setQuery({ ...query, difficulty: e.currentTarget.value })}>
            <option value="">{t('table.filter.any')}</option>
            {DIFFICULTIES.map((d) => (
              <option key={d} value={d}>
                {t(`tms.difficulty.${d}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('resources.tms_question_bank.fields.subject_id')}
          <input className="input" value={query.subject_id} onChange={(e) => setQuery({ ...query, subject_id: e.currentTarget.value })} />
        </label>
        <button type="submit" className="btn">
          <Icon name="search" /> {t('table.search.submit')}
        </button>
      </form>
      <div aria-live="polite" aria-busy={search.state !== 'idle'}>
        {search.state !== 'idle' ? (
          <p className="table-loading">
            <span className="spinner" aria-hidden="true" /> {t('table.loading')}
          </p>
        ) : null}
        {search.state === 'idle' && items.length === 0 ? <p className="empty">{t('table.empty')}</p> : null}
        <ul className="option-list bank-results">
          {items.map((item) => (
            <li key={item.id}>
              <label className="switch">
                <input
                  type="checkbox"
                  checked={chosen.includes(item.id)}
                  onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, item.id] : chosen.filter((x) => x !== item.id))}
                />
                <span>
                  {item.statement_text} <span className="badge">{t(questionTypeLabel(item.type))}</span>{' '}
                  <span className="badge">{t(`tms.difficulty.${item.difficulty}`)}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </div>
      {pick.data && !pick.data.bank ? (
        <p className="error" role="alert">
          {t('tms.bank.pick_failed')}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('settings.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!chosen.length || pick.state !== 'idle'}
          onClick={() => pick.submit({ intent: 'bank', ids: JSON.stringify(chosen) }, { method: 'post' })}
        >
          {t('tms.bank.add', { count: chosen.length })}
        </button>
      </div>
    </Dialog>
  )
}
