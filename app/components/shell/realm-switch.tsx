import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RealmSwitchList, RealmSwitchResult } from '~/routes/realm.change'
import { Dialog } from '../ui/dialog'
import { Icon } from '../ui/icon'

/** Realm switch wait (seed 000 §9): the new realm opens 2000 ms after the switch succeeded. */
export const REALM_SWITCH_WAIT_MS = 2000

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/** The top-bar button of the realm-change dialog; the shell shows it only to users holding mas_realm_list or mas_realm_list_all (ShellUser). */
export function RealmSwitchButton() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  return (
    <>
      <button ref={button} type="button" className="btn btn-icon" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        <Icon name="swap" label={t('realm.switch.open')} />
      </button>
      {open ? (
        <RealmSwitchDialog
          onClose={() => {
            setOpen(false)
            button.current?.focus()
          }}
        />
      ) : null}
    </>
  )
}

/**
 * The realm-change dialog (seed 000 §2.1, §4): the realms the user may switch to, with search; choosing one
 * switches, shows progress for 2000 ms, then opens the console at `/` in the new realm.
 */
export function RealmSwitchDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const id = useId()
  const list = useFetcher<RealmSwitchList>({ key: 'realm-switch-list' })
  const [change, setChange] = useState<{
    state: 'idle' | 'submitting'
    data?: RealmSwitchResult
  }>({ state: 'idle' })
  const [query, setQuery] = useState('')
  const search = useRef<HTMLInputElement>(null)
  const loadRef = useRef(list.load)

  useEffect(() => {
    void loadRef.current('/realm/change')
    search.current?.focus()
  }, [])

  async function switchTo(code: string) {
    setChange({ state: 'submitting' })
    try {
      // Plain fetch: a fetcher would revalidate this page with the session the switch has just ended.
      const res = await fetch('/realm/change', {
        method: 'POST',
        body: new URLSearchParams({ realm: code }),
        headers: { accept: 'application/json' },
      })
      setChange({
        state: 'idle',
        data: (await res.json()) as RealmSwitchResult,
      })
    } catch {
      setChange({
        state: 'idle',
        data: { ok: false, error: 'error.http.network' },
      })
    }
  }

  const switched = change.state === 'idle' && change.data?.ok ? change.data : null
  const lost = (change.state === 'idle' && change.data && !change.data.ok && change.data.error === 'session') || list.data?.error === 'session'
  useEffect(() => {
    // A lost session: reloading lets the console's guard show the sign-in screen with the reason.
    if (lost) window.location.reload()
  }, [lost])
  useEffect(() => {
    if (!switched) return
    const timer = setTimeout(() => window.location.assign(switched.url), REALM_SWITCH_WAIT_MS)
    return () => clearTimeout(timer)
  }, [switched])

  const items = list.data?.items ?? []
  const shown = items.filter((r) => !query.trim() || [r.code, r.name, r.canonical_name].some((f) => fold(f ?? '').includes(fold(query.trim()))))
  const busy = change.state !== 'idle' || Boolean(switched)
  const failure = change.state === 'idle' && change.data && !change.data.ok ? change.data.error : null

  return (
    <Dialog open title={t('realm.switch.title')} onClose={onClose} labelledBy={`${id}-title`} busy={busy}>
      {switched ? (
        <p className="realm-switch-progress" role="status">
          <span className="spinner" aria-hidden="true" /> {t('realm.switch.progress', { name: switched.name })}
        </p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-search`}>{t('realm.switch.search')}</label>
            <div className="input-group">
              <span className="input-icon" aria-hidden="true">
                <Icon name="search" />
              </span>
              <input
                id={`${id}-search`}
                ref={search}
                className="input"
                type="search"
                value={query}
                onChange={(e) => setQuery(e.currentTarget.value)}
                autoComplete="off"
              />
            </div>
          </div>
          {failure && failure !== 'session' ? (
            <p className="alert alert-error" role="alert">
              {t(failure)}
            </p>
          ) : null}
          {list.state === 'loading' && !list.data ? (
            <p role="status">
              <span className="spinner" aria-hidden="true" /> {t('realm.switch.loading')}
            </p>
          ) : list.data?.error && list.data.error !== 'session' ? (
            <p className="alert alert-error" role="alert">
              {t(list.data.error)}{' '}
              <button type="button" className="btn btn-link" onClick={() => void list.load('/realm/change')}>
                {t('app.retry')}
              </button>
            </p>
          ) : shown.length === 0 ? (
            <p className="empty">{t('realm.switch.empty')}</p>
          ) : (
            <ul className="realm-switch-list" aria-label={t('realm.switch.list')}>
              {shown.map((r) => {
                const current = r.code === list.data?.current
                return (
                  <li key={r.code}>
                    <button
                      type="button"
                      className="realm-switch-item"
                      disabled={current || busy}
                      aria-current={current ? 'true' : undefined}
                      onClick={() => void switchTo(r.code)}
                    >
                      <span className="realm-switch-name">{r.name}</span>
                      <span className="realm-switch-code">
                        {r.code}
                        {current ? ` · ${t('realm.switch.current')}` : ''}
                      </span>
                    </button>
                  </li>
                )
              })}
            </ul>
          )}
        </>
      )}
    </Dialog>
  )
}
