import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import { SW_UPDATE_EVENT, activateUpdate } from '~/lib/service-worker'
import { Icon } from '../ui/icon'
import { useToast } from '../ui/toast'

/** Version poll period and the slow-network threshold (seed 000 §4, §9). */
export const VERSION_POLL_MS = 300_000
export const SLOW_RTT_MS = 500

interface Heartbeat {
  online: boolean
  slow: boolean
  newVersion: string | null
}

const HeartbeatContext = createContext<Heartbeat>({ online: true, slow: false, newVersion: null })

type NetworkInformation = {
  rtt?: number
  addEventListener?: (type: 'change', fn: () => void) => void
  removeEventListener?: (type: 'change', fn: () => void) => void
}
const connection = () => (navigator as Navigator & { connection?: NetworkInformation }).connection

/**
 * Watches the network and the server's version: offline (warning toast at the top centre), slow (round trip over
 * 500 ms), and a version different from the one this page was built with (offer to reload). The version is asked
 * every 5 minutes, when the tab becomes visible again and when the network comes back.
 */
export function HeartbeatProvider({ version, children }: { version: string; children: ReactNode }) {
  const toast = useToast()
  const [state, setState] = useState<Heartbeat>({ online: true, slow: false, newVersion: null })
  const offlineToast = useRef<number | null>(null)

  const check = useCallback(async () => {
    if (!navigator.onLine) return
    const t0 = performance.now()
    try {
      const res = await fetch('/api/version', { cache: 'no-store', headers: { accept: 'application/json' } })
      const rtt = performance.now() - t0
      const body = (await res.json()) as { version?: string }
      const slow = rtt > SLOW_RTT_MS || (connection()?.rtt ?? 0) > SLOW_RTT_MS
      setState((s) => ({ ...s, online: true, slow, newVersion: body.version && body.version !== version ? body.version : s.newVersion }))
    } catch {
      // A failed check says nothing about the version; the online/offline events tell the network state.
    }
  }, [version])

  useEffect(() => {
    setState((s) => ({ ...s, online: navigator.onLine }))
    const onOnline = () => {
      setState((s) => ({ ...s, online: true }))
      void check()
    }
    const onOffline = () => setState((s) => ({ ...s, online: false }))
    const onVisible = () => document.visibilityState === 'visible' && void check()
    const onConnection = () => setState((s) => ({ ...s, slow: (connection()?.rtt ?? 0) > SLOW_RTT_MS }))
    window.addEventListener('online', onOnline)
    window.addEventListener('offline', onOffline)
    document.addEventListener('visibilitychange', onVisible)
    connection()?.addEventListener?.('change', onConnection)
    const timer = window.setInterval(() => void check(), VERSION_POLL_MS)
    return () => {
      window.removeEventListener('online', onOnline)
      window.removeEventListener('offline', onOffline)
      document.removeEventListener('visibilitychange', onVisible)
      connection()?.removeEventListener?.('change', onConnection)
      window.clearInterval(timer)
    }
  }, [check])

  useEffect(() => {
    if (!state.online && offlineToast.current === null) {
      offlineToast.current = toast.push({ kind: 'warning', message: 'error.http.offline', position: 'top-center', timeout: 0, key: 'offline' })
    } else if (state.online && offlineToast.current !== null) {
      toast.dismiss(offlineToast.current)
      offlineToast.current = null
    }
  }, [state.online, toast])

  // A new service worker waiting means a new build is installed: offer it the same way.
  useEffect(() => {
    const onUpdate = (event: Event) => {
      const worker = (event as CustomEvent<ServiceWorker>).detail
      toast.push({
        kind: 'info',
        key: 'version',
        title: 'version.available.title',
        message: 'version.update.message',
        timeout: 0,
        action: { label: 'version.reload', run: () => activateUpdate(worker) },
      })
    }
    window.addEventListener(SW_UPDATE_EVENT, onUpdate)
    return () => window.removeEventListener(SW_UPDATE_EVENT, onUpdate)
  }, [toast])

  useEffect(() => {
    if (!state.newVersion) return
    toast.push({
      kind: 'info',
      key: 'version',
      title: 'version.available.title',
      message: 'version.available.message',
      values: { version: state.newVersion },
      timeout: 0,
      action: { label: 'version.reload', run: () => window.location.reload() },
    })
  }, [state.newVersion, toast])

  return <HeartbeatContext.Provider value={state}>{children}</HeartbeatContext.Provider>
}

/** The top bar's network indicator: shown only when offline or slow, with its tooltip text. */
export function NetworkIndicator() {
  const { t } = useTranslation()
  const { online, slow } = useContext(HeartbeatContext)
  if (online && !slow) return null
  const label = online ? t('network.slow') : t('network.offline')
  return (
    <span className={`network-indicator ${online ? 'is-slow' : 'is-offline'}`} title={label} role="status">
      <Icon name={online ? 'signal' : 'wifiOff'} label={label} />
    </span>
  )
}
