/**
 * Upload rules (seed 000 §5): accepted extensions, their kind, content type and size limit (bytes), and the image
 * dimension bounds. Shared by the API (which enforces them) and the console (which checks before sending).
 */
export type FileKind = 'image' | 'audio' | 'video' | 'document' | 'other'

export const FILE_TYPES = {
  png: { kind: 'image', type: 'image/png' },
  jpg: { kind: 'image', type: 'image/jpeg' },
  jpeg: { kind: 'image', type: 'image/jpeg' },
  gif: { kind: 'image', type: 'image/gif' },
  webp: { kind: 'image', type: 'image/webp' },
  mp3: { kind: 'audio', type: 'audio/mpeg' },
  wav: { kind: 'audio', type: 'audio/wav' },
  ogg: { kind: 'audio', type: 'audio/ogg' },
  mp4: { kind: 'video', type: 'video/mp4' },
  pdf: { kind: 'document', type: 'application/pdf' },
  docx: { kind: 'document', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { kind: 'document', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  /** Presentations: a generation source (issue 18); their magic bytes are a zip holding `ppt/`. */
  pptx: { kind: 'document', type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  zip: { kind: 'other', type: 'application/zip' },
  txt: { kind: 'other', type: 'text/plain; charset=utf-8' },
} as const satisfies Record<string, { kind: FileKind; type: string }>

export type FileExtension = keyof typeof FILE_TYPES

/** Size limits per kind (seed 000 §5, §9; bytes). */
export const MAX_SIZE: Record<FileKind, number> = {
  image: 5_000_000,
  other: 5_000_000,
  audio: 10_000_000,
  video: 100_000_000,
  document: 100_000_000,
}

/** Images larger than this many pixels are refused whatever the bounds (decompression bombs). */
export const MAX_IMAGE_PIXELS = 40_000_000

/** How long a non-persisted upload lives before the cleanup removes it. */
export const TEMPORARY_UPLOAD_HOURS = 24

/**
 * Characters no file name may hold: control characters (NUL included), which break headers and logs, and the
 * bidirectional controls that make `invoice\u202Efdp.exe` display as `invoiceexe.pdf`.
 */
const UNSAFE_IN_FILE_NAME = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/** With the `u` flag a surrogate pair is one code point, so this matches only halves of a broken pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/** A file name the console stores and shows: not empty, well-formed Unicode, no control or bidirectional characters. */
export function isSafeFileName(name: string): boolean {
  return name.trim() !== '' && !LONE_SURROGATE.test(name) && !UNSAFE_IN_FILE_NAME.test(name)
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase()
}

export function isFileExtension(ext: string): ext is FileExtension {
  return Object.hasOwn(FILE_TYPES, ext)
}

/** POST /mas/file answer. */
export interface UploadedFile {
  id: string
  cdn_full_url: string
  name: string
  kind: FileKind
  content_type: string
  size: number
  width: number | null
  height: number | null
  persist: boolean
  permanent: boolean
  expires_at: string | null
}
