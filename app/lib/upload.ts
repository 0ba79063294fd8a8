import { FILE_TYPES, MAX_SIZE, extensionOf, isFileExtension, isSafeFileName, type UploadedFile } from '#shared/schemas/file'
import type { ErrorItem } from '#shared/schemas/error'

export interface UploadOptions {
  persist?: boolean
  permanent?: boolean
  minWidth?: number
  maxWidth?: number
  minHeight?: number
  maxHeight?: number
  /** Extensions this field accepts (a subset of the specification's list). */
  accept?: string[]
  /** Where the form goes (default the console's `/upload`; the apply screen posts to its own upload route). */
  url?: string
  /** More fields of the form (e.g. the question an answer's upload is for). */
  fields?: Record<string, string>
}

/** Checks done in the browser before sending (the server checks everything again): name, extension and size. */
export function precheck(file: File, accept?: string[]): ErrorItem | null {
  if (!isSafeFileName(file.name)) return { field: 'data', cause: 'file_name', value: null, message: 'validation.file.name' }
  const ext = extensionOf(file.name)
  if (!isFileExtension(ext) || (accept && !accept.includes(ext))) return { field: 'data', cause: 'type', value: ext, message: 'file.upload.type.error' }
  const limit = MAX_SIZE[FILE_TYPES[ext].kind]
  if (file.size > limit) return { field: 'data', cause: 'max_size', value: limit, message: 'validation.file.max_size' }
  return null
}

/**
 * Uploads a file through the console's /upload endpoint (or `opts.url`), reporting progress (0..1). Resolves with the stored
 * file, rejects with the error envelope's items.
 */
export function uploadFile(file: File, opts: UploadOptions = {}, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  const early = precheck(file, opts.accept)
  if (early) return Promise.reject([early])
  const form = new FormData()
  form.set('data', file)
  if (opts.persist) form.set('persist', 'true')
  if (opts.permanent) form.set('permanent', 'true')
  if (opts.minWidth) form.set('min_width', String(opts.minWidth))
  if (opts.maxWidth) form.set('max_width', String(opts.maxWidth))
  if (opts.minHeight) form.set('min_height', String(opts.minHeight))
  if (opts.maxHeight) form.set('max_height', String(opts.maxHeight))
  for (const [name, value] of Object.entries(opts.fields ?? {})) form.set(name, value)
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', opts.url ?? '/upload')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total)
    xhr.onload = () => {
      if (xhr.status === 201) {
        onProgress?.(1)
        resolve(xhr.response as UploadedFile)
      } else {
        const errors = (xhr.response as { errors?: ErrorItem[] } | null)?.errors
        reject(errors ?? [{ field: 'data', cause: 'internal', value: xhr.status, message: 'errors.internal' }])
      }
    }
    xhr.onerror = () => reject([{ field: 'data', cause: 'network', value: null, message: 'error.http.network' }])
    signal?.addEventListener('abort', () => xhr.abort())
    xhr.send(form)
  })
}
