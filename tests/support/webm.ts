/**
 * Small WebM/Matroska files built in the test, shaped as a browser's MediaRecorder writes them: an EBML header, a
 * Segment of unknown size with Info (no Duration) and Tracks, then Clusters of unknown size whose SimpleBlocks carry
 * the timecodes. Frames are a few placeholder bytes: the recording's validation reads the container, not the frames.
 * `padTo` inserts a Void element after the first Cluster so the file reaches that many bytes (multipart tests).
 */

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}

const idBytes = (id: number) => {
  const out: number[] = []
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256)
  return new Uint8Array(out)
}

/** An 8-byte data size (0x01 marker + 7 bytes), or the unknown size. */
const size8 = (n: number | null) => {
  const out = new Uint8Array(8)
  if (n === null) {
    out[0] = 0x01
    out.fill(0xff, 1)
    return out
  }
  out[0] = 0x01
  for (let i = 7, v = n; i >= 1; i--, v = Math.floor(v / 256)) out[i] = v % 256
  return out
}

const el = (id: number, ...data: Uint8Array[]) => {
  const body = concat(data)
  return concat([idBytes(id), size8(body.byteLength), body])
}
const unknownEl = (id: number, ...data: Uint8Array[]) => concat([idBytes(id), size8(null), ...data])
const uint = (n: number) => {
  const out: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256)
  return new Uint8Array(out.length ? out : [0])
}
const str = (s: string) => new TextEncoder().encode(s)

const simpleBlock = (track: number, rel: number) => {
  const b = new Uint8Array(4 + 16)
  b[0] = 0x80 | track
  new DataView(b.buffer).setInt16(1, rel)
  b[3] = 0x80
  return el(0xa3, b)
}

export function webmFixture(options: { seconds?: number; video?: string | null; audio?: string | null; docType?: string; padTo?: number } = {}): Uint8Array {
  const seconds = options.seconds ?? 10
  const video = options.video === undefined ? 'V_MPEG4/ISO/AVC' : options.video
  const audio = options.audio === undefined ? 'A_OPUS' : options.audio
  const tracks: Uint8Array[] = []
  if (video) tracks.push(el(0xae, el(0xd7, uint(1)), el(0x83, uint(1)), el(0x86, str(video))))
  if (audio) tracks.push(el(0xae, el(0xd7, uint(2)), el(0x83, uint(2)), el(0x86, str(audio))))
  const head = concat([
    el(0x1a45dfa3, el(0x4286, uint(1)), el(0x4282, str(options.docType ?? 'webm'))),
    idBytes(0x18538067),
    size8(null),
    el(0x1549a966, el(0x2ad7b1, uint(1_000_000)), el(0x4d80, str('fixture'))),
    el(0x1654ae6b, ...tracks),
  ])
  const end = seconds * 1000
  const clusters: Uint8Array[] = []
  for (let tc = 0; tc < end || tc === 0; tc += 5000) {
    const blocks: Uint8Array[] = []
    for (let rel = 0; rel < 5000 && tc + rel <= end; rel += 1000) blocks.push(simpleBlock(1, rel), simpleBlock(2, rel))
    // The last frame lands exactly at the end.
    if (tc + 5000 >= end && (end - tc) % 1000 !== 0) blocks.push(simpleBlock(1, end - tc))
    if (tc + 5000 >= end && end - tc === 5000) blocks.push(simpleBlock(1, 5000))
    clusters.push(unknownEl(0x1f43b675, el(0xe7, uint(tc)), ...blocks))
  }
  const body = concat([head, ...clusters.slice(0, 1)])
  const rest = concat(clusters.slice(1))
  const pad = options.padTo ? options.padTo - body.byteLength - rest.byteLength - 9 : -1
  return concat([body, ...(pad >= 0 ? [el(0xec, new Uint8Array(pad))] : []), rest])
}
