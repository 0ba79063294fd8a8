import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { LinesField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { WordFilterEditor, type ListSaveResult } from '~/components/realm/word-filter-editor'
import { schemaErrors } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { ExemptionBody, type RealmTab } from '#shared/schemas/realm-settings'

/** What the tabs with their own calls show; null where the editor lacks the permission to read it. */
export interface PanelData {
  code: string
  /** The realm being edited is the one the console is in (its metaverse screens are this realm's). */
  current: boolean
  wordFilter: string[] | null
  canEditWordFilter: boolean
  exemption: string[]
  rooms: { id: string; name: string; enabled: boolean }[] | null
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

/** The exemption domains: one per line, saved with `{ intent: 'exemption', realm, domains }`. */
function ExemptionEditor({ realm, domains }: { realm: string; domains: string[] }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<ListSaveResult>({ key: `exemption-${realm}` })
  const [list, setList] = useState(domains)
  const [touched, setTouched] = useState(false)
  const errors = schemaErrors(ExemptionBody, { domains: list })
  const first = Object.entries(errors)[0]
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: 'resources.realm.exemption_saved' })
    else toast.pushErrors(fetcher.data.errors)
  }, [fetcher.state, fetcher.data, toast])
  return (
    <section aria-labelledby="exemption-title">
      <h2 id="exemption-title">{t('resources.realm.exemption.title')}</h2>
      <LinesField
        label={t('resources.realm.exemption.domains')}
        hint={t('resources.realm.exemption.hint')}
        value={list}
        onChange={setList}
        onBlur={() => setTouched(true)}
        error={touched && first ? t('word_filter.line_error', { line: Number(first[0].split('.')[1] ?? 0) + 1, message: t(first[1]) }) : undefined}
      />
      <button
        type="button"
        className="btn btn-primary"
        disabled={Boolean(first) || fetcher.state !== 'idle'}
        onClick={() => fetcher.submit(jsonBody({ intent: 'exemption', realm, domains: list }), { method: 'post', encType: 'application/json' })}
      >
        <Icon name="check" /> {t('resources.realm.exemption.save')}
      </button>
    </section>
  )
}
