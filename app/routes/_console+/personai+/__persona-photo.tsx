import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'
import { precheck, uploadFile } from '~/lib/upload'
import type { ImageCheck } from '#shared/schemas/ai'
import type { ErrorItem } from '#shared/schemas/error'
import type { ImageCheckAnswer } from '~/routes/personai.image-check'

const ACCEPT = ['png', 'jpg', 'jpeg', 'webp']

/** Loads an image file into an element the detector reads. */
function imageOf(blob: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image()
    const src = URL.createObjectURL(blob)
    img.onload = () => {
      URL.revokeObjectURL(src)
      resolve(img)
    }
    img.onerror = () => {
      URL.revokeObjectURL(src)
      reject(new Error('unreadable image'))
    }
    img.src = src
  })
}

/** Asks the server to check an uploaded image (the realm's vision provider: a face, no celebrity). */
async function serverCheck(fileId: string): Promise<ImageCheckAnswer> {
  const res = await fetch('/personai/image-check', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ image_file_id: fileId }),
  })
  const body = (await res.json().catch(() => null)) as ImageCheckAnswer | null
  if (!body) throw new Error(`image check ${res.status}`)
  return body
}

/** What the screen says of the server's check: done by which provider, or not run and why. */
export function serverCheckText(t: (key: string, o?: Record<string, unknown>) => string, check: ImageCheck): string {
  if (check.status === 'checked') return t('persona.photo.server_checked', { provider: t(`ai.settings.vision.${check.provider}`) })
  return check.reason === 'not_configured' ? t('persona.photo.server_not_run') : t(`persona.photo.server_reason.${check.reason}`)
}

/**
 * The persona's image (seed 002 §4 "photo capture"; issue 16 "a face must be detected"): an upload, or a photo taken
 * with the camera (take, retake, confirm). Either is checked in the browser by a face detector whose weights ship in
 * an npm package, loaded only here, when an image is checked; an image with no face is refused with the seed's
 * message. Once uploaded, the server checks it again with the realm's vision provider (a face, and no recognised
 * celebrity): a refusal shows its cause and the image is not taken; otherwise the screen says whether the server
 * checked it or why the check did not run (no provider configured, a provider failure). The persona's stored
 * check is shown for its saved image.
 */
