import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The time of a task being performed (issue 17, seed 001 §4 "Time warnings appear at N minutes and at 1 minute
 * remaining, then timeout"). N is 5: long enough to finish a written answer, and the usual exam-room warning.
 */
export const WARNING_MINUTES = 5

/**
 * When the student's time ends (ms since the epoch, the server's clock): the task's deadline, or earlier the first
 * open plus the maximum execution time when the task has one.
 */
export function taskDeadline(o: { openedAt: string; expireAt: string; maxMinutes: number }): number {
  const expire = Date.parse(o.expireAt)
  return o.maxMinutes > 0 ? Math.min(expire, Date.parse(o.openedAt) + o.maxMinutes * 60_000) : expire
}

/** mm:ss, or h:mm:ss from an hour. */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60]
  const two = (x: number) => String(x).padStart(2, '0')
  return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`
}

export type ClockStage = 'running' | 'warning' | 'last_minute' | 'timeout'
export const clockStage = (remaining: number): ClockStage =>
  remaining <= 0 ? 'timeout' : remaining <= 60_000 ? 'last_minute' : remaining <= WARNING_MINUTES * 60_000 ? 'warning' : 'running'

/**
 * The clock of the apply screen: the remaining time (shown when the task shows its timer), the warning at
 * WARNING_MINUTES and at 1 minute (an alert, shown whether or not the timer is), and the timeout, which calls
 * `onTimeout` once (saying whether the time was already over when the clock started). `offsetMs` is the server's clock minus the device's (from the open's `server_time`), so a device
 * whose clock is wrong still counts the server's time.
 */
export function TaskTimer({
  deadline,
  offsetMs,
  show,
  onTimeout,
}: {
  deadline: number
  offsetMs: number
  show: boolean
  /** `already`: the time was over when the screen opened (nothing ran out while the student worked). */
  onTimeout: (already: boolean) => void
}) {
  const { t } = useTranslation()
  // Rendered after hydration only: the server's render cannot know the device's time.
  const [remaining, setRemaining] = useState<number | null>(null)
  const fired = useRef(false)
  const timeout = useRef(onTimeout)
  timeout.current = onTimeout
  useEffect(() => {
    const tick = (first: boolean) => {
      const left = deadline - (Date.now() + offsetMs)
      setRemaining(left)
      if (left <= 0 && !fired.current) {
        fired.current = true
        timeout.current(first)
      }
      return left
    }
    if (tick(true) <= 0) return
    const timer = setInterval(() => {
      if (tick(false) <= 0) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
  }, [deadline, offsetMs])
  if (remaining === null) return null
  const stage = clockStage(remaining)
  const message =
    stage === 'warning'
      ? t('mobile.tms.apply.time_warning', { count: WARNING_MINUTES })
      : stage === 'last_minute'
        ? t('mobile.tms.apply.time_last_minute')
        : stage === 'timeout'
          ? t('mobile.tms.apply.time_out')
          : ''
  return (
    <div className={`mtms-clock mtms-clock-${stage}`}>
      {show ? (
        <p className="mtms-timer">
          <span aria-hidden="true">{t('mobile.tms.apply.time_left')}</span>{' '}
          <span role="timer" aria-label={t('mobile.tms.apply.time_left')}>
            {clockText(remaining)}
          </span>
        </p>
      ) : null}
      {/* One alert per stage: its text changes only when the stage does, so a screen reader hears each warning once. */}
      <p role="alert" className={message ? 'mtms-time-alert' : 'visually-hidden'}>
        {message}
      </p>
    </div>
  )
}
