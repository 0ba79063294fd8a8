import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ErrorItem } from '#shared/schemas/error'
import { Icon } from './icon'

export type ToastKind = 'info' | 'success' | 'warning' | 'error'

export interface ToastInput {
  kind: ToastKind
  /** i18n key (or plain text) of the message. */
  message?: string
  values?: Record<string, string>
  title?: string
  /** Multi-error toast (seed 000 §8): one line per error with title, cause, field, value and message. */
  errors?: ErrorItem[]
  /** top-right (default) or top-center (offline warning). */
  position?: 'top-right' | 'top-center'
  /** Milliseconds before it closes; 0 keeps it open. Default 5000 (seed 000 §9). */
  timeout?: number
  /** An action button (e.g. reload). */
  action?: { label: string; run: () => void }
  /** Toasts with the same key replace each other. */
  key?: string
}

interface Toast extends ToastInput {
  id: number
}

interface ToastApi {
  push(toast: ToastInput): number
  dismiss(id: number): void
  /** Shows the multi-error toast for failed calls, unless the call asked to stay silent. */
  pushErrors(errors: ErrorItem[], opts?: { title?: string; silent?: boolean }): void
}

const ToastContext = createContext<ToastApi | null>(null)

export const TOAST_TIMEOUT_MS = 5000

export function useToast(): ToastApi {
  const api = useContext(ToastContext)
  if (!api) throw new Error('useToast needs a ToastProvider')
  return api
}

/**
 * Toasts a fetcher's `{ ok, errors }` answer once it has come back: the success message, or the errors (under
 * `failedTitle` when given). List screens use it for their delete and other row actions.
 */
export function useResultToast(fetcher: { state: string; data?: { ok: boolean; errors: ErrorItem[] } }, success: string, failedTitle?: string) {
  const toast = useToast()
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: success })
    else toast.pushErrors(fetcher.data.errors, failedTitle ? { title: failedTitle } : undefined)
  }, [fetcher.state, fetcher.data, toast, success, failedTitle])
}

/** Toasts: top-right, close after 5000 ms, pause while hovered or focused (seed 000 §9). */
export function ToastProvider({ children, initial }: { children: ReactNode; initial?: ToastInput[] }) {
  // `initial`: toasts of the server render (a flash after a redirect), so they show without script too.
  const [toasts, setToasts] = useState<Toast[]>(() => (initial ?? []).map((toast, i) => ({ ...toast, id: i + 1 })))
  const next = useRef((initial?.length ?? 0) + 1)
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), [])
  const push = useCallback((input: ToastInput) => {
    const id = next.current++
    setToasts((all) => [...all.filter((t) => !input.key || t.key !== input.key), { ...input, id }])
    return id
  }, [])
  const pushErrors = useCallback(
    (errors: ErrorItem[], opts: { title?: string; silent?: boolean } = {}) => {
      if (opts.silent || errors.length === 0) return
      push({ kind: 'error', title: opts.title ?? 'toast.errors.title', errors })
    },
    [push],
  )
  const api = useMemo(() => ({ push, dismiss, pushErrors }), [push, dismiss, pushErrors])
  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastRegion position="top-right" toasts={toasts.filter((t) => (t.position ?? 'top-right') === 'top-right')} dismiss={dismiss} />
      <ToastRegion position="top-center" toasts={toasts.filter((t) => t.position === 'top-center')} dismiss={dismiss} />
    </ToastContext.Provider>
  )
}

function ToastRegion({ position, toasts, dismiss }: { position: string; toasts: Toast[]; dismiss: (id: number) => void }) {
  const { t } = useTranslation()
  return (
    <section className={`toast-region toast-${position}`} aria-label={t('toast.region')} aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} dismiss={dismiss} />
      ))}
    </section>
  )
}

function ToastItem({ toast, dismiss }: { toast: Toast; dismiss: (id: number) => void }) {
  const { t } = useTranslation()
  const timeout = toast.timeout ?? TOAST_TIMEOUT_MS
  const remaining = useRef(timeout)
  const started = useRef(0)
  const [paused, setPaused] = useState(false)

  useEffect(() => {
    if (timeout === 0 || paused) return
    started.current = Date.now()
    const timer = setTimeout(() => dismiss(toast.id), remaining.current)
    return () => {
      clearTimeout(timer)
      remaining.current -= Date.now() - started.current
    }
  }, [paused, timeout, toast.id, dismiss])

  const tr = (text: string | undefined, values?: Record<string, string>) => (text ? t(text, { defaultValue: text, ...values }) : '')
  return (
    <div
      className={`toast toast-${toast.kind}`}
      role={toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status'}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      data-paused={paused}
    >
      <div className="toast-body">
        {toast.title ? <strong className="toast-title">{tr(toast.title)}</strong> : null}
        {toast.message ? <p>{tr(toast.message, toast.values)}</p> : null}
        {toast.errors?.length ? (
          <ul className="toast-errors">
            {toast.errors.map((e, i) => (
              <li key={i}>
                <span className="toast-cause">{t(`errors.${e.cause}`, { defaultValue: e.cause })}</span>
                {fieldLabel(t, e.field) ? <span className="toast-field"> · {fieldLabel(t, e.field)}</span> : null}
                {e.value !== null && e.value !== undefined && e.value !== '' ? <span className="toast-value"> · {String(e.value)}</span> : null}
                <span className="toast-message"> — {tr(e.message, { value: String(e.value ?? '') })}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {toast.action ? (
          <button type="button" className="btn btn-primary" onClick={toast.action.run}>
            {tr(toast.action.label)}
          </button>
        ) : null}
      </div>
      <button type="button" className="btn btn-icon toast-close" onClick={() => dismiss(toast.id)}>
        <Icon name="close" label={t('toast.close')} size={16} />
      </button>
    </div>
  )
}

/**
 * The translated name of an error item's field (`targets.0` → "Destinatário 1"), or nothing: an internal name
 * (`targets.0`, `x-api-key`) is never shown to users.
 */
export function fieldLabel(t: (key: string, opts?: Record<string, unknown>) => string, field: string | undefined): string {
  if (!field) return ''
  const keys = field.split('.')
  const index = keys.find((k) => /^\d+$/.test(k))
  const name = keys.filter((k) => !/^\d+$/.test(k)).join('.')
  if (index !== undefined) return t(`form.field.${name}.item`, { n: Number(index) + 1, defaultValue: '' })
  return t(`form.field.${name}`, { defaultValue: '' })
}
