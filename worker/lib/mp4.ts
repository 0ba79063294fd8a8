import { createFile, MP4BoxBuffer, type Movie } from 'mp4box'

/**
 * An MP4/MOV file's own description (issue 15 uploads), read without loading the file: the top-level boxes are walked
 * by their headers (16 bytes read at each box's start, so a multi-gigabyte `mdat` costs one small read), only `ftyp`
 * and `moov` are read whole, and mp4box parses those two (handed to it as one contiguous buffer: the sample offsets
 * are never followed).
 */

/** Reads `length` bytes of the stored file from `offset` (an R2 range read). */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>
export type Mp4Meta = { brands: string[]; video: string[]; audio: string[]; seconds: number | null }

/** Boxes a QuickTime/ISO file may start with. */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'])
/** A `moov` larger than this is refused as unreadable (a two-hour movie's is a few MB). */
export const MOOV_MAX_BYTES = 64 * 1024 * 1024
/** The most top-level boxes walked (a real file has a handful). */
const MAX_BOXES = 1000

type Found = { type: string; start: number; size: number }

/** The top-level boxes' types, starts and sizes; null when the file is not a box structure. */
async function topLevelBoxes(read: ReadRange, fileSize: number): Promise<Found[] | null> {
  const boxes: Found[] = []
  let at = 0
  while (at < fileSize && boxes.length < MAX_BOXES) {
    if (fileSize - at < 8) return boxes.length ? boxes : null
    const h = await read(at, Math.min(16, fileSize - at))
    if (h.byteLength < 8) return null
    const view = new DataView(h.buffer, h.byteOffset, h.byteLength)
    const type = String.fromCharCode(h[4], h[5], h[6], h[7])
    if (!/^[\x20-\x7e]{4}$/.test(type)) return null
    if (!boxes.length && !FIRST_BOXES.has(type)) return null
    let size = view.getUint32(0)
    if (size === 1) {
      if (h.byteLength < 16) return null
      size = view.getUint32(8) * 2 ** 32 + view.getUint32(12)
    } else if (size === 0) size = fileSize - at
    if (size < 8 || at + size > fileSize) return boxes.length && ['mdat', 'free', 'skip'].includes(type) ? boxes : null
    boxes.push({ type, start: at, size })
    at += size
  }
  return boxes
}

/** Tracks, brands and duration of an MP4/MOV file; null when it is not one (no `moov`, or not boxes). */
export async function readMp4(read: ReadRange, fileSize: number): Promise<Mp4Meta | null> {
  const boxes = await topLevelBoxes(read, fileSize)
  const moov = boxes?.find((b) => b.type === 'moov')
  if (!boxes || !moov || moov.size > MOOV_MAX_BYTES) return null
  const ftyp = boxes.find((b) => b.type === 'ftyp')
  const parts = [...(ftyp ? [await read(ftyp.start, ftyp.size)] : []), await read(moov.start, moov.size)]
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    bytes.set(p, at)
    at += p.byteLength
  }
  let movie: Movie | null = null
  const file = createFile()
  file.onReady = (info) => {
    movie = info
  }
  file.onError = () => undefined
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes.buffer, 0), true)
    file.flush()
  } catch {
    return null
  }
  const info = movie as Movie | null
  if (!info) return null
  const seconds = info.timescale > 0 && info.duration > 0 ? info.duration / info.timescale : trackSeconds(info)
  return {
    brands: info.brands,
    video: info.videoTracks.map((t) => t.codec),
    audio: info.audioTracks.map((t) => t.codec),
    seconds,
  }
}

/** The longest track's duration, where the movie header has none (a fragmented file's `mehd` aside). */
function trackSeconds(info: Movie): number | null {
  const fragment = info.fragment_duration
  if (fragment && fragment.den > 0 && fragment.num > 0) return fragment.num / fragment.den
  const s = Math.max(0, ...info.tracks.map((t) => (t.timescale > 0 ? t.duration / t.timescale : 0)))
  return s > 0 ? s : null
}

/** Seed 002 §5's names for an MP4 sample entry's codec string (RFC 6381), or null when unsupported. */
export function mp4VideoCodec(codec: string): string | null {
  const fourcc = codec.split('.')[0].toLowerCase()
  if (fourcc === 'avc1' || fourcc === 'avc3') return 'avc'
  if (fourcc === 'hvc1' || fourcc === 'hev1') return 'hevc'
  return null
}

export function mp4AudioCodec(codec: string): string | null {
  const c = codec.toLowerCase()
  if (c === 'mp4a.40.2' || c === 'mp4a.40.5') return c
  if (/^mp4a\.(40(\.\d+)?|66|67|68)$/.test(c)) return 'aac'
  if (/^mp4a\.(69|6b)$/.test(c) || c === '.mp3' || c === 'mp3') return 'mp3'
  if (c === 'opus') return 'opus'
  if (c === 'ac-3') return 'ac3'
  if (c === 'ec-3') return 'eac3'
  return null
}
