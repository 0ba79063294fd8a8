/**
 * The recorder's journal (issue 20 recording, resumable upload): every `MediaRecorder` chunk is kept in the browser's
 * IndexedDB until the part holding it is acknowledged, so a recording cut short by a reload, a closed tab or a crash
 * is sent and completed the next time its recorder opens the same channel or room (recorder.tsx). What the server
 * already holds is answered by it again without being stored twice (parts are idempotent per index).
 */

export type JournalMeta = {
  rec: string
  target: string
  id: string
  part_size: number
  started_at: number
  /** An uploaded file's (session/create): its session's title, the file's name and size, shown when it is resumed. */
  label?: string
  name?: string
  size?: number
  session_id?: string
}
export type JournalChunk = { offset: number; blob: Blob }
export type Pending = { meta: JournalMeta; acked: number; chunks: JournalChunk[] }

export interface Journal {
  begin(meta: JournalMeta): Promise<void>
  chunk(rec: string, offset: number, blob: Blob): Promise<void>
  /** The first `bytes` of the recording are on the server: the chunks wholly before them are dropped. */
  acked(rec: string, bytes: number): Promise<void>
  end(rec: string): Promise<void>
  /** The unfinished recording of this channel or room kept here, if any (the oldest). */
  pending(target: string, id: string): Promise<Pending | null>
}

const DB = 'console-recorder'
const RECS = 'recordings'
const CHUNKS = 'chunks'

type RecRow = JournalMeta & { acked: number }
type ChunkRow = { rec: string; offset: number; blob: Blob }

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

function finished(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
  })
}

/** The journal in IndexedDB; null where the browser has none (the recorder then keeps parts in memory only). */
export function indexedDbJournal(): Journal | null {
  if (typeof indexedDB === 'undefined') return null
  let opened: Promise<IDBDatabase> | null = null
  const db = () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB, 1)
      req.onupgradeneeded = () => {
        req.result.createObjectStore(RECS, { keyPath: 'rec' })
        req.result.createObjectStore(CHUNKS, { keyPath: ['rec', 'offset'] })
      }
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'))
    })
    return opened
  }
  const chunksOf = (rec: string) => IDBKeyRange.bound([rec, 0], [rec, Number.MAX_SAFE_INTEGER])

  return {
    async begin(meta) {
      const tx = (await db()).transaction(RECS, 'readwrite')
      tx.objectStore(RECS).put({ ...meta, acked: 0 } satisfies RecRow)
      await finished(tx)
    },
    async chunk(rec, offset, blob) {
      const tx = (await db()).transaction(CHUNKS, 'readwrite')
      tx.objectStore(CHUNKS).put({ rec, offset, blob } satisfies ChunkRow)
      await finished(tx)
    },
    async acked(rec, bytes) {
      const tx = (await db()).transaction([RECS, CHUNKS], 'readwrite')
      const recs = tx.objectStore(RECS)
      const row = (await done(recs.get(rec))) as RecRow | undefined
      if (row && bytes > row.acked) recs.put({ ...row, acked: bytes })
      const chunks = (await done(tx.objectStore(CHUNKS).getAll(chunksOf(rec)))) as ChunkRow[]
      for (const c of chunks) if (c.offset + c.blob.size <= bytes) tx.objectStore(CHUNKS).delete([rec, c.offset])
      await finished(tx)
    },
    async end(rec) {
      const tx = (await db()).transaction([RECS, CHUNKS], 'readwrite')
      tx.objectStore(RECS).delete(rec)
      tx.objectStore(CHUNKS).delete(chunksOf(rec))
      await finished(tx)
    },
    async pending(target, id) {
      const tx = (await db()).transaction([RECS, CHUNKS], 'readonly')
      const rows = ((await done(tx.objectStore(RECS).getAll())) as RecRow[]).filter((r) => r.target === target && r.id === id)
      const row = rows.sort((a, b) => a.started_at - b.started_at)[0]
      if (!row) return null
      const chunks = ((await done(tx.objectStore(CHUNKS).getAll(chunksOf(row.rec)))) as ChunkRow[]).map(({ offset, blob }) => ({ offset, blob }))
      const { acked, ...meta } = row
      return { meta, acked, chunks: chunks.sort((a, b) => a.offset - b.offset) }
    },
  }
}
