/**
 * What a recording's own WebM/Matroska container says about it (issue 20 recording, validated as issue 15 asks: on
 * the file's metadata, never on the uploader's claims): the document type, each track's codec, and the duration.
 *
 * A browser's `MediaRecorder` writes a live stream: the Segment and its Clusters often have an unknown size and the
 * Info has no Duration. So the duration is read from the timecodes themselves: the first Cluster's (from the head of
 * the file) and the last Cluster's plus its last block's relative timecode (from the tail). A Cluster is found in the
 * tail by its ID and accepted only when a Timecode follows it and its children parse as a Cluster's, to the end of
 * what was read or the next Cluster (a match inside a frame's bytes does not parse so).
 */

const EBML = 0x1a45dfa3
const DOC_TYPE = 0x4282
const SEGMENT = 0x18538067
const INFO = 0x1549a966
const TIMECODE_SCALE = 0x2ad7b1
const DURATION = 0x4489
const TRACKS = 0x1654ae6b
const TRACK_ENTRY = 0xae
const TRACK_TYPE = 0x83
const CODEC_ID = 0x86
const CLUSTER = 0x1f43b675
const TIMECODE = 0xe7
const SIMPLE_BLOCK = 0xa3
const BLOCK_GROUP = 0xa0
const BLOCK = 0xa1
/** A Cluster's other children (Position, PrevSize, SilentTracks, EncryptedBlock) and Void/CRC-32 anywhere. */
const CLUSTER_OTHER = new Set([0xa7, 0xab, 0x5854, 0xaf, 0xec, 0xbf])

export type WebmHead = {
  docType: string
  /** Nanoseconds per timecode unit (1,000,000 unless the Info says otherwise). */
  timecodeScale: number
  /** The Info's Duration in timecode units when the muxer wrote one, else null. */
  duration: number | null
  /** CodecIDs (V_MPEG4/ISO/AVC, A_OPUS, …) by track type. */
  video: string[]
  audio: string[]
  /** The first Cluster's Timecode, when the head reaches it. */
  firstCluster: number | null
}

type Element = { id: number; start: number; dataStart: number; size: number | null; end: number }

/** An element ID (1–4 bytes, the marker bits kept) at `pos`, or null. */
function readId(b: Uint8Array, pos: number): { id: number; len: number } | null {
  if (pos >= b.length) return null
  const first = b[pos]
  const len = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0
  if (!len || pos + len > b.length) return null
  let id = 0
  for (let i = 0; i < len; i++) id = id * 256 + b[pos + i]
  return { id, len }
}

/** A data size (1–8 bytes); `size` null for the reserved "unknown" value (all ones). */
function readSize(b: Uint8Array, pos: number): { size: number | null; len: number } | null {
  if (pos >= b.length) return null
  const first = b[pos]
  let len = 1
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++
  if (len > 8 || pos + len > b.length) return null
  let value = first & (0xff >> len)
  let allOnes = value === 0xff >> len
  for (let i = 1; i < len; i++) {
    value = value * 256 + b[pos + i]
    if (b[pos + i] !== 0xff) allOnes = false
  }
  return { size: allOnes ? null : value, len }
}

function readElement(b: Uint8Array, pos: number): Element | null {
  const id = readId(b, pos)
  if (!id) return null
  const size = readSize(b, pos + id.len)
  if (!size) return null
  const dataStart = pos + id.len + size.len
  return { id: id.id, start: pos, dataStart, size: size.size, end: size.size === null ? b.length : dataStart + size.size }
}

function uint(b: Uint8Array, e: Element): number {
  let v = 0
  for (let i = e.dataStart; i < Math.min(e.end, b.length); i++) v = v * 256 + b[i]
  return v
}

function float(b: Uint8Array, e: Element): number | null {
  const n = e.end - e.dataStart
  if (e.end > b.length || (n !== 4 && n !== 8)) return null
  const view = new DataView(b.buffer, b.byteOffset + e.dataStart, n)
  return n === 4 ? view.getFloat32(0) : view.getFloat64(0)
}

function text(b: Uint8Array, e: Element): string {
  return new TextDecoder().decode(b.subarray(e.dataStart, Math.min(e.end, b.length))).replace(/\0+$/, '')
}

/** The children of an element whose data is [from, to): stops at what cannot be parsed or runs past `to`. */
function* children(b: Uint8Array, from: number, to: number): Generator<Element> {
  let pos = from
  while (pos < to) {
    const e = readElement(b, pos)
    if (!e) return
    yield e
    if (e.size === null) return
    pos = e.end
  }
}

