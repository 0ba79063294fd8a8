/**
 * The recorder's upload queue (issue 20 recording): `MediaRecorder` chunks are appended as they come; every
 * `partSize` bytes become one part (R2's rule: every part but the last the same size), sent in order through
 * `/recording?op=part`, each retried with a growing pause until it is acknowledged (a part the server already holds is
 * acknowledged again without being stored twice). `finish()` sends the remainder as the last part and completes the
 * recording (asked again while the server is assembling it or its answer is lost). Parts are sent one at a time, so
 * every part before an acknowledged one is acknowledged too: the server never lacks a part the recorder dropped.
 * With a journal (recorder-journal.ts) every chunk is also kept in IndexedDB until acknowledged, and `resumeUpload`
 * finishes an interrupted recording from it.
 */

import type { Journal, Pending } from './recorder-journal'

export type UploadProgress = { recorded: number; sent: number; retrying: boolean; paused: boolean }
export type CompleteAnswer = { status: string; duration_seconds: number; size: number; session_id: string }

export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly cause_: string,
    message: string,
    readonly value: unknown = null,
  ) {
    super(message)
  }
}

const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000]
/** Gives up a part after this many failed tries in a row (about three minutes of retries). */
const MAX_TRIES = 15

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as { errors?: { cause: string; message: string; value: unknown }[] } | null
  if (!res.ok) {
    const e = body?.errors?.[0]
    throw new UploadError(res.status, e?.cause ?? 'unavailable', e?.message ?? `HTTP ${res.status}`, e?.value ?? null)
  }
  return body as T
}

export class RecordingUpload {
  private buffered: Blob[] = []
  private bufferedBytes = 0
  private nextIndex = 1
  /** Parts not yet acknowledged, by index (kept to send again). */
  private held = new Map<number, Blob>()
  private queue: Promise<void> = Promise.resolve()
  private failed: unknown = null
  recorded = 0
  sent = 0
  retrying = false
  /** Where chunks are kept until acknowledged, so that an interrupted recording can be resumed (recorder-journal.ts). */
  journal: Journal | null = null
  /** While paused, no part is sent and completion waits (a part already on its way finishes). */
  private gate: Promise<void> | null = null
  private release: (() => void) | null = null

