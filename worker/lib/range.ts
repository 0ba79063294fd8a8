/**
 * HTTP range requests (RFC 9110 §14) over a stored object of `size` bytes: the one byte range a `Range` header asks
 * for, `null` to answer the whole object (no header, another unit, several ranges, or a malformed header — all of
 * which a server may ignore), or `'unsatisfiable'` (416) when the range starts at or past the end.
 */
export type ByteRange = { offset: number; length: number }

export function byteRange(header: string | null | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return null
  if (m[1] === '') {
    // A suffix: the last n bytes (all of a smaller object); a zero-length suffix selects nothing.
    const n = Number(m[2])
    if (n === 0 || size === 0) return 'unsatisfiable'
    const length = Math.min(n, size)
    return { offset: size - length, length }
  }
  const start = Number(m[1])
  if (start >= size) return 'unsatisfiable'
  const end = m[2] === '' ? size - 1 : Number(m[2])
  if (end < start) return null
  return { offset: start, length: Math.min(end, size - 1) - start + 1 }
}

/** The Content-Type of a stored video: its container's type, without the codecs parameter the recorder names. */
export function videoContentType(mime: string, key: string): string {
  const base = mime.split(';')[0].trim().toLowerCase()
  if (['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'].includes(base)) return base
  const ext = key.split('.').pop()?.toLowerCase()
  return { mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska' }[ext ?? ''] ?? 'application/octet-stream'
}