export function PersonaImage({ url, fileId, check }: { url: string; fileId: string; check?: ImageCheck | { status?: undefined } }) {
  const { t } = useTranslation()
  const stored = check?.status ? check : null
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const video = useRef<HTMLVideoElement>(null)
  const stream = useRef<MediaStream | null>(null)
  const [shown, setShown] = useState(url)
  const [value, setValue] = useState(fileId)
  const [mode, setMode] = useState<'idle' | 'camera' | 'captured'>('idle')
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null)
  const [busy, setBusy] = useState<'checking' | 'uploading' | 'server' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [checked, setChecked] = useState(false)
  const [server, setServer] = useState<ImageCheck | null>(null)

  const stopCamera = () => {
    stream.current?.getTracks().forEach((track) => track.stop())
    stream.current = null
  }
  useEffect(() => stopCamera, [])
  useEffect(() => {
    if (mode === 'camera' && video.current && stream.current) {
      video.current.srcObject = stream.current
      void video.current.play().catch(() => undefined)
    }
  }, [mode])
  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.url) : undefined), [photo])

  /** Checks the image for a face, then uploads it: the field's value becomes the stored file. */
  async function accept(file: File) {
    setError(null)
    setChecked(false)
    setServer(null)
    const early = precheck(file, ACCEPT)
    if (early) return setError(errorText(t, early))
    setBusy('checking')
    try {
      const { countFaces } = await import('~/lib/face-detect.client')
      const faces = await countFaces(await imageOf(file))
      if (faces === 0) return setError(t('persona.photo.no_face'))
      setBusy('uploading')
      const uploaded = await uploadFile(file, { accept: ACCEPT, persist: true })
      setBusy('server')
      const answer = await serverCheck(uploaded.id)
      if (!answer.ok) return setError(answer.errors.map((e) => errorText(t, e)).join(' '))
      setShown(uploaded.cdn_full_url)
      setValue(uploaded.id)
      setServer(answer.check)
      setChecked(true)
      setMode('idle')
      setPhoto(null)
    } catch (err) {
      setError(Array.isArray(err) ? (err as ErrorItem[]).map((e) => errorText(t, e)).join(' ') : t('persona.photo.check_failed'))
    } finally {
      setBusy(null)
      if (input.current) input.current.value = ''
    }
  }

  async function openCamera() {
    setError(null)
    try {
      stopCamera()
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 640 }, height: { ideal: 480 } }, audio: false })
      setPhoto(null)
      setMode('camera')
    } catch {
      setError(t('persona.photo.camera_error'))
      setMode('idle')
    }
  }

  function take() {
    const v = video.current
    if (!v || !v.videoWidth) return
    const canvas = document.createElement('canvas')
    canvas.width = v.videoWidth
    canvas.height = v.videoHeight
    canvas.getContext('2d')?.drawImage(v, 0, 0)
    canvas.toBlob(
      (blob) => {
        if (!blob) return setError(t('persona.photo.camera_error'))
        stopCamera()
        setPhoto({ blob, url: URL.createObjectURL(blob) })
        setMode('captured')
      },
      'image/jpeg',
      0.92,
    )
  }

  const working = busy !== null
  return (
    <div className="field persona-image" aria-busy={working}>
      <span className="label" id={`${id}-label`}>
        {t('resources.persona.fields.image')}
      </span>
      {shown && mode === 'idle' ? <img src={shown} alt={t('persona.editor.image_alt')} className="avatar-large" /> : null}
      {mode === 'camera' ? (
        <div className="persona-camera">
          <video ref={video} muted playsInline aria-label={t('persona.photo.preview')} className="persona-camera-preview" />
          <div className="actions">
            <button type="button" className="btn btn-primary" onClick={take}>
              <Icon name="image" /> {t('persona.photo.take')}
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => {
                stopCamera()
                setMode('idle')
              }}
            >
              {t('persona.photo.cancel')}
            </button>
          </div>
        </div>
      ) : null}
      {mode === 'captured' && photo ? (
        <div className="persona-camera">
          <img src={photo.url} alt={t('persona.photo.captured')} className="persona-camera-preview" />
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={working}
              onClick={() => void accept(new File([photo.blob], 'persona-photo.jpg', { type: 'image/jpeg' }))}
            >
              <Icon name="check" /> {t('persona.photo.confirm')}
            </button>
            <button type="button" className="btn" disabled={working} onClick={() => void openCamera()}>
              <Icon name="refresh" /> {t('persona.photo.retake')}
            </button>
          </div>
        </div>
      ) : null}
      {mode === 'idle' ? (
        <div className="actions">
          <label className="btn" htmlFor={`${id}-file`}>
            <Icon name="upload" /> {t('persona.photo.upload')}
          </label>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            className="visually-hidden"
            accept={ACCEPT.map((e) => `.${e}`).join(',')}
            disabled={working}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) void accept(file)
            }}
          />
          <button type="button" className="btn" disabled={working} onClick={() => void openCamera()}>
            <Icon name="image" /> {t('persona.photo.camera')}
          </button>
          {shown ? (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setShown('')
                setValue('')
                setChecked(false)
                setServer(null)
              }}
            >
              {t('persona.editor.remove_image')}
            </button>
          ) : null}
        </div>
      ) : null}
      <input type="hidden" name="image_file_id" value={value} />
      <div aria-live="polite">
        {busy ? <p className="hint">{t(`persona.photo.${busy === 'server' ? 'server_checking' : busy}`)}</p> : null}
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        {checked && server ? (
          <p className="hint" data-testid="face-checked">
            {t('persona.photo.face_found')} {serverCheckText(t, server)}
          </p>
        ) : null}
        {!checked && stored && value === fileId && value ? (
          <p className="hint" data-testid="server-check">
            {serverCheckText(t, stored)}
          </p>
        ) : null}
      </div>
    </div>
  )
}
