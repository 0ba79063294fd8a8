import { Form, useSearchParams } from '@remix-run/react'
import { useState, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from '~/i18n/react'
import { dateTimePattern, showDate } from '~/lib/dates'
import { CHIP_MAX, paramsOf, sanitizeChip, sanitizeNumber, today, validateSearch, type SearchDescriptor } from '~/lib/search'
import { Dialog } from './dialog'
import { Icon } from './icon'

/**
 * A list's search bar built from its descriptors (seed 000 §3), with the rules of §5: number fields keep digits,
 * chips drop spaces and stop at 20 characters, dates reject the future, and a search needs one field filled.
 * It is a GET form: the filters live in the URL next to paging and order.
 */
export function SearchBar({ descriptors, keep = [] }: { descriptors: SearchDescriptor[]; keep?: string[] }) {
  const { t, i18n } = useTranslation()
  const [params] = useSearchParams()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const hasFilters = descriptors.some((d) => d.type !== 'none' && paramsOf(d).some((p) => params.get(p)))

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    const form = new FormData(e.currentTarget)
    const values = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]))
    const found = validateSearch(descriptors, values, today(), i18n.language)
    setErrors(found)
    if (Object.keys(found).length) e.preventDefault()
  }

  return (
    <Form method="get" className="search-bar" onSubmit={onSubmit} noValidate aria-label={t('table.filters')}>
      {keep.map((k) => (params.get(k) ? <input key={k} type="hidden" name={k} value={params.get(k) ?? ''} /> : null))}
      <div className="search-fields">
        {descriptors.map((d) => (
          <SearchField key={d.field} d={d} params={params} errors={errors} />
        ))}
      </div>
      {errors.form ? (
        <p className="error" role="alert">
          {t(errors.form)}
        </p>
      ) : null}
      <div className="search-actions">
        <button type="submit" className="btn btn-primary">
          <Icon name="search" /> {t('table.filters.apply')}
        </button>
        {hasFilters ? (
          <a className="btn" href="?">
            {t('table.filters.clear')}
          </a>
        ) : null}
      </div>
    </Form>
  )
}

