import { describe, expect, it } from 'vitest'
import type { Journal, JournalMeta, Pending } from '~/components/live/recorder-journal'
import { RecordingUpload, UploadError, resumeUpload, type UploadProgress } from '~/components/live/recorder-upload'

/**
 * The recorder's upload queue (app/components/live/recorder-upload.ts) against a stubbed `/recording` route: chunks
 * become equal parts sent in order, a failed send is retried (the server stores a resent part once), a refusal is
 * final, and a completion that names missing parts gets them again from what is still held.
 */

type Call = { op: string; index: number | null; size: number }

/** A stub of the `/recording` route: `plan(call)` answers each request (default: 200 with `{}`). */
function server(plan: (call: Call, calls: Call[]) => Response | 'network' | undefined = () => undefined) {
  const calls: Call[] = []
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const u = new URL(String(input), 'http://x')
    const body = init?.body
    const call = {
      op: u.searchParams.get('op') ?? '',
      index: u.searchParams.has('index') ? Number(u.searchParams.get('index')) : null,
      size: body instanceof Blob ? body.size : 0,
    }
    calls.push(call)
    const answer = plan(call, calls)
    if (answer === 'network') throw new TypeError('Failed to fetch')
    if (answer) return answer
    if (call.op === 'state') return Response.json({ status: 'recording', duration_seconds: 0, size: 0, session_id: 's1' })
    if (call.op === 'complete') return Response.json({ status: 'complete', duration_seconds: 10, size: 12, session_id: 's1' })
    return Response.json({})
  }) as typeof fetch
  return { calls, fetcher }
}

const chunk = (bytes: number) => new Blob([new Uint8Array(bytes)])
const noWait = () => Promise.resolve()
const envelope = (status: number, cause: string, value: unknown = null) => Response.json({ errors: [{ cause, message: cause, value }] }, { status })

