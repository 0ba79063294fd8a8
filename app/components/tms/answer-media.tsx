import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FILE_TYPES, type FileKind, type UploadedFile } from '#shared/schemas/file'
import type { ErrorItem } from '#shared/schemas/error'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'
import { uploadFile } from '~/lib/upload'

/**
 * The apply screen's answers made of files (issue 17): a media question's uploads, an essay's photographed pages and
 * their transcription, and a game's result. Files go to the screen's upload route (`POST …/file`, the student API's
 * own upload: the kinds the question takes, the upload rules), are listed with a preview and can be removed (a
 * temporary upload of this visit is deleted on the server too; a file of the saved draft only leaves the answer).
 * Each file is a hidden `q.files.<id>` input, in order.
 */

/** The screen's routes for a task: its upload route and its transcription route. */
export type AnswerRoutes = { file: string; transcribe: string }

type Common = { id: string; n: number; routes: AnswerRoutes; disabled?: boolean; onChange?: () => void }

/** One file of an answer: its address, and, when uploaded during this visit, its id (deletable) and the picked file. */
type AnswerFile = { url: string; name: string; kind: string; id?: string; local?: File }

const KIND_BY_EXT = Object.fromEntries(Object.entries(FILE_TYPES).map(([ext, t]) => [ext, t.kind]))
/** A saved file's kind from its address's extension. */
const kindOf = (url: string) => KIND_BY_EXT[url.split(/[?#]/)[0].split('.').pop()?.toLowerCase() ?? ''] ?? 'other'
const nameOf = (url: string) => decodeURIComponent(url.split(/[?#]/)[0].split('/').pop() ?? url)
/** The extensions of the kinds a question takes (the file picker's filter; the server checks again). */
const extensionsOf = (kinds: readonly string[]) => Object.entries(FILE_TYPES).flatMap(([ext, t]) => (kinds.includes(t.kind) ? [ext] : []))

const addQuery = (url: string, part: string) => `${url}${url.includes('?') ? '&' : '?'}${part}`

/** The files of one answer: the list, an upload with its progress, removal. */
function useAnswerFiles(questionId: string, routes: AnswerRoutes, initial: readonly string[], onChange?: () => void) {
  const [files, setFiles] = useState<AnswerFile[]>(() => initial.map((url) => ({ url, name: nameOf(url), kind: kindOf(url) })))
  const [progress, setProgress] = useState<number | null>(null)
  const [errors, setErrors] = useState<ErrorItem[]>([])
  const [said, setSaid] = useState('')
  const update = (next: AnswerFile[]) => {
    setFiles(next)
    onChange?.()
  }
  const upload = async (file: File, accept: string[], t: (k: string, o?: Record<string, unknown>) => string) => {
    setErrors([])
    setProgress(0)
    try {
      const stored: UploadedFile = await uploadFile(file, { url: routes.file, accept, fields: { question_id: questionId } }, setProgress)
      setFiles((fs) => [...fs, { url: stored.cdn_full_url, name: stored.name, kind: stored.kind, id: stored.id, local: file }])
      setSaid(t('mobile.tms.media.uploaded', { name: stored.name }))
      onChange?.()
    } catch (err) {
      setErrors(Array.isArray(err) ? (err as ErrorItem[]) : [{ field: 'data', cause: 'upload', value: null, message: 'mobile.tms.media.upload_error' }])
    } finally {
      setProgress(null)
    }
  }
  const remove = async (index: number, t: (k: string, o?: Record<string, unknown>) => string) => {
    const file = files[index]
    setErrors([])
    if (file.id) {
      // This visit's temporary upload: deleted on the server. A file already kept with the draft only leaves the answer.
      const res = await fetch(addQuery(routes.file, `id=${encodeURIComponent(file.id)}`), { method: 'DELETE' }).catch(() => null)
      if (!res || (!res.ok && res.status !== 409)) {
        const body = (await res?.json().catch(() => null)) as { errors?: ErrorItem[] } | null
        setErrors(body?.errors ?? [{ field: 'file_id', cause: 'delete', value: null, message: 'mobile.tms.media.delete_error' }])
        return
      }
    }
    update(files.filter((_, i) => i !== index))
    setSaid(t('mobile.tms.media.removed', { name: file.name }))
  }
  const move = (index: number, to: number) => {
    if (to < 0 || to >= files.length) return
    const next = [...files]
    const [x] = next.splice(index, 1)
    next.splice(to, 0, x)
    update(next)
  }
  return { files, progress, errors, said, upload, remove, move }
}

/** The file picker and the upload's progress and errors of an answer. */
function FilePicker({
  label,
  hint,
  kinds,
  state,
  disabled,
}: {
  label: string
  hint: string
  kinds: readonly string[]
  state: ReturnType<typeof useAnswerFiles>
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const inputId = useId()
  const input = useRef<HTMLInputElement>(null)
  const accept = extensionsOf(kinds)
  return (
    <div className="mtms-upload">
      <label htmlFor={inputId} className="btn">
        <Icon name="upload" /> {label}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        className="visually-hidden"
        accept={accept.map((e) => `.${e}`).join(',')}
        disabled={disabled || state.progress !== null}
        aria-describedby={`${inputId}-hint`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0]
          if (file) void state.upload(file, accept, t).finally(() => input.current && (input.current.value = ''))
        }}
      />
      <p className="hint" id={`${inputId}-hint`}>
        {hint}
      </p>
      {state.progress !== null ? (
        <div className="upload-progress">
          <progress max={1} value={state.progress} aria-label={t('upload.progress')} />
          <span role="status">{t('upload.progress_value', { value: Math.round(state.progress * 100) })}</span>
        </div>
      ) : null}
      {state.errors.map((e, i) => (
        <p key={i} className="error" role="alert">
          <Icon name="warning" size={16} />{' '}
          {e.cause === 'max_size' ? t('validation.file.max_size', { limit: new Intl.NumberFormat().format(Number(e.value)) }) : errorText(t, e)}
        </p>
      ))}
      <p className="visually-hidden" role="status" aria-live="polite">
        {state.said}
      </p>
    </div>
  )
}

/** A file's preview: the image, a player for audio and video, a link for a document. */
function Preview({ file, alt }: { file: AnswerFile; alt: string }) {
  if (file.kind === 'image') return <img className="mtms-file-image" src={file.url} alt={alt} />
  // eslint-disable-next-line jsx-a11y/media-has-caption -- the student's own recording, just made: it has no caption file
  if (file.kind === 'audio') return <audio className="mtms-file-media" controls preload="metadata" src={file.url} aria-label={alt} />
  // eslint-disable-next-line jsx-a11y/media-has-caption -- the student's own recording, just made: it has no caption file
  if (file.kind === 'video') return <video className="mtms-file-media" controls preload="metadata" src={file.url} aria-label={alt} />
  return (
    <a href={file.url} target="_blank" rel="noreferrer">
      <Icon name="file" /> {file.name}
    </a>
  )
}

/** media: the student's files of the kinds the question takes (its `accept`), uploaded with progress, previewed, removable. */
export function MediaAnswer({ id, n, routes, accept, initial, disabled, onChange }: Common & { accept: readonly FileKind[]; initial: readonly string[] }) {
  const { t } = useTranslation()
  const state = useAnswerFiles(id, routes, initial, onChange)
  const kinds = accept.map((k) => t(`mobile.tms.media.kind.${k}`)).join(', ')
  return (
    <div className="mtms-media">
      {state.files.length ? (
        <ul className="mtms-files" aria-label={t('mobile.tms.media.files', { n })}>
          {state.files.map((f, i) => (
            <li key={f.url} className="mtms-file">
              <Preview file={f} alt={t('mobile.tms.media.file_alt', { n: i + 1, name: f.name })} />
              <span className="mtms-file-name">{f.name}</span>
              <button type="button" className="btn btn-icon" disabled={disabled} onClick={() => void state.remove(i, t)}>
                <Icon name="trash" label={t('mobile.tms.media.remove', { name: f.name })} />
              </button>
              <input type="hidden" name={`q.files.${id}`} value={f.url} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t('mobile.tms.media.empty')}</p>
      )}
      <FilePicker label={t('mobile.tms.media.add')} hint={t('mobile.tms.media.hint', { kinds })} kinds={accept} state={state} disabled={disabled} />
    </div>
  )
}

type Transcribing = { page: number; pages: number; progress: number } | null

/**
 * An essay's photographed pages (the model's `essay_transcription`): photos in page order (moved with ↑/↓), and
 * "Transcribe", which reads them — through the realm's vision provider (`mode` vision: the screen's transcription
 * route) or on this device (`device`: tesseract.js, imported only now) — and hands the text to the essay, where the
 * student edits it. No photo: "essay needs an image"; nothing read: "no text detected"; a failure: "transcription error".
 */
export function EssayPhotos({
  id,
  n,
  routes,
  mode,
  language,
  initial,
  disabled,
  onChange,
  onText,
}: Common & { mode: 'vision' | 'device'; language: string; initial: readonly string[]; onText: (text: string) => void }) {
  const { t } = useTranslation()
  const state = useAnswerFiles(id, routes, initial, onChange)
  const [busy, setBusy] = useState<Transcribing>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState('')
  const transcribe = async () => {
    setProblem(null)
    setDone('')
    if (!state.files.length) return setProblem(t('answer.error.essay_image_required'))
    setBusy({ page: 1, pages: state.files.length, progress: 0 })
    try {
      let text: string
      if (mode === 'vision') {
        const res = await fetch(routes.transcribe, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question_id: id, files: state.files.map((f) => f.url) }),
        })
        const body = (await res.json().catch(() => null)) as { text?: string; errors?: ErrorItem[] } | null
        if (!res.ok) {
          const e = body?.errors?.[0]
          return setProblem(e && e.cause !== 'transcription_failed' ? errorText(t, e) : t('answer.error.transcription_failed'))
        }
        text = body?.text ?? ''
      } else {
        const { recognizePages } = await import('~/lib/ocr.client')
        text = await recognizePages(
          state.files.map((f) => f.local ?? f.url),
          language,
          (p) => setBusy(p),
        )
      }
      if (!text.trim()) return setProblem(t('answer.error.no_text_detected'))
      onText(text)
      setDone(t('mobile.tms.essay.transcribed', { count: state.files.length }))
    } catch {
      setProblem(t('answer.error.transcription_failed'))
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="mtms-photos">
      <p className="hint">{t('mobile.tms.essay.photos_hint')}</p>
      {state.files.length ? (
        <ol className="mtms-files" aria-label={t('mobile.tms.essay.pages', { n })}>
          {state.files.map((f, i) => (
            <li key={f.url} className="mtms-file">
              <Preview file={f} alt={t('mobile.tms.essay.page', { n: i + 1 })} />
              <span className="mtms-file-name">{t('mobile.tms.essay.page', { n: i + 1 })}</span>
              <span className="mtms-seq-actions">
                <button type="button" className="btn btn-icon" disabled={disabled || i === 0} onClick={() => state.move(i, i - 1)}>
                  <span aria-hidden="true">↑</span>
                  <span className="visually-hidden">{t('mobile.tms.essay.page_up', { n: i + 1 })}</span>
                </button>
                <button type="button" className="btn btn-icon" disabled={disabled || i === state.files.length - 1} onClick={() => state.move(i, i + 1)}>
                  <span aria-hidden="true">↓</span>
                  <span className="visually-hidden">{t('mobile.tms.essay.page_down', { n: i + 1 })}</span>
                </button>
                <button type="button" className="btn btn-icon" disabled={disabled} onClick={() => void state.remove(i, t)}>
                  <Icon name="trash" label={t('mobile.tms.essay.page_remove', { n: i + 1 })} />
                </button>
              </span>
              <input type="hidden" name={`q.files.${id}`} value={f.url} />
            </li>
          ))}
        </ol>
      ) : null}
      <FilePicker label={t('mobile.tms.essay.add_photo')} hint={t('mobile.tms.essay.photo_hint')} kinds={['image']} state={state} disabled={disabled} />
      <div className="mtms-transcribe">
        <button type="button" className="btn" disabled={disabled || busy !== null || state.progress !== null} onClick={() => void transcribe()}>
          <Icon name="sparkle" /> {t('mobile.tms.essay.transcribe')}
        </button>
        <p className="hint">{t(mode === 'vision' ? 'mobile.tms.essay.by_vision' : 'mobile.tms.essay.by_device')}</p>
        {busy ? (
          <div className="upload-progress">
            <progress max={1} value={busy.progress} aria-label={t('mobile.tms.essay.transcribing_label')} />
            <span role="status">{t('mobile.tms.essay.transcribing', { page: busy.page, pages: busy.pages, value: Math.round(busy.progress * 100) })}</span>
          </div>
        ) : null}
        {problem ? (
          <p className="error" role="alert">
            <Icon name="warning" size={16} /> {problem}
          </p>
        ) : null}
        <p className="hint" role="status">
          {done}
        </p>
      </div>
    </div>
  )
}

/**
 * game: the question's game (its `url`, an external page) opens in a new tab — the console does not frame other sites —
 * and the student writes the result the game shows (its score or code): a written answer the teacher scores.
 */
export function GameAnswer({ id, n, url, initial, disabled, onChange }: Omit<Common, 'routes'> & { url: string; initial: string }) {
  const { t } = useTranslation()
  const hint = useId()
  return (
    <div className="mtms-game">
      {url ? (
        <a className="btn" href={url} target="_blank" rel="noopener noreferrer">
          <Icon name="external" /> {t('mobile.tms.game.open')}
        </a>
      ) : null}
      <label className="field">
        <span>{t('mobile.tms.game.result', { n })}</span>
        <input
          className="input"
          name={`q.text.${id}`}
          defaultValue={initial}
          maxLength={500}
          autoComplete="off"
          disabled={disabled}
          aria-describedby={hint}
          onChange={onChange}
        />
      </label>
      <p className="hint" id={hint}>
        {t('mobile.tms.game.hint')}
      </p>
    </div>
  )
}