function SearchField({ d, params, errors }: { d: SearchDescriptor; params: URLSearchParams; errors: Record<string, string> }) {
  const { t, i18n } = useTranslation()
  const id = `search-${d.field}`
  const errorOf = (p: string) =>
    errors[p] ? (
      <span className="error" id={`${id}-${p}-error`}>
        {t(errors[p], { min: String(d.minLength ?? 0), pattern: dateTimePattern(i18n.language, false) })}
      </span>
    ) : null
  const aria = (p: string) => (errors[p] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${p}-error` } : {})
  switch (d.type) {
    case 'none':
      return <input type="hidden" name={d.field} value={d.value ?? ''} />
    case 'date':
      return (
        <fieldset className="search-field search-date">
          <legend>{t(d.label)}</legend>
          {(['from', 'to'] as const).map((edge) => {
            const p = `${d.field}_${edge}`
            return (
              <label key={edge}>
                <span className="visually-hidden">{t(`table.filter.${edge}`, { field: t(d.label) })}</span>
                {/* A text field in the page language's format (dd/mm/aaaa, en-US mm/dd/yyyy): a native date field
                    follows the browser's language instead. The list loader reads it back to ISO. */}
                <input
                  className="input"
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  name={p}
                  placeholder={dateTimePattern(i18n.language, false)}
                  defaultValue={showDate(params.get(p) ?? '', i18n.language)}
                  {...aria(p)}
                  aria-label={t(`table.filter.${edge}`, { field: t(d.label) })}
                />
                {errorOf(p)}
              </label>
            )
          })}
        </fieldset>
      )
    case 'select':
      return (
        <div className="search-field">
          <label htmlFor={id}>{t(d.label)}</label>
          <select id={id} className="input" name={d.field} defaultValue={params.get(d.field) ?? ''}>
            <option value="">{t('table.filter.any')}</option>
            {d.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {t(o.label, { defaultValue: o.label })}
              </option>
            ))}
          </select>
        </div>
      )
    case 'modal':
      return <ModalField d={d} id={id} initial={params.get(d.field) ?? ''} />
    case 'chip':
      return <ChipField d={d} id={id} initial={params.get(d.field) ?? ''} error={errorOf(d.field)} />
    default:
      return (
        <div className="search-field">
          <label htmlFor={id}>{t(d.label)}</label>
          <input
            id={id}
            className="input"
            name={d.field}
            inputMode={d.type === 'number' ? 'numeric' : undefined}
            placeholder={d.placeholder ? t(d.placeholder) : undefined}
            defaultValue={params.get(d.field) ?? ''}
            onChange={d.type === 'number' ? (e) => (e.currentTarget.value = sanitizeNumber(e.currentTarget.value)) : undefined}
            {...aria(d.field)}
          />
          {errorOf(d.field)}
        </div>
      )
  }
}

function ChipField({ d, id, initial, error }: { d: SearchDescriptor; id: string; initial: string; error: React.ReactNode }) {
  const { t } = useTranslation()
  const max = d.chipMax ?? CHIP_MAX
  const [chips, setChips] = useState<string[]>(initial ? initial.split(',').filter(Boolean) : [])
  const [draft, setDraft] = useState('')
  const add = (raw: string) => {
    const chip = sanitizeChip(raw, max)
    if (chip && !chips.includes(chip)) setChips([...chips, chip])
    setDraft('')
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault()
      add(draft)
    } else if (e.key === 'Backspace' && !draft && chips.length) setChips(chips.slice(0, -1))
  }
  const value = [...chips, sanitizeChip(draft, max)].filter(Boolean).join(',')
  return (
    <div className="search-field search-chips">
      <label htmlFor={id}>{t(d.label)}</label>
      <div className="chip-input">
        {chips.map((c) => (
          <span key={c} className="chip">
            {c}
            <button type="button" onClick={() => setChips(chips.filter((x) => x !== c))}>
              <Icon name="close" size={14} label={t('table.filter.remove_chip', { value: c })} />
            </button>
          </span>
        ))}
        <input
          id={id}
          className="input"
          value={draft}
          maxLength={max}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setDraft(sanitizeChip(e.currentTarget.value.replace(/,.*/, ''), max))}
          onKeyDown={onKeyDown}
          onBlur={() => draft && add(draft)}
        />
      </div>
      <input type="hidden" name={d.field} value={value} />
      <span className="hint" id={`${id}-hint`}>
        {t('table.filter.chips_hint')}
      </span>
      {error}
    </div>
  )
}

function ModalField({ d, id, initial }: { d: SearchDescriptor; id: string; initial: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState(initial)
  const [filter, setFilter] = useState('')
  const label = (v: string) => {
    const o = d.options?.find((x) => x.value === v)
    return o ? t(o.label, { defaultValue: o.label }) : v
  }
  const shown = (d.options ?? []).filter((o) => label(o.value).toLowerCase().includes(filter.toLowerCase()))
  return (
    <div className="search-field">
      <span className="field-label" id={`${id}-label`}>
        {t(d.label)}
      </span>
      <input type="hidden" name={d.field} value={value} />
      <div className="input-group">
        <button type="button" className="btn" aria-labelledby={`${id}-label ${id}-value`} onClick={() => setOpen(true)}>
          <span id={`${id}-value`}>{value ? label(value) : t('table.filter.choose')}</span>
        </button>
        {value ? (
          <button type="button" className="btn btn-icon" onClick={() => setValue('')}>
            <Icon name="close" label={t('table.filter.remove_chip', { value: label(value) })} />
          </button>
        ) : null}
      </div>
      <Dialog open={open} onClose={() => setOpen(false)} title={t(d.label)} labelledBy={`${id}-dialog`}>
        <input
          className="input"
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          aria-label={t('table.search')}
          placeholder={t('table.search.placeholder')}
        />
        <ul className="option-list">
          {shown.map((o) => (
            <li key={o.value}>
              <button
                type="button"
                className="menu-item"
                aria-pressed={o.value === value}
                onClick={() => {
                  setValue(o.value)
                  setOpen(false)
                }}
              >
                {label(o.value)}
              </button>
            </li>
          ))}
        </ul>
      </Dialog>
    </div>
  )
}