describe('RecordingUpload', () => {
  it('cuts the chunks into equal parts sent in order, and the rest as the last part on finish', async () => {
    const { calls, fetcher } = server()
    const progress: UploadProgress[] = []
    const up = new RecordingUpload('r1', 5, (p) => progress.push(p), fetcher, noWait)
    up.append(chunk(3))
    up.append(chunk(4)) // 7 bytes: part 1 (5), 2 buffered
    up.append(chunk(9)) // 11 bytes: parts 2 and 3 (5 each), 1 buffered
    const done = await up.finish()
    expect(done).toMatchObject({ status: 'complete', duration_seconds: 10 })
    expect(calls).toEqual([
      { op: 'part', index: 1, size: 5 },
      { op: 'part', index: 2, size: 5 },
      { op: 'part', index: 3, size: 5 },
      { op: 'part', index: 4, size: 1 },
      { op: 'complete', index: null, size: 0 },
    ])
    expect(progress.at(-1)).toEqual({ recorded: 16, sent: 16, retrying: false, paused: false })
  })

  it('pauses before the next part and completion, and resumes where it stopped (an uploaded file, session/create)', async () => {
    const { calls, fetcher } = server()
    const progress: UploadProgress[] = []
    const up = new RecordingUpload('r1', 5, (p) => progress.push(p), fetcher, noWait)
    up.pause()
    up.append(chunk(12)) // parts 1 and 2 queued, 2 bytes buffered
    const finished = up.finish()
    // Nothing is sent while paused.
    for (let i = 0; i < 20; i++) await Promise.resolve()
    expect(calls).toEqual([])
    expect(up.paused).toBe(true)
    expect(progress.at(-1)).toEqual({ recorded: 12, sent: 0, retrying: false, paused: true })
    up.resume()
    expect(await finished).toMatchObject({ status: 'complete' })
    expect(calls.map((c) => `${c.op}${c.index ?? ''}`)).toEqual(['part1', 'part2', 'part3', 'complete'])
    expect(progress.at(-1)).toEqual({ recorded: 12, sent: 12, retrying: false, paused: false })
  })

  it('sends a part again after a network failure or a server error, and reports that it is retrying', async () => {
    let failures = 0
    const { calls, fetcher } = server((call) => {
      if (call.op === 'part' && call.index === 1 && failures < 2) return failures++ === 0 ? 'network' : envelope(503, 'unavailable')
      return undefined
    })
    const progress: UploadProgress[] = []
    const up = new RecordingUpload('r1', 4, (p) => progress.push(p), fetcher, noWait)
    up.append(chunk(6))
    await up.finish()
    expect(calls.map((c) => `${c.op}${c.index ?? ''}`)).toEqual(['part1', 'part1', 'part1', 'part2', 'complete'])
    expect(progress.some((p) => p.retrying)).toBe(true)
    expect(progress.at(-1)).toEqual({ recorded: 6, sent: 6, retrying: false, paused: false })
  })

  it('gives up on a refusal (4xx) with its cause, and completes nothing', async () => {
    const { calls, fetcher } = server((call) => (call.op === 'part' ? envelope(409, 'recording_closed') : undefined))
    const up = new RecordingUpload('r1', 4, () => undefined, fetcher, noWait)
    up.append(chunk(5))
    const err = await up.finish().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UploadError)
    expect((err as UploadError).cause_).toBe('recording_closed')
    expect(calls.map((c) => c.op)).toEqual(['part'])
  })

  it('asks for the completion again while it is being assembled or its answer is lost, not after a refusal', async () => {
    let completes = 0
    const { calls, fetcher } = server((call) => {
      if (call.op !== 'complete') return undefined
      completes++
      if (completes === 1) return 'network'
      if (completes === 2) return envelope(409, 'assembling')
      return undefined
    })
    const up = new RecordingUpload('r1', 4, () => undefined, fetcher, noWait)
    up.append(chunk(3))
    await expect(up.finish()).resolves.toMatchObject({ status: 'complete' })
    expect(calls.map((c) => c.op)).toEqual(['part', 'complete', 'complete', 'complete'])

    const refused = server((call) => (call.op === 'complete' ? envelope(422, 'too_long', 600) : undefined))
    const up2 = new RecordingUpload('r2', 4, () => undefined, refused.fetcher, noWait)
    up2.append(chunk(3))
    const err = await up2.finish().catch((e: unknown) => e)
    expect((err as UploadError).cause_).toBe('too_long')
    expect(refused.calls.map((c) => c.op)).toEqual(['part', 'complete'])
  })

  it('abort tells the server and stops sending parts', async () => {
    const { calls, fetcher } = server()
    const up = new RecordingUpload('r1', 4, () => undefined, fetcher, noWait)
    await up.abort()
    up.append(chunk(9))
    await expect(up.finish()).rejects.toThrow('aborted')
    expect(calls.map((c) => c.op)).toEqual(['abort'])
  })

  it('journals each chunk until its part is acknowledged, and forgets the recording once completed', async () => {
    const { fetcher } = server()
    const journal = memoryJournal()
    const up = new RecordingUpload('r1', 4, () => undefined, fetcher, noWait)
    up.journal = journal
    await journal.begin(meta('r1'))
    up.append(chunk(3))
    up.append(chunk(3)) // part 1 (4 bytes) sent: the first chunk (0–3) is dropped, the second (3–6) kept
    await until(() => journal.rows.get('r1')?.acked === 4)
    expect([...journal.rows.get('r1')!.chunks.keys()]).toEqual([3])
    await up.finish()
    await until(() => !journal.rows.has('r1'))
  })

  it('resumes an interrupted recording from the acknowledged bytes with the journal’s chunks, and completes it', async () => {
    const { calls, fetcher } = server()
    const journal = memoryJournal()
    const pending: Pending = {
      meta: meta('r1'),
      acked: 4,
      // Offsets 0–3 and 3–6 and 6–8: part 1 (0–4) is on the server; bytes 4–8 are part 2.
      chunks: [
        { offset: 0, blob: chunk(3) },
        { offset: 3, blob: chunk(3) },
        { offset: 6, blob: chunk(2) },
      ],
    }
    await journal.begin(pending.meta)
    const progress: UploadProgress[] = []
    await expect(resumeUpload(pending, journal, (p) => progress.push(p), fetcher, noWait)).resolves.toMatchObject({ status: 'complete' })
    expect(calls).toEqual([
      { op: 'state', index: null, size: 0 },
      { op: 'part', index: 2, size: 4 },
      { op: 'complete', index: null, size: 0 },
    ])
    expect(progress.at(-1)).toEqual({ recorded: 8, sent: 8, retrying: false, paused: false })
    await until(() => !journal.rows.has('r1'))
  })

  it('a resumed recording the server already completed, or no longer knows, is only forgotten', async () => {
    const journal = memoryJournal()
    const pending: Pending = { meta: meta('r1'), acked: 0, chunks: [{ offset: 0, blob: chunk(3) }] }
    const completed = server((call) =>
      call.op === 'state' ? Response.json({ status: 'complete', duration_seconds: 7, size: 3, session_id: 's1' }) : undefined,
    )
    await journal.begin(pending.meta)
    await expect(resumeUpload(pending, journal, () => undefined, completed.fetcher, noWait)).resolves.toMatchObject({ duration_seconds: 7 })
    expect(completed.calls.map((c) => c.op)).toEqual(['state'])
    expect(journal.rows.has('r1')).toBe(false)

    const unknown = server((call) => (call.op === 'state' ? envelope(404, 'not_found') : undefined))
    await journal.begin(pending.meta)
    await expect(resumeUpload(pending, journal, () => undefined, unknown.fetcher, noWait)).resolves.toBeNull()
    expect(unknown.calls.map((c) => c.op)).toEqual(['state'])
    expect(journal.rows.has('r1')).toBe(false)
  })
})

const meta = (rec: string): JournalMeta => ({ rec, target: 'room', id: 'room1', part_size: 4, started_at: 1 })

/** The journal's contract in memory (the browser's is IndexedDB, recorder-journal.ts). */
function memoryJournal() {
  const rows = new Map<string, { meta: JournalMeta; acked: number; chunks: Map<number, Blob> }>()
  const journal: Journal & { rows: typeof rows } = {
    rows,
    begin: async (m) => void rows.set(m.rec, { meta: m, acked: 0, chunks: new Map() }),
    chunk: async (rec, offset, blob) => void rows.get(rec)?.chunks.set(offset, blob),
    acked: async (rec, bytes) => {
      const row = rows.get(rec)
      if (!row) return
      row.acked = Math.max(row.acked, bytes)
      for (const [offset, blob] of row.chunks) if (offset + blob.size <= bytes) row.chunks.delete(offset)
    },
    end: async (rec) => void rows.delete(rec),
    pending: async (target, id) => {
      const row = [...rows.values()].find((r) => r.meta.target === target && r.meta.id === id)
      return row ? { meta: row.meta, acked: row.acked, chunks: [...row.chunks].map(([offset, blob]) => ({ offset, blob })) } : null
    },
  }
  return journal
}

async function until(check: () => boolean) {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 1))
  expect(check()).toBe(true)
}
