/**
 * The offline client's device storage (issue 17, seed 001 §3 "Offline"): one IndexedDB record per downloaded task of
 * a student — the opened task (questions without keys, the signed start receipt, the open time), the server clock's
 * offset measured when it was downloaded, the answers as the student left them, and the delivery waiting for the
 * network. The page files and media of a download are in the Cache API (`OFFLINE_CACHE`, see download.ts).
 */
import type { ErrorItem } from '#shared/schemas/error'
import type { AnswerValue } from '../../../worker/lib/answer-schemas'

const DB_NAME = 'realm-offline'
const STORE = 'tasks'

/** The Cache API cache holding downloaded pages, scripts and question media (public/sw.js reads it offline). */
export const OFFLINE_CACHE = 'mobile-offline-v1'

/** What the open answered (`POST …/{taskId}/open`), as the apply screen uses it. */
export type OpenedTask = {
  task: { id: string; title: string; expire_at: string; show_timer: boolean; max_execution_time: number; min_execution_time: number } & Record<string, unknown>
  questions: unknown[]
  receipt: string
  opened_at: string
  server_time: string
  answer: { status: string; answers?: unknown } | null
}

/** A delivery made without network, waiting to be synchronised (its `answer_id` made once, when it was queued). */
export type PendingDelivery = {
  answer_id: string
  receipt: string
  answers: Record<string, AnswerValue>
  /** The time the device measured from the signed open to the delivery. */
  elapsed_ms: number
  queued_at: string
  /** A refusal of the server other than "already registered": shown to the student, the delivery kept. */
  errors?: ErrorItem[]
}

export type OfflineTask = {
  /** `scope|taskId`: a device shared by students keeps each one's downloads apart. */
  key: string
  scope: string
  task_id: string
  title: string
  expire_at: string
  downloaded_at: string
  opened: OpenedTask
  /** The server's clock minus the device's when the task was downloaded (the timer's reference offline). */
  offset_ms: number
  /** The apply screen's address and the files stored for it in OFFLINE_CACHE (removed with the download). */
  page: string
  files: string[]
  answers?: Record<string, AnswerValue>
  answers_at?: string
  pending?: PendingDelivery
  /** When the delivery was synchronised (the record stays, marked, until the student removes it). */
  synced_at?: string
}

/** The device user a record belongs to: the host, the realm of a multi-realm host and the student's login. */
export const offlineScope = (query: string, nick: string) => `${typeof location === 'undefined' ? '' : location.host}|${query}|${nick}`
export const recordKey = (scope: string, taskId: string) => `${scope}|${taskId}`

/** A storage refusal the student is told about in words (seed 001 §8 "storage limit reached", "cache storage full"). */
export class OfflineStorageError extends Error {
  constructor(readonly cause: 'storage_full' | 'cache_full' | 'unsupported') {
    super(cause)
  }
}

export const isQuotaError = (err: unknown) => err instanceof DOMException && (err.name === 'QuotaExceededError' || err.code === 22)

let opening: Promise<IDBDatabase> | null = null

function db(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new OfflineStorageError('unsupported'))
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1)
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: 'key' })
      store.createIndex('scope', 'scope')
    }
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => {
      opening = null
      reject(req.error ?? new OfflineStorageError('unsupported'))
    }
  })
  return opening
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await db()
  return new Promise<T>((resolve, reject) => {
    const tx = database.transaction(STORE, mode)
    const req = work(tx.objectStore(STORE))
    let result: T
    req.onsuccess = () => {
      result = req.result
    }
    tx.oncomplete = () => resolve(result)
    // A full disk aborts the transaction with QuotaExceededError: "storage limit reached".
    const fail = () => {
      const err = tx.error ?? req.error
      reject(isQuotaError(err) ? new OfflineStorageError('storage_full') : err)
    }
    tx.onabort = fail
    tx.onerror = fail
  })
}

export const getTask = (key: string) => run<OfflineTask | undefined>('readonly', (s) => s.get(key) as IDBRequest<OfflineTask | undefined>)
export const putTask = (record: OfflineTask) => run('readwrite', (s) => s.put(record)).then(() => undefined)
export const deleteTask = (key: string) => run('readwrite', (s) => s.delete(key)).then(() => undefined)
export const scopeTasks = (scope: string) => run<OfflineTask[]>('readonly', (s) => s.index('scope').getAll(scope) as IDBRequest<OfflineTask[]>)
export const allTasks = () => run<OfflineTask[]>('readonly', (s) => s.getAll() as IDBRequest<OfflineTask[]>)

/** Changes a stored record (read and written again); nothing when it is gone (removed meanwhile). */
export async function updateTask(key: string, change: (record: OfflineTask) => OfflineTask): Promise<OfflineTask | undefined> {
  const record = await getTask(key)
  if (!record) return undefined
  const next = change(record)
  await putTask(next)
  return next
}

/** Tells the rest of the page (list, apply screen) that a record changed. */
export const OFFLINE_EVENT = 'realm:offline-change'
export const announce = () => window.dispatchEvent(new Event(OFFLINE_EVENT))