/** The head of a file (its first tens of kilobytes): null when it is not an EBML document with a Segment. */
export function readWebmHead(b: Uint8Array): WebmHead | null {
  const header = readElement(b, 0)
  if (!header || header.id !== EBML || header.size === null) return null
  let docType = ''
  for (const e of children(b, header.dataStart, header.end)) if (e.id === DOC_TYPE) docType = text(b, e)
  const segment = readElement(b, header.end)
  if (!segment || segment.id !== SEGMENT) return null
  const head: WebmHead = { docType, timecodeScale: 1_000_000, duration: null, video: [], audio: [], firstCluster: null }
  for (const e of children(b, segment.dataStart, Math.min(segment.end, b.length))) {
    if (e.id === INFO) {
      for (const i of children(b, e.dataStart, e.end)) {
        if (i.id === TIMECODE_SCALE) head.timecodeScale = uint(b, i) || 1_000_000
        else if (i.id === DURATION) head.duration = float(b, i)
      }
    } else if (e.id === TRACKS) {
      for (const t of children(b, e.dataStart, e.end)) {
        if (t.id !== TRACK_ENTRY) continue
        let type = 0
        let codec = ''
        for (const f of children(b, t.dataStart, t.end)) {
          if (f.id === TRACK_TYPE) type = uint(b, f)
          else if (f.id === CODEC_ID) codec = text(b, f)
        }
        if (type === 1) head.video.push(codec)
        else if (type === 2) head.audio.push(codec)
      }
    } else if (e.id === CLUSTER) {
      const tc = clusterEnd(b, e.start)
      head.firstCluster = tc?.first ?? null
      break
    }
  }
  return head
}

/**
 * The Cluster starting at `pos`: its Timecode and the largest timecode of its blocks (Timecode + the block's relative
 * timecode), or null when what follows is not a Cluster's structure.
 */
function clusterEnd(b: Uint8Array, pos: number): { first: number; last: number } | null {
  const cluster = readElement(b, pos)
  if (!cluster || cluster.id !== CLUSTER) return null
  const end = Math.min(cluster.end, b.length)
  let timecode: number | null = null
  let last = -Infinity
  let pos2 = cluster.dataStart
  while (pos2 < end) {
    const e = readElement(b, pos2)
    if (!e) break
    if (timecode === null) {
      if (e.id !== TIMECODE || e.size === null || e.size > 8) return null
      timecode = uint(b, e)
    } else if (e.id === SIMPLE_BLOCK || e.id === BLOCK_GROUP) {
      let block: Element | null = e
      if (e.id === BLOCK_GROUP) {
        block = null
        for (const g of children(b, e.dataStart, Math.min(e.end, b.length))) if (g.id === BLOCK) block = g
      }
      if (block) {
        const track = readSize(b, block.dataStart)
        const at = block.dataStart + (track?.len ?? 0)
        if (!track || at + 2 > b.length) break
        const rel = new DataView(b.buffer, b.byteOffset + at, 2).getInt16(0)
        last = Math.max(last, timecode + rel)
      }
    } else if (e.id === CLUSTER) {
      break
    } else if (!CLUSTER_OTHER.has(e.id)) {
      return null
    }
    if (e.size === null) break
    pos2 = e.end
  }
  if (timecode === null) return null
  return { first: timecode, last: last === -Infinity ? timecode : last }
}

/** The end timecode of the last Cluster in a file's tail, or null when the tail holds no Cluster that parses. */
export function lastClusterEnd(tail: Uint8Array): number | null {
  for (let pos = tail.length - 4; pos >= 0; pos--) {
    if (tail[pos] !== 0x1f || tail[pos + 1] !== 0x43 || tail[pos + 2] !== 0xb6 || tail[pos + 3] !== 0x75) continue
    const found = clusterEnd(tail, pos)
    if (found) return found.last
  }
  return null
}

/** Seconds between the first and the last timecode (the Info's Duration when the muxer wrote one). */
export function webmSeconds(head: WebmHead, tailEnd: number | null): number | null {
  if (head.duration !== null && head.duration > 0) return (head.duration * head.timecodeScale) / 1e9
  if (tailEnd === null) return null
  return Math.max(0, ((tailEnd - (head.firstCluster ?? 0)) * head.timecodeScale) / 1e9)
}
