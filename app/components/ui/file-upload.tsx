import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { uploadFile, type UploadOptions } from '~/lib/upload'
import type { ErrorItem } from '#shared/schemas/error'
import type { UploadedFile } from '#shared/schemas/file'
import { Icon } from './icon'

/**
 * A file field that uploads at once (POST /upload → /api/mas/file) with a progress bar, then reports the stored file.
 * Errors of §5 (type, size, dimensions) show under the field, translated.
 */
export function FileUpload({
  label,
  options,
  onUploaded,
  hint,
}: {
  label: string
  options?: UploadOptions
  onUploaded: (file: UploadedFile) => void
  hint?: string
}) {
  const { t } = useTranslation()
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [errors, setErrors] = useState<ErrorItem[]>([])
  const accept = (options?.accept ?? []).map((e) => `.${e}`).join(',') || undefined

  async function onChange(files: FileList | null) {
    const file = files?.[0]
    if (!file) return
    setErrors([])
    setProgress(0)
    try {
      onUploaded(await uploadFile(file, options, setProgress))
    } catch (err) {
      setErrors(Array.isArray(err) ? (err as ErrorItem[]) : [{ field: 'data', cause: 'internal', value: null, message: 'errors.internal' }])
    } finally {
      setProgress(null)
      if (input.current) input.current.value = ''
    }
  }

  const message = (e: ErrorItem) =>
    e.cause === 'max_size'
      ? t('validation.file.max_size', { limit: new Intl.NumberFormat().format(Number(e.value)) })
      : t(e.message, { defaultValue: t(`errors.${e.cause}`, { defaultValue: e.message }) })
  return (
    <div className="field file-upload">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        className="input"
        accept={accept}
        disabled={progress !== null}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={`${id}-status`}
        onChange={(e) => void onChange(e.currentTarget.files)}
      />
      <div id={`${id}-status`}>
        {progress !== null ? <UploadProgress progress={progress} /> : null}
        {errors.map((e, i) => (
          <p key={i} className="error" role="alert">
            <Icon name="warning" size={16} /> {message(e)}
          </p>
        ))}
        {hint && !errors.length && progress === null ? <p className="hint">{hint}</p> : null}
      </div>
    </div>
  )
}

/** An upload's progress: the bar and the percentage as a status. */
export function UploadProgress({ progress }: { progress: number }) {
  const { t } = useTranslation()
  return (
    <div className="upload-progress">
      <progress max={1} value={progress} aria-label={t('upload.progress')} />
      <span role="status">{t('upload.progress_value', { value: Math.round(progress * 100) })}</span>
    </div>
  )
}

/** What a failed `uploadFile` rejected with, as one error item (its precheck's or the server's first, else `internal`). */
export function uploadErrorOf(err: unknown): ErrorItem {
  return Array.isArray(err) ? (err[0] as ErrorItem) : { field: 'data', cause: 'internal', value: null, message: 'errors.internal' }
}

/** A failed upload's message, translated (the limit it broke named). */
export function UploadError({ error }: { error: ErrorItem }) {
  const { t } = useTranslation()
  return (
    <p className="error" role="alert">
      {t(error.message, { defaultValue: t(`errors.${error.cause}`), limit: String(error.value) })}
    </p>
  )
}
