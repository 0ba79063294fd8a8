import { Link, useFetcher } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, TextArea, TextInput } from '~/components/form/kit'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { WordFilterEditor } from '~/components/realm/word-filter-editor'
import { GenesisSettingsEditor, type ConfigChoice } from '~/components/realm/genesis-settings'
import type { GenesisSettings } from '#shared/schemas/lesson/genesis'
import type { FieldSpec } from '~/lib/form-fields'
import { DEFAULT_TIME_ZONE } from '~/lib/form-kit'
import { ExemptionBody, RtcServersBody, type RealmRtc, type RealmTab } from '#shared/schemas/realm-settings'

/** What the tabs with their own calls show; null where the editor lacks the permission to read it. */
export interface PanelData {
  code: string
  /** The realm being edited is the one the console is in (its metaverse screens are this realm's). */
  current: boolean
  wordFilter: string[] | null
  canEditWordFilter: boolean
  exemption: string[]
  rooms: { id: string; name: string; enabled: boolean }[] | null
  /** The conferences' STUN/TURN servers (issue 20), the credential masked; null when the editor may not read them. */
  rtc: RealmRtc | null
  /** mas_realm_edit with mas_realm_edit_infra: servers are infrastructure. */
  canEditRtc: boolean
  /** Content-generation settings of the console's realm (null for another realm: the API edits the realm in use). */
  genesis: { settings: GenesisSettings; configs: ConfigChoice[] } | null
}

export function RealmPanel({ panel, data, mode }: { panel: NonNullable<RealmTab['panel']>; data?: PanelData; mode: 'create' | 'edit' }) {
  const { t } = useTranslation()
  if (mode === 'create' || !data) return <p className="hint">{t('resources.realm.panel_after_create')}</p>
  switch (panel) {
    case 'word_filter':
      return data.wordFilter ? (
        <WordFilterEditor realm={data.code} sentences={data.wordFilter} canEdit={data.canEditWordFilter} />
      ) : (
        <p className="hint">{t('resources.realm.panel_forbidden')}</p>
      )
    case 'exemption':
      return <ExemptionEditor realm={data.code} domains={data.exemption} />
    case 'metaverse':
      return (
        <section aria-labelledby="mv-rooms">
          <h2 id="mv-rooms">{t('resources.realm.metaverse_rooms', { count: data.rooms?.length ?? 0 })}</h2>
          {data.rooms === null ? (
            <p className="hint">{t('resources.realm.panel_forbidden')}</p>
          ) : data.rooms.length === 0 ? (
            <p className="hint">{t('table.empty')}</p>
          ) : (
            <ul className="plain-list">
              {data.rooms.map((r) => (
                <li key={r.id}>
                  {data.current ? <Link to={`/metaverse/edit/${encodeURIComponent(r.id)}`}>{r.name}</Link> : r.name}{' '}
                  {r.enabled ? null : <span className="badge">{t('resources.metaverse_room.disabled')}</span>}
                </li>
              ))}
            </ul>
          )}
          {data.current ? (
            <Link className="btn" to="/metaverse">
              <Icon name="cube" /> {t('pages.metaverse.list')}
            </Link>
          ) : null}
        </section>
      )
    case 'rtc':
      return data.rtc ? (
        <RtcEditor realm={data.code} rtc={data.rtc} canEdit={data.canEditRtc} />
      ) : (
        <p className="hint">{t('resources.realm.panel_forbidden')}</p>
      )
    case 'genesis':
      return data.genesis ? (
        <GenesisSettingsEditor settings={data.genesis.settings} configs={data.genesis.configs} />
      ) : (
        <p className="hint">{t('cgs.settings.other_realm')}</p>
      )
    case 'reports':
      return (
        <p>
          <Link className="btn" to="/realm/report">
            <Icon name="report" /> {t('pages.realm.report')}
          </Link>
        </p>
      )
  }
}

