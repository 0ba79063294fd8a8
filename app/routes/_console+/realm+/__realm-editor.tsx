import { useFormMetadata } from '@conform-to/react'
import { useActionData } from '@remix-run/react'
import { useMemo, useState, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { KitForm, TextInput } from '~/components/form/kit'
import { formToValues } from '~/lib/form-fields'
import { DEFAULT_TIME_ZONE } from '~/lib/form-kit'
import { INFRA_FIELDS, REALM_TABS, RealmCreateBody, RealmUpdateBody, STORAGE_FIELDS, type RealmField } from '#shared/schemas/realm-settings'
import { FirstAdminFields, HostsField } from './__realm-create-fields'
import { RealmFieldInput } from './__realm-field'
import { lockedValues, realmChanges, realmFields, realmFormValues, realmPrepare, tabOf } from './__realm-fields'
import { RealmPanel, type PanelData } from './__realm-panels'

export interface RealmEditorProps {
  mode: 'create' | 'edit'
  /** Writable field values as stored (API shape, secrets empty), plus `hosts`, and `code` when creating. */
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

/**
 * The realm editor (seed 002 §2 settings tabs) on the form kit: every field of a tab rendered from its type, checked
 * live with the API's schema (`RealmCreateBody`, `RealmUpdateBody`) and again by the action, which sends only what
 * changed. Server, storage and host settings, the development flag and the sign-in secret (INFRA_FIELDS) are
 * read-only without mas_realm_edit_infra. A tab whose features need storage credentials says so while they are
 * missing. A refused submit shows the first tab with an error. The tabs with their own API (word filter, exemption
 * domains, metaverse rooms, reports) are forms of their own, under the editor's form.
 */
export function RealmEditor({ mode, initial, secrets, parents, topLevel, canInfra, roles, panels }: RealmEditorProps) {
  const { t, i18n } = useTranslation()
  const [tab, setTab] = useState(REALM_TABS[0].id)
  const fields = useMemo(() => realmFields(mode), [mode])
  const prepare = useMemo(() => realmPrepare(initial, lockedValues(initial, canInfra)), [initial, canInfra])
  const [changes, setChanges] = useState(0)
  const [storageMissing, setStorageMissing] = useState(() => STORAGE_FIELDS.some((f) => !initial[f] && !secrets[f]))

  // The count of changed fields and the storage warning follow what is typed.
  const follow = (e: FormEvent<HTMLDivElement>) => {
    const form = (e.target as HTMLInputElement).form
    if (!form) return
    const values = prepare(formToValues(new FormData(form), fields, DEFAULT_TIME_ZONE, i18n.language))
    setChanges(Object.keys(realmChanges(initial, values, 'edit')).filter((k) => k !== 'admin').length + (values.admin ? 1 : 0))
    setStorageMissing(STORAGE_FIELDS.some((f) => !values[f] && !secrets[f]))
  }

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? REALM_TABS.length - 1 : null
    if (next === null) return
    e.preventDefault()
    const target = REALM_TABS[(next + REALM_TABS.length) % REALM_TABS.length]
    setTab(target.id)
    document.getElementById(`tab-${target.id}`)?.focus()
  }

  return (
    <div className="realm-editor">
      <KitForm
        id="realm-form"
        schema={mode === 'create' ? RealmCreateBody : RealmUpdateBody}
        fields={fields}
        prepare={prepare}
        lastResult={useActionData()}
        defaultValue={{ ...realmFormValues(initial), admin: { role: 'admin' } }}
        timeZone={DEFAULT_TIME_ZONE}
        className="realm-editor-form"
        submitLabel={t(mode === 'create' ? 'resources.realm.create' : 'resources.realm.save')}
        protect
        onInvalid={(names) => {
          const first = REALM_TABS.find((x) => names.some((n) => tabOf(n) === x.id))
          if (first) setTab(first.id)
        }}
        actions={
          <span className="hint" aria-live="polite">
            {changes ? t('resources.realm.changes', { count: changes }) : ''}
          </span>
        }
      >
        <Tabs tab={tab} setTab={setTab} onTabKey={onTabKey} />
        <div onChange={follow} onInput={follow}>
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
                <TextInput name="code" label={t('resources.realm.fields.code')} hint={t('validation.realm_code')} maxLength={10} autoComplete="off" required />
              ) : null}
              <div className="field-grid">
                {x.fields.map((f: RealmField) => (
                  <RealmFieldInput
                    key={f}
                    field={f}
                    disabled={!canInfra && INFRA_FIELDS.includes(f)}
                    stored={secrets[f]}
                    parents={parents}
                    topLevel={topLevel}
                    hasParent={Boolean(initial[f])}
                  />
                ))}
              </div>
              {x.id === 'general' ? <HostsField disabled={!canInfra} /> : null}
              {x.id === 'general' && mode === 'create' ? <FirstAdminFields roles={roles} /> : null}
              {x.panel && (mode === 'create' || !panels) ? <RealmPanel panel={x.panel} data={panels} mode={mode} /> : null}
            </div>
          ))}
        </div>
      </KitForm>
      {/* The tabs' own forms (a form cannot hold another): shown with their tab, below the editor's fields. */}
      {mode === 'edit' && panels
        ? REALM_TABS.filter((x) => x.panel).map((x) => (
            <div key={x.id} id={`panel-${x.id}-own`} role="region" aria-labelledby={`tab-${x.id}`} hidden={tab !== x.id} className="card tab-panel">
              <RealmPanel panel={x.panel!} data={panels} mode={mode} />
            </div>
          ))
        : null}
    </div>
  )
}

/** The tab list, with the count of invalid fields on each tab. */
function Tabs({ tab, setTab, onTabKey }: { tab: string; setTab: (id: string) => void; onTabKey: (e: KeyboardEvent<HTMLButtonElement>, i: number) => void }) {
  const { t } = useTranslation()
  const form = useFormMetadata()
  const errors = Object.entries(form.allErrors).filter(([, e]) => e.length)
  return (
    <div className="tabs" role="tablist" aria-label={t('resources.realm.tabs.label')}>
      {REALM_TABS.map((x, i) => {
        const count = errors.filter(([name]) => name && tabOf(name) === x.id).length
        return (
          <button
            key={x.id}
            id={`tab-${x.id}`}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === x.id}
            aria-controls={x.panel ? `panel-${x.id} panel-${x.id}-own` : `panel-${x.id}`}
            tabIndex={tab === x.id ? 0 : -1}
            onClick={() => setTab(x.id)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {t(`resources.realm.tabs.${x.id}`)}
            {count ? <span className="badge badge-error">{count}</span> : null}
          </button>
        )
      })}
    </div>
  )
}
