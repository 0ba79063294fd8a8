/**
 * Offline deliveries (issue 17): a delivery made without network is queued on its task's record with an `answer_id`
 * made once and the time the device measured since the signed open; it is sent when the network returns (the
 * `online` event, each page load, and a retry every 30 s while one waits) through `/mobile/tms/sync`. Exactly once:
 * the server counts an `answer_id` once, and a 409 `answer_already_registered` (a resend of a delivery that did
 * arrive) marks it synchronised too. Any other refusal is kept on the record with its errors, for the student to see.
 */
import { useEffect, useState } from 'react'
import type { ErrorItem } from '#shared/schemas/error'
import { withQuery } from '~/lib/mobile-query'
import { announce, scopeTasks, updateTask, OFFLINE_EVENT, type OfflineTask } from './store'

/** How often a waiting delivery is tried again while the page is open. */
export const SYNC_RETRY_MS = 30_000

/** What the sync route answers: `synced` (delivered now, or already before) or the API's refusal. */
export type SyncAnswer = { synced: true; already: boolean } | { synced: false; errors: ErrorItem[] }

/** Queues the delivery of a downloaded task (the answers as they are; the elapsed time on the server's clock). */
export async function queueDelivery(key: string, answers: NonNullable<OfflineTask['answers']>): Promise<OfflineTask | undefined> {
  const record = await updateTask(key, (r) => {
    const elapsed = Math.max(0, Math.round(Date.now() + r.offset_ms - Date.parse(r.opened.opened_at)))
    return {
      ...r,
      answers,
      answers_at: new Date().toISOString(),
      // A delivery queued again (after a refusal the student fixed) keeps its id: the server counts it once.
      pending: {
        answer_id: r.pending?.answer_id ?? crypto.randomUUID(),
        receipt: r.opened.receipt,
        answers,
        elapsed_ms: elapsed,
        queued_at: new Date().toISOString(),
      },
    }
  })
  announce()
  return record
}

let running: Promise<void> | null = null

/** Sends every waiting delivery of `scope` once (one run at a time in the page). */
export function syncPending(scope: string, query: string): Promise<void> {
  running ??= (async () => {
    try {
      const waiting = (await scopeTasks(scope)).filter((r) => r.pending && !r.synced_at && !r.pending.errors)
      for (const record of waiting) {
        const pending = record.pending!
        let answer: SyncAnswer
        try {
          const res = await fetch(withQuery('/mobile/tms/sync', query), {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({
              task_id: record.task_id,
              answer_id: pending.answer_id,
              receipt: pending.receipt,
              answers: pending.answers,
              elapsed_ms: pending.elapsed_ms,
            }),
          })
          // A server that cannot answer now (5xx, a proxy's page, too many requests) or a session that ended (the
          // student signs in again): tried again later, not recorded as a refusal.
          if (res.status >= 500 || res.status === 401 || res.status === 429 || !(res.headers.get('content-type') ?? '').includes('json')) continue
          answer = (await res.json()) as SyncAnswer
        } catch {
          return // still offline: the next `online` event or retry
        }
        await updateTask(record.key, (r) =>
          answer.synced ? { ...r, synced_at: new Date().toISOString() } : { ...r, pending: r.pending && { ...r.pending, errors: answer.errors } },
        )
      }
    } finally {
      running = null
      announce()
    }
  })()
  return running
}

/** The student's records on this device, read again whenever one changes. */
export function useOfflineTasks(scope: string | null): OfflineTask[] | null {
  const [tasks, setTasks] = useState<OfflineTask[] | null>(null)
  useEffect(() => {
    if (!scope) return
    let live = true
    const read = () =>
      void scopeTasks(scope)
        .then((found) => live && setTasks(found.sort((a, b) => a.expire_at.localeCompare(b.expire_at))))
        .catch(() => live && setTasks([]))
    read()
    window.addEventListener(OFFLINE_EVENT, read)
    return () => {
      live = false
      window.removeEventListener(OFFLINE_EVENT, read)
    }
  }, [scope])
  return tasks
}

/** Synchronises the waiting deliveries on load, when the network returns, and every SYNC_RETRY_MS. */
export function useOfflineSync(scope: string | null, query: string) {
  useEffect(() => {
    if (!scope) return
    const sync = () => {
      if (navigator.onLine) void syncPending(scope, query).catch((err) => console.warn('offline sync', err))
    }
    sync()
    const timer = setInterval(sync, SYNC_RETRY_MS)
    window.addEventListener('online', sync)
    return () => {
      clearInterval(timer)
      window.removeEventListener('online', sync)
    }
  }, [scope, query])
}

/** Whether the browser says it has a network (updated by the `online` / `offline` events). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true)
  useEffect(() => {
    const update = () => setOnline(navigator.onLine)
    update()
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
    return () => {
      window.removeEventListener('online', update)
      window.removeEventListener('offline', update)
    }
  }, [])
  return online
}