/** The exemption form's one field: a text box, one domain per line (an error names its line). */
export const exemptionFields: FieldSpec[] = [{ name: 'domains', kind: 'lines', label: 'resources.realm.exemption.domains' }]

/** The exemption domains on the form kit (`ExemptionBody`): posts `intent=exemption` and `domains` to the realm edit route. */
function ExemptionEditor({ realm, domains }: { realm: string; domains: string[] }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher({ key: `exemption-${realm}` })
  return (
    <section aria-labelledby="exemption-title">
      <h2 id="exemption-title">{t('resources.realm.exemption.title')}</h2>
      <KitForm
        id={`exemption-form-${realm}`}
        schema={ExemptionBody}
        fields={exemptionFields}
        defaultValue={{ domains }}
        timeZone={DEFAULT_TIME_ZONE}
        fetcher={fetcher}
        lastResult={fetcher.data}
        onSaved={() => toast.push({ kind: 'success', message: 'resources.realm.exemption_saved' })}
        className="simple-form"
        aria-label={t('resources.realm.exemption.title')}
        submitLabel={t('resources.realm.exemption.save')}
        protect
      >
        <input type="hidden" name="intent" value="exemption" />
        <TextArea name="domains" label={t('resources.realm.exemption.domains')} hint={t('resources.realm.exemption.hint')} rows={6} />
      </KitForm>
    </section>
  )
}

/** The STUN/TURN form's fields (`RtcServersBody`): addresses one per line; the credential is sent back masked to keep it. */
export const rtcFields: FieldSpec[] = [
  { name: 'stun_urls', kind: 'lines', label: 'resources.realm.rtc.stun_urls' },
  { name: 'turn_urls', kind: 'lines', label: 'resources.realm.rtc.turn_urls' },
  { name: 'turn_username', kind: 'text', label: 'resources.realm.rtc.turn_username' },
  { name: 'turn_credential', kind: 'text', label: 'resources.realm.rtc.turn_credential' },
]

/**
 * The realm's STUN/TURN servers for conferences (issue 20): posts `intent=rtc` to the realm edit route. The stored
 * credential comes masked and goes back masked (kept) unless replaced; read-only without mas_realm_edit_infra.
 */
function RtcEditor({ realm, rtc, canEdit }: { realm: string; rtc: RealmRtc; canEdit: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher({ key: `rtc-${realm}` })
  const { updated_at: _at, ...values } = rtc
  return (
    <section aria-labelledby="rtc-title">
      <h2 id="rtc-title">{t('resources.realm.rtc.title')}</h2>
      <p className="hint">{t('resources.realm.rtc.intro')}</p>
      <KitForm
        id={`rtc-form-${realm}`}
        schema={RtcServersBody}
        fields={rtcFields}
        defaultValue={values}
        timeZone={DEFAULT_TIME_ZONE}
        fetcher={fetcher}
        lastResult={fetcher.data}
        onSaved={() => toast.push({ kind: 'success', message: 'resources.realm.rtc.saved' })}
        className="simple-form"
        aria-label={t('resources.realm.rtc.title')}
        submitLabel={t('resources.realm.rtc.save')}
        protect
      >
        <input type="hidden" name="intent" value="rtc" />
        <TextArea name="stun_urls" label={t('resources.realm.rtc.stun_urls')} hint={t('resources.realm.rtc.stun_hint')} rows={3} disabled={!canEdit} />
        <TextArea name="turn_urls" label={t('resources.realm.rtc.turn_urls')} hint={t('resources.realm.rtc.turn_hint')} rows={3} disabled={!canEdit} />
        <TextInput name="turn_username" label={t('resources.realm.rtc.turn_username')} autoComplete="off" disabled={!canEdit} />
        <TextInput
          name="turn_credential"
          label={t('resources.realm.rtc.turn_credential')}
          type="password"
          autoComplete="new-password"
          hint={rtc.turn_credential ? t('form.secret.stored', { mask: rtc.turn_credential }) : t('form.secret.none')}
          disabled={!canEdit}
        />
      </KitForm>
    </section>
  )
}
