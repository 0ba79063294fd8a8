import type { FileExtension } from '#shared/schemas/file'

const ascii = (b: Uint8Array, at: number, text: string) => [...text].every((ch, i) => b[at + i] === ch.charCodeAt(0))
const bytes = (b: Uint8Array, at: number, sig: number[]) => sig.every((x, i) => b[at + i] === x)

/**
 * True when the first bytes of a file are those of its extension's format (magic numbers), so a renamed file
 * (an HTML page called photo.png, say) is refused. `head` holds at least the first 16 bytes when the file has them.
 */
export function contentMatches(ext: FileExtension, head: Uint8Array): boolean {
  switch (ext) {
    case 'png':
      return bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    case 'jpg':
    case 'jpeg':
      return bytes(head, 0, [0xff, 0xd8, 0xff])
    case 'gif':
      return ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')
    case 'webp':
      return ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')
    case 'wav':
      return ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')
    case 'ogg':
      return ascii(head, 0, 'OggS')
    case 'mp3':
      return ascii(head, 0, 'ID3') || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)
    case 'mp4':
      return ascii(head, 4, 'ftyp')
    case 'pdf':
      return ascii(head, 0, '%PDF-')
    case 'docx':
    case 'xlsx':
    case 'zip':
      return bytes(head, 0, [0x50, 0x4b, 0x03, 0x04]) || (ext === 'zip' && bytes(head, 0, [0x50, 0x4b, 0x05, 0x06]))
    case 'pptx':
      // A zip whose entries (their names are in the local headers) include the presentation's `ppt/` folder.
      return bytes(head, 0, [0x50, 0x4b, 0x03, 0x04]) && includesAscii(head, 'ppt/')
    case 'txt':
      return isText(head)
  }
}

function includesAscii(b: Uint8Array, text: string): boolean {
  const first = text.charCodeAt(0)
  for (let i = b.indexOf(first); i >= 0 && i <= b.length - text.length; i = b.indexOf(first, i + 1)) if (ascii(b, i, text)) return true
  return false
}

/** Text files: valid UTF-8 without NUL bytes (checked on the sample given). */
export function isText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false
  try {
    // A sample may end inside a multi-byte character: drop up to 3 trailing bytes before judging.
    const trimmed = sample.length > 4 ? sample.subarray(0, sample.length - 3) : sample
    new TextDecoder('utf-8', { fatal: true }).decode(trimmed)
    return true
  } catch {
    return false
  }
}

const be16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1]
const le16 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8)
const be32 = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3]
const le24 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)

/** Width and height of a PNG, JPEG, GIF or WebP image from its header, or null when they cannot be read. */
export function imageSize(ext: FileExtension, b: Uint8Array): { width: number; height: number } | null {
  if (ext === 'png' && b.length >= 24 && ascii(b, 12, 'IHDR')) return { width: be32(b, 16), height: be32(b, 20) }
  if (ext === 'gif' && b.length >= 10) return { width: le16(b, 6), height: le16(b, 8) }
  if (ext === 'webp' && b.length >= 30) {
    if (ascii(b, 12, 'VP8 ')) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff }
    if (ascii(b, 12, 'VP8L')) {
      const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
    }
    if (ascii(b, 12, 'VP8X')) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 }
    return null
  }
  if (ext === 'jpg' || ext === 'jpeg') {
    let i = 2
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null
      const marker = b[i + 1]
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
        i += marker === 0xff ? 1 : 2
        continue
      }
      const length = be16(b, i + 2)
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: be16(b, i + 5), width: be16(b, i + 7) }
      }
      i += 2 + length
    }
  }
  return null
}
