import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'
import { dateTimeFormat } from '~/lib/format'
import { removeDownload } from '~/lib/offline/download'
import { announce, offlineScope, updateTask, type OfflineTask } from '~/lib/offline/store'
import { useOfflineSync, useOfflineTasks, useOnline } from '~/lib/offline/sync'

const MODES = ['online', 'offline'] as const
type Mode = (typeof MODES)[number]
/** The offline tab's filter (seed 001 §3 "offline filter all or downloaded"). */
const FILTERS = ['all', 'downloaded'] as const
type Filter = (typeof FILTERS)[number]

/** A record's state on the device: still to perform, a delivery waiting for the network, refused, or synchronised. */
export function offlineState(r: OfflineTask): 'downloaded' | 'queued' | 'refused' | 'synced' {
  if (r.synced_at) return 'synced'
  if (!r.pending) return 'downloaded'
  return r.pending.errors ? 'refused' : 'queued'
}

/**
 * The online / offline tabs of `/mobile/tms` (seed 000 §4, seed 001 §3 "Offline"): online is the server's list
 * (`children`, with its own content tabs and filter, default tasks and all); offline lists what this device holds —
 * all of it, or only the downloaded tasks still to perform —, each with its state and its removal. The offline tab is
 * chosen at first when the browser has no network. Waiting deliveries are synchronised here too (on load, when the
 * network returns, every 30 s).
 */
export function OfflineTabs({
  query,
  nick,
  timeZone,
  delivered,
  children,
}: {
  query: string
  nick: string
  timeZone: string
  /** The tasks the server's list shows delivered: a download of one of them (delivered online) is marked done. */
  delivered: string[]
  children: ReactNode
}) {
  const { t } = useTranslation()
  const online = useOnline()
  const [mode, setMode] = useState<Mode>('online')
  const [scope, setScope] = useState<string | null>(null)
  useEffect(() => {
    setScope(offlineScope(query, nick))
    if (!navigator.onLine || document.documentElement.hasAttribute('data-offline-copy')) setMode('offline')
  }, [query, nick])
  useOfflineSync(scope, query)
  const tasks = useOfflineTasks(scope)
  const waiting = tasks?.filter((r) => offlineState(r) === 'queued').length ?? 0
  useEffect(() => {
    const done = (tasks ?? []).filter((r) => offlineState(r) === 'downloaded' && delivered.includes(r.task_id))
    if (!done.length) return
    void Promise.all(done.map((r) => updateTask(r.key, (x) => ({ ...x, synced_at: x.synced_at ?? new Date().toISOString() }))))
      .then(announce)
      .catch((err) => console.warn('offline list', err))
  }, [tasks, delivered])
  const pick = (next: Mode) => setMode(next)
  return (
    <>
      {!online ? (
        <p className="card hint mtms-offline-note" role="status">
          <Icon name="signal" /> {t('mobile.tms.offline.you_are_offline')}
        </p>
      ) : null}
      <div className="mtms-modes" role="tablist" aria-label={t('mobile.tms.offline.modes')}>
        {MODES.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`mtms-mode-${m}`}
            aria-selected={mode === m}
            aria-controls={`mtms-panel-${m}`}
            tabIndex={mode === m ? 0 : -1}
            className="mtms-tab"
            onClick={() => pick(m)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return
              const next = m === 'online' ? 'offline' : 'online'
              pick(next)
              document.getElementById(`mtms-mode-${next}`)?.focus()
            }}
          >
            {t(`mobile.tms.offline.mode.${m}`)}
            {m === 'offline' && waiting ? ` (${waiting})` : ''}
          </button>
        ))}
      </div>
      <div id="mtms-panel-online" role="tabpanel" aria-labelledby="mtms-mode-online" hidden={mode !== 'online'}>
        {children}
      </div>
      <div id="mtms-panel-offline" role="tabpanel" aria-labelledby="mtms-mode-offline" hidden={mode !== 'offline'}>
        {mode === 'offline' ? <OfflineList tasks={tasks} timeZone={timeZone} /> : null}
      </div>
    </>
  )
}

function OfflineList({ tasks, timeZone }: { tasks: OfflineTask[] | null; timeZone: string }) {
  const { t, i18n } = useTranslation()
  const [filter, setFilter] = useState<Filter>('all')
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso))
  if (!tasks)
    return (
      <p className="hint" role="status">
        <span className="spinner" aria-hidden="true" /> {t('mobile.tms.loading')}
      </p>
    )
  const shown = filter === 'all' ? tasks : tasks.filter((r) => offlineState(r) === 'downloaded')
  return (
    <section aria-labelledby="mtms-offline-list-title">
      <div className="mtms-filter">
        <label htmlFor="mtms-offline-filter">{t('mobile.tms.filter')}</label>
        <select id="mtms-offline-filter" className="input" value={filter} onChange={(e) => setFilter(e.currentTarget.value as Filter)}>
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {t(`mobile.tms.offline.filter.${f}`)}
            </option>
          ))}
        </select>
      </div>
      <h2 id="mtms-offline-list-title" className="mtms-count">
        {t(`mobile.tms.offline.filter.${filter}`)} · {t('mobile.tms.count', { count: shown.length })}
      </h2>
      {shown.length ? (
        <ul className="mtms-list">
          {shown.map((r) => {
            const state = offlineState(r)
            return (
              <li key={r.key} className="card mtms-task" data-task={r.task_id} data-offline={state} aria-labelledby={`mtms-off-${r.task_id}`}>
                <div className="mtms-task-head">
                  <h3 id={`mtms-off-${r.task_id}`}>{r.title}</h3>
                  <span className="badge">{t(`mobile.tms.offline.state.${state}`)}</span>
                </div>
                <p className="mtms-meta">
                  <span>{t('mobile.tms.deadline', { date: when(r.expire_at) })}</span>
                  <span>{t('mobile.tms.offline.downloaded', { date: when(r.downloaded_at) })}</span>
                </p>
                {state === 'refused' ? (
                  <ul className="error" role="alert">
                    {r.pending!.errors!.map((e, i) => (
                      <li key={i}>{errorText(t, e)}</li>
                    ))}
                  </ul>
                ) : null}
                {state !== 'queued' ? (
                  <div className="form-actions">
                    {state === 'downloaded' ? (
                      // A document load: offline, the service worker answers it with the downloaded page.
                      <a className="btn btn-primary" href={r.page}>
                        {t('mobile.tms.continue')}
                      </a>
                    ) : null}
                    <button type="button" className="btn" onClick={() => void removeDownload(r.key)}>
                      <Icon name="trash" /> {t('mobile.tms.offline.remove')}
                    </button>
                  </div>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="card hint" role="status">
          {t('mobile.tms.offline.empty')}
        </p>
      )}
    </section>
  )
}