  constructor(
    readonly id: string,
    readonly partSize: number,
    private readonly onProgress: (p: UploadProgress) => void,
    private readonly fetcher: typeof fetch = (...a) => fetch(...a),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  private report() {
    this.onProgress({ recorded: this.recorded, sent: this.sent, retrying: this.retrying, paused: this.paused })
  }

  get paused() {
    return this.gate !== null
  }

  /** Holds the upload before its next part (an uploaded file's pause button; the server keeps what it received). */
  pause() {
    if (this.gate) return
    this.gate = new Promise((resolve) => (this.release = resolve))
    this.report()
  }

  resume() {
    const release = this.release
    this.gate = this.release = null
    release?.()
    this.report()
  }

  private async unpaused() {
    while (this.gate) await this.gate
  }

  /** Continues a recording whose first `bytes` (whole parts) the server holds: the next part follows them. */
  resumeAfter(bytes: number) {
    this.nextIndex = Math.floor(bytes / this.partSize) + 1
    this.recorded = this.sent = bytes
  }

  private forget() {
    void this.journal?.end(this.id).catch(() => undefined)
  }

  /** A chunk of the recording: whole parts are queued as soon as there are `partSize` bytes. */
  append(chunk: Blob, journaled = true) {
    if (!chunk.size) return
    if (journaled) void this.journal?.chunk(this.id, this.recorded, chunk).catch(() => undefined)
    this.buffered.push(chunk)
    this.bufferedBytes += chunk.size
    this.recorded += chunk.size
    while (this.bufferedBytes >= this.partSize) {
      const all = new Blob(this.buffered)
      this.enqueue(all.slice(0, this.partSize))
      const rest = all.slice(this.partSize)
      this.buffered = rest.size ? [rest] : []
      this.bufferedBytes = rest.size
    }
    this.report()
  }

  private enqueue(part: Blob) {
    const index = this.nextIndex++
    this.held.set(index, part)
    this.queue = this.queue
      .then(() => this.send(index))
      .catch((err: unknown) => {
        this.failed ??= err
      })
  }

  private async send(index: number) {
    const part = this.held.get(index)
    if (!part || this.failed) return
    for (let tries = 0; ; tries++) {
      await this.unpaused()
      try {
        const res = await this.fetcher(`/recording?op=part&rec=${encodeURIComponent(this.id)}&index=${index}`, {
          method: 'POST',
          body: part,
          headers: { 'content-type': 'application/octet-stream' },
        })
        await answer(res)
        this.held.delete(index)
        this.sent += part.size
        void this.journal?.acked(this.id, (index - 1) * this.partSize + part.size).catch(() => undefined)
        this.retrying = false
        this.report()
        return
      } catch (err) {
        // A refusal (4xx) is final (nothing to resume); a network failure or a server error is tried again, and
        // after the last try the journal keeps the rest for later.
        if (err instanceof UploadError && err.status >= 400 && err.status < 500) {
          this.forget()
          throw err
        }
        if (tries + 1 >= MAX_TRIES) throw err
        this.retrying = true
        this.report()
        await this.sleep(RETRY_MS[Math.min(tries, RETRY_MS.length - 1)])
      }
    }
  }

  /** Sends the rest as the last part, waits for every part and completes the recording (validated by the server). */
  async finish(): Promise<CompleteAnswer> {
    if (this.bufferedBytes) {
      this.enqueue(new Blob(this.buffered))
      this.buffered = []
      this.bufferedBytes = 0
    }
    await this.queue
    if (this.failed) throw this.failed
    await this.unpaused()
    // Completion is idempotent on the server (a second call answers the stored result): a lost answer, a server
    // error or another call still assembling ('assembling') is asked again.
    for (let round = 0; ; round++) {
      try {
        const done = await answer<CompleteAnswer>(await this.fetcher(`/recording?op=complete&rec=${encodeURIComponent(this.id)}`, { method: 'POST' }))
        this.forget()
        return done
      } catch (err) {
        const again = !(err instanceof UploadError) || err.status >= 500 || err.cause_ === 'assembling'
        if (!again) this.forget()
        if (!again || round + 1 >= MAX_TRIES) throw err
        await this.sleep(RETRY_MS[Math.min(round, RETRY_MS.length - 1)])
      }
    }
  }

  /** Gives the recording up (nothing is kept). */
  async abort() {
    this.failed ??= new Error('aborted')
    this.resume()
    this.forget()
    await this.fetcher(`/recording?op=abort&rec=${encodeURIComponent(this.id)}`, { method: 'POST' }).catch(() => undefined)
  }
}

/**
 * Sends and completes a recording interrupted on this device (a reload, a closed tab): the journal's chunks after what
 * the server acknowledged, from the next part on (a part the server already has is answered again, not stored twice).
 * Answers the completed recording, or null when there was nothing to finish (the journal is then cleared). A network
 * failure leaves the journal for the next time.
 */
export async function resumeUpload(
  pending: Pending,
  journal: Journal,
  onProgress: (p: UploadProgress) => void,
  fetcher: typeof fetch = (...a) => fetch(...a),
  sleep?: (ms: number) => Promise<void>,
  /** Receives the upload once made (an uploaded file's pause and resume buttons). */
  onUpload?: (upload: RecordingUpload) => void,
): Promise<CompleteAnswer | null> {
  const { rec, part_size } = pending.meta
  const res = await fetcher(`/recording?op=state&rec=${encodeURIComponent(rec)}`, { headers: { accept: 'application/json' } })
  let state: { status: string; duration_seconds: number; size: number; session_id: string }
  try {
    state = await answer(res)
  } catch (err) {
    if (err instanceof UploadError && err.status < 500) {
      await journal.end(rec)
      return null
    }
    throw err
  }
  if (state.status === 'complete') {
    await journal.end(rec)
    return state
  }
  if (state.status !== 'recording' && state.status !== 'assembling') {
    await journal.end(rec)
    return null
  }
  const upload = new RecordingUpload(rec, part_size, onProgress, fetcher, sleep)
  upload.journal = journal
  upload.resumeAfter(pending.acked)
  onUpload?.(upload)
  if (state.status === 'recording') {
    // The chunks that follow one another from the acknowledged bytes on (a chunk whose write was lost ends them).
    const run: Blob[] = []
    let at = pending.acked
    for (const c of pending.chunks) {
      if (c.offset + c.blob.size <= at) continue
      if (c.offset > at) break
      run.push(c.blob.slice(at - c.offset))
      at = c.offset + c.blob.size
    }
    if (!run.length && !pending.acked) {
      await upload.abort()
      return null
    }
    if (run.length) upload.append(new Blob(run), false)
  }
  return upload.finish()
}
