import { useFetcher } from '@remix-run/react'
import { useMemo, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '~/i18n/react'
import { Icon } from '~/components/ui/icon'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { INFRA_FIELDS, REALM_TABS, RealmCreateBody, RealmUpdateBody, STORAGE_FIELDS, type RealmField, type RealmTab } from '#shared/schemas/realm-settings'
import { FirstAdminFields, HostsField } from './__realm-create-fields'
import { RealmFieldInput } from './__realm-field'
import { RealmPanel, type PanelData } from './__realm-panels'

export interface RealmEditorProps {
  mode: 'create' | 'edit'
  /** Writable field values (secrets empty), plus `hosts`, and `code` when creating. */
  initial: Record<string, unknown>
  /** Masked stored secrets by field. */
  secrets: Record<string, string>
  parents: { code: string; name: string }[]
  topLevel: boolean
  canInfra: boolean
  /** Roles a first administrator may get (null: unknown, typed by hand). */
  roles: string[] | null
  panels?: PanelData
}

export interface RealmSaveResult {
  errors?: ErrorItem[]
}

/**
 * The realm editor (seed 002 §2 settings tabs): every field of a tab rendered from its type, validated live with the
 * API's schema; an edit sends only what changed. Server, storage and host settings, the development flag and the
 * sign-in secret (INFRA_FIELDS) are read-only without mas_realm_edit_infra. A tab whose features need storage credentials says so while they are missing.
 */
export function RealmEditor({ mode, initial, secrets, parents, topLevel, canInfra, roles, panels }: RealmEditorProps) {
  const { t } = useTranslation()
  const fetcher = useFetcher<RealmSaveResult>({ key: 'realm-editor' })
  const [values, setValues] = useState<Record<string, unknown>>(initial)
  const [admin, setAdmin] = useState<Record<string, string> | null>(null)
  const [tab, setTab] = useState(REALM_TABS[0].id)
  const schema = mode === 'create' ? RealmCreateBody : RealmUpdateBody
  const body = useMemo(() => (admin ? { ...values, admin } : values), [values, admin])
  const form = useLiveValidation(schema, body, fetcher.data?.errors)
  const saving = fetcher.state !== 'idle'
  const changed = changedValues(initial, values)
  const dirty = !saving && (Object.keys(changed).length > 0 || admin !== null)
  const guard = useUnsavedChanges(dirty)
  const set = (field: string) => (value: unknown) => setValues((v) => ({ ...v, [field]: value }))
  const storageMissing = STORAGE_FIELDS.some((f) => !values[f] && !secrets[f])
  const tabErrors = (t: RealmTab) =>
    t.fields.filter((f) => form.errorOf(f)).length + (t.id === 'general' ? ['code', 'hosts'].filter((f) => form.errorOf(f)).length : 0)

  function submit() {
    if (!form.attempt()) {
      const first = REALM_TABS.find((x) => tabErrors(x) > 0)
      if (first) setTab(first.id)
      return
    }
    const send = mode === 'create' ? { ...changed, code: values.code, name: values.name, ...(admin ? { admin } : {}) } : changed
    fetcher.submit(jsonBody({ intent: 'save', values: send }), { method: 'post', encType: 'application/json' })
  }

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? REALM_TABS.length - 1 : null
    if (next === null) return
    e.preventDefault()
    const target = REALM_TABS[(next + REALM_TABS.length) % REALM_TABS.length]
    setTab(target.id)
    document.getElementById(`tab-${target.id}`)?.focus()
  }

  const other = (fetcher.data?.errors ?? []).filter((e) => !e.field || !(e.field in values || e.field === 'hosts' || e.field.startsWith('admin')))
  return (
    <form
      className="realm-editor"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      {other.length ? (
        <div className="alert alert-error" role="alert">
          <ul>
            {other.map((e, i) => (
              <li key={i}>
                {t(`errors.${e.cause}`, { defaultValue: e.cause })} — {t(e.message, { defaultValue: e.message })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="tabs" role="tablist" aria-label={t('resources.realm.tabs.label')}>
        {REALM_TABS.map((x, i) => (
          <button
            key={x.id}
            id={`tab-${x.id}`}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === x.id}
            aria-controls={`panel-${x.id}`}
            tabIndex={tab === x.id ? 0 : -1}
            onClick={() => setTab(x.id)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {t(`resources.realm.tabs.${x.id}`)}
            {tabErrors(x) ? <span className="badge badge-error">{tabErrors(x)}</span> : null}
          </button>
        ))}
      </div>
      {REALM_TABS.map((x) => (
        <div key={x.id} id={`panel-${x.id}`} role="tabpanel" aria-labelledby={`tab-${x.id}`} hidden={tab !== x.id} className="card tab-panel">
          {x.infra && !canInfra ? <p className="alert alert-info">{t('resources.realm.infra_only')}</p> : null}
          {x.needsStorage && storageMissing ? (
            <div className="alert alert-warning" role="status">
              {t('resources.realm.storage_missing')}{' '}
              <button type="button" className="btn-link" onClick={() => setTab('storage')}>
                {t('resources.realm.storage_go')}
              </button>
            </div>
          ) : null}
          {x.id === 'general' && mode === 'create' ? (
            <RealmFieldInputText
              label={t('resources.realm.fields.code')}
              value={String(values.code ?? '')}
              onChange={set('code')}
              onBlur={() => form.touch('code')}
              error={form.errorOf('code')}
              hint={t('validation.realm_code')}
            />
          ) : null}
          <div className="field-grid">
            {x.fields.map((f: RealmField) => (
              <RealmFieldInput
                key={f}
                field={f}
                value={values[f]}
                onChange={set(f)}
                onBlur={() => form.touch(f)}
                error={form.errorOf(f)}
                disabled={!canInfra && INFRA_FIELDS.includes(f)}
                stored={secrets[f]}
                parents={parents}
                topLevel={topLevel}
              />
            ))}
          </div>
          {x.id === 'general' ? (
            <HostsField
              value={(values.hosts as string[]) ?? []}
              onChange={set('hosts')}
              onBlur={() => form.touch('hosts')}
              error={form.errorOf('hosts')}
              disabled={!canInfra}
            />
          ) : null}
          {x.id === 'general' && mode === 'create' ? (
            <FirstAdminFields value={admin} onChange={setAdmin} roles={roles} errorOf={form.errorOf} touch={form.touch} />
          ) : null}
          {x.panel ? <RealmPanel panel={x.panel} data={panels} mode={mode} /> : null}
        </div>
      ))}
      <div className="form-actions sticky-actions">
        <span className="hint" aria-live="polite">
          {dirty ? t('resources.realm.changes', { count: Object.keys(changed).length + (admin ? 1 : 0) }) : ''}
        </span>
        <button type="submit" className="btn btn-primary" disabled={saving || (mode === 'edit' && !dirty)}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />}{' '}
          {t(mode === 'create' ? 'resources.realm.create' : 'resources.realm.save')}
        </button>
      </div>
      {guard}
    </form>
  )
}

/** The code of a new realm (fixed once created). */
function RealmFieldInputText(p: { label: string; value: string; onChange: (v: string) => void; onBlur: () => void; error?: string; hint: string }) {
  const { t } = useTranslation()
  return (
    <div className="field">
      <label htmlFor="realm-code-input">
        {p.label}
        <span aria-hidden="true"> *</span>
      </label>
      <input
        id="realm-code-input"
        className="input"
        value={p.value}
        required
        maxLength={10}
        autoComplete="off"
        onChange={(e) => p.onChange(e.currentTarget.value)}
        onBlur={p.onBlur}
        aria-invalid={p.error ? true : undefined}
        aria-describedby="realm-code-msg"
      />
      <p className={p.error ? 'error' : 'hint'} id="realm-code-msg" role={p.error ? 'alert' : undefined}>
        {p.error ? t(p.error) : p.hint}
      </p>
    </div>
  )
}
