import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RecordingPolicy } from '#shared/schemas/csm-recording'
import { OPERATOR_ROLES } from '../../../party/channel-protocol'
import { indexedDbJournal, type Journal } from './recorder-journal'
import { RecordingUpload, UploadError, resumeUpload, type UploadProgress } from './recorder-upload'
import type { LiveState } from './use-channel-live'

/**
 * The recorder of a live view (issue 20 "Recording"): for a channel's recorder or moderator, or a room's moderator,
 * when the channel or room records (the realm API's policy says so), it records the mixed call in the browser — a
 * canvas showing the active speaker's video (the loudest voice for at least 1.5 s; else someone's video, else the
 * local preview, else the session's name) and a Web Audio mix of every voice in the call — with `MediaRecorder`
 * (H.264 in WebM, the seed's codec), and uploads it while recording (./recorder-upload.ts). It stops by hand, or on its
 * own at the realm's `csm_max_duration` or after `csm_max_idle_time` seconds without sound; the realm's
 * `csm_must_record` starts it on its own. The media are read from the live view's `<video>` elements (the conference
 * panel's tiles and preview), so the recorder needs nothing from the conference's code.
 */

type Phase = 'idle' | 'starting' | 'recording' | 'uploading' | 'done' | 'error'
type Stopped = 'hand' | 'duration' | 'idle' | 'leave'

const WIDTH = 640
const HEIGHT = 360
const FPS = 15
/** Speech louder than this (RMS of the 8-bit time-domain samples around 128) counts as sound. */
const SOUND_LEVEL = 4
const SPEAKER_HOLD_MS = 1_500

type Composite = { stream: MediaStream; quietMs: () => number; stop: () => void }

/** The call's composite: the active speaker's video on a canvas and every voice mixed, as one stream to record. */
function composite(root: Element | null, title: string): Composite {
  const canvas = document.createElement('canvas')
  canvas.width = WIDTH
  canvas.height = HEIGHT
  const g = canvas.getContext('2d')
  const audio = new AudioContext()
  void audio.resume().catch(() => undefined)
  const mix = audio.createMediaStreamDestination()
  // A silent source keeps the mixed track flowing when nobody in the call has audio: a destination with no input
  // gives an audio track without samples, and Chromium's MediaRecorder then writes nothing at all.
  const silence = audio.createGain()
  silence.gain.value = 0
  silence.connect(mix)
  const hum = audio.createOscillator()
  hum.connect(silence)
  hum.start()
  const sources = new Map<MediaStream, { node: MediaStreamAudioSourceNode; analyser: AnalyserNode }>()
  const samples = new Uint8Array(512)
  let active: HTMLVideoElement | null = null
  let activeSince = 0
  let lastSound = Date.now()

  const drawable = (v: HTMLVideoElement) =>
    v.isConnected && v.videoWidth > 0 && v.srcObject instanceof MediaStream && v.srcObject.getVideoTracks().some((t) => t.readyState === 'live' && t.enabled)
  const label = (v: HTMLVideoElement) => v.getAttribute('aria-label') ?? ''

  const tick = () => {
    const now = Date.now()
    const videos = root ? [...root.querySelectorAll('video')] : []
    let loudest: HTMLVideoElement | null = null
    let level = 0
    for (const v of videos) {
      const s = v.srcObject
      if (!(s instanceof MediaStream) || !s.getAudioTracks().length) continue
      let entry = sources.get(s)
      if (!entry) {
        const node = audio.createMediaStreamSource(s)
        const analyser = audio.createAnalyser()
        analyser.fftSize = samples.length
        node.connect(analyser)
        node.connect(mix)
        entry = { node, analyser }
        sources.set(s, entry)
      }
      entry.analyser.getByteTimeDomainData(samples)
      let sum = 0
      for (const x of samples) sum += (x - 128) ** 2
      const rms = Math.sqrt(sum / samples.length)
      if (rms > level) {
        level = rms
        loudest = v
      }
    }
    if (level > SOUND_LEVEL) {
      lastSound = now
      if (loudest !== active && now - activeSince > SPEAKER_HOLD_MS) {
        active = loudest
        activeSince = now
      }
    }
    if (!g) return
    g.fillStyle = '#111'
    g.fillRect(0, 0, WIDTH, HEIGHT)
    const shown = active && drawable(active) ? active : (videos.find((v) => drawable(v) && !v.muted) ?? videos.find(drawable))
    g.fillStyle = '#fff'
    g.font = '20px sans-serif'
    if (shown) {
      const scale = Math.min(WIDTH / shown.videoWidth, HEIGHT / shown.videoHeight)
      const w = shown.videoWidth * scale
      const h = shown.videoHeight * scale
      g.drawImage(shown, (WIDTH - w) / 2, (HEIGHT - h) / 2, w, h)
      g.fillText(label(shown), 16, HEIGHT - 16)
    } else {
      g.fillText(title, 16, HEIGHT / 2)
    }
  }
  tick()
  const timer = setInterval(tick, 1000 / FPS)
  const stream = new MediaStream([...canvas.captureStream(FPS).getVideoTracks(), ...mix.stream.getAudioTracks()])
  return {
    stream,
    quietMs: () => Date.now() - lastSound,
    stop: () => {
      clearInterval(timer)
      for (const t of stream.getTracks()) t.stop()
      for (const { node } of sources.values()) node.disconnect()
      hum.stop()
      void audio.close().catch(() => undefined)
    },
  }
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1)
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`

export function Recorder({ party, id, state }: { party: 'channel' | 'room'; id: string; state: LiveState }) {
  const { t } = useTranslation()
  const role = state.you?.role ?? ''
  const live = state.status === 'open' || state.status === 'reconnecting'
  const [policy, setPolicy] = useState<RecordingPolicy | null>(null)
  const [phase, setPhase] = useState<Phase>('idle')
  const [elapsed, setElapsed] = useState(0)
  const [progress, setProgress] = useState<UploadProgress>({ recorded: 0, sent: 0, retrying: false, paused: false })
  const [message, setMessage] = useState<string | null>(null)
  /** Why the last recording stopped on its own (the realm's limits), kept beside the upload's outcome. */
  const [limit, setLimit] = useState<string | null>(null)
  const session = useRef<{ recorder: MediaRecorder; upload: RecordingUpload; composite: Composite; timer: ReturnType<typeof setInterval> } | null>(null)
  const section = useRef<HTMLElement>(null)
  const autoStarted = useRef(false)
  const journal = useRef<Journal | null | undefined>(undefined)
  /** Whether a recording interrupted here before (journal) was looked for, and sent if there was one. */
  const [resumed, setResumed] = useState(false)
  const title = state.channel?.name ?? ''

  useEffect(() => {
    if (!OPERATOR_ROLES.has(role)) return
    let gone = false
    void fetch(`/recording?op=policy&target=${party}&id=${encodeURIComponent(id)}`, { headers: { accept: 'application/json' } })
      .then(async (res) => (res.ok ? ((await res.json()) as RecordingPolicy) : null))
      .then((p) => {
        if (!gone) setPolicy(p)
      })
      .catch(() => undefined)
    return () => {
      gone = true
    }
  }, [party, id, role])

  const stop = useCallback(
    (why: Stopped) => {
      const s = session.current
      if (!s) return
      session.current = null
      clearInterval(s.timer)
      setLimit(why === 'duration' ? t('recording.stopped.duration') : why === 'idle' ? t('recording.stopped.idle') : null)
      setPhase('uploading')
      s.recorder.addEventListener(
        'stop',
        () => {
          s.composite.stop()
          s.upload
            .finish()
            .then((done) => {
              setPhase('done')
              setMessage(t('recording.done', { duration: Math.round(done.duration_seconds) }))
            })
            .catch((err: unknown) => {
              setPhase('error')
              const cause = err instanceof UploadError ? err.cause_ : 'unavailable'
              setMessage(t('recording.failed', { reason: t(`errors.${cause}`, { defaultValue: err instanceof Error ? err.message : cause }) }))
            })
        },
        { once: true },
      )
      if (s.recorder.state !== 'inactive') s.recorder.stop()
      else s.recorder.dispatchEvent(new Event('stop'))
    },
    [t],
  )

  const start = useCallback(async () => {
    if (!policy?.allowed || session.current) return
    const mimeType = policy.mime_types.find((m) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(m))
    if (!mimeType) {
      setPhase('error')
      setMessage(t('recording.unsupported'))
      return
    }
    setPhase('starting')
    setMessage(null)
    setLimit(null)
    try {
      const res = await fetch('/recording?op=start', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ target: party, id, mime: mimeType }),
      })
      const body = (await res.json()) as { id: string; part_size: number; errors?: { cause: string }[] }
      if (!res.ok) throw new UploadError(res.status, body.errors?.[0]?.cause ?? 'unavailable', 'start')
      const upload = new RecordingUpload(body.id, body.part_size, setProgress)
      upload.journal = journal.current ?? null
      await upload.journal?.begin({ rec: body.id, target: party, id, part_size: body.part_size, started_at: Date.now() }).catch(() => undefined)
      const mixed = composite(section.current?.closest('.live-room') ?? null, title)
      const recorder = new MediaRecorder(mixed.stream, { mimeType, videoBitsPerSecond: 1_000_000, audioBitsPerSecond: 64_000 })
      recorder.addEventListener('dataavailable', (e) => upload.append(e.data))
      const began = Date.now()
      const timer = setInterval(() => {
        const seconds = Math.floor((Date.now() - began) / 1000)
        setElapsed(seconds)
        if (policy.max_duration > 0 && seconds >= policy.max_duration) stop('duration')
        else if (policy.max_idle_time > 0 && mixed.quietMs() >= policy.max_idle_time * 1000) stop('idle')
      }, 250)
      session.current = { recorder, upload, composite: mixed, timer }
      setProgress({ recorded: 0, sent: 0, retrying: false, paused: false })
      setElapsed(0)
      recorder.start(1000)
      setPhase('recording')
    } catch (err) {
      setPhase('error')
      const cause = err instanceof UploadError ? err.cause_ : 'unavailable'
      setMessage(t('recording.failed', { reason: t(`errors.${cause}`, { defaultValue: cause }) }))
    }
  }, [policy, party, id, title, stop, t])

  // A recording interrupted on this device (reload, closed tab) is sent and completed first, from its journal.
  useEffect(() => {
    if (!policy?.allowed || resumed) return
    journal.current ??= indexedDbJournal()
    const j = journal.current
    if (!j) return setResumed(true)
    let gone = false
    void (async () => {
      const pending = await j.pending(party, id).catch(() => null)
      if (!pending || gone) return
      setPhase('uploading')
      setMessage(t('recording.resuming'))
      try {
        const done = await resumeUpload(pending, j, setProgress)
        if (gone) return
        setPhase(done ? 'done' : 'idle')
        setMessage(done ? t('recording.resumed', { duration: Math.round(done.duration_seconds) }) : null)
      } catch (err) {
        if (gone) return
        setPhase('error')
        const cause = err instanceof UploadError ? err.cause_ : 'unavailable'
        setMessage(t('recording.failed', { reason: t(`errors.${cause}`, { defaultValue: cause }) }))
      }
    })().finally(() => {
      if (!gone) setResumed(true)
    })
    return () => {
      gone = true
    }
  }, [policy, resumed, party, id, t])

  // The realm's must_record: recording starts on its own once the recorder is in the call.
  useEffect(() => {
    if (policy?.allowed && policy.must_record && live && resumed && !autoStarted.current) {
      autoStarted.current = true
      void start()
    }
  }, [policy, live, resumed, start])

  // Leaving the call (removed, ended) or the view stops the recording and still sends what was recorded.
  const stopRef = useRef(stop)
  stopRef.current = stop
  const gone = state.status === 'ended' || state.status === 'removed' || state.status === 'refused'
  useEffect(() => {
    if (gone) stopRef.current('leave')
  }, [gone])
  useEffect(() => () => stopRef.current('leave'), [])

  if (!policy?.allowed) return null
  const recording = phase === 'recording'
  const total = Math.max(progress.recorded, 1)
  return (
    <section ref={section} className="card live-recorder" aria-labelledby="live-recorder-title" data-recording={phase}>
      <h2 id="live-recorder-title">{t('recording.title')}</h2>
      {policy.must_record ? <p className="hint">{t('recording.must_record')}</p> : null}
      {policy.max_duration > 0 || policy.max_idle_time > 0 ? (
        <p className="hint">{t('recording.limits', { duration: policy.max_duration || '∞', idle: policy.max_idle_time || '∞' })}</p>
      ) : null}
      <p role="status">
        {recording ? (
          <>
            <span className="badge badge-error" aria-hidden="true">
              ●
            </span>{' '}
            {t('recording.recording', { elapsed: clock(elapsed) })}
          </>
        ) : phase === 'uploading' || phase === 'starting' ? (
          <>
            <span className="spinner" aria-hidden="true" /> {t('recording.uploading')}
          </>
        ) : phase === 'idle' ? (
          t('recording.idle')
        ) : null}
        {progress.retrying ? <> {t('recording.retrying')}</> : null}
      </p>
      {recording || phase === 'uploading' ? (
        <div className="upload-progress">
          <progress aria-label={t('recording.progress')} max={total} value={progress.sent} />
          <span>{t('recording.progress_value', { sent: mb(progress.sent), total: mb(progress.recorded) })}</span>
        </div>
      ) : null}
      {limit ? <p className="hint">{limit}</p> : null}
      {message ? (
        <div className={`alert ${phase === 'error' ? 'alert-error' : 'alert-info'}`} role={phase === 'error' ? 'alert' : 'status'}>
          <p>{message}</p>
        </div>
      ) : null}
      {recording ? (
        <button type="button" className="btn btn-danger" onClick={() => stop('hand')}>
          {t('recording.stop')}
        </button>
      ) : (
        <button type="button" className="btn btn-primary" disabled={!live || phase === 'starting' || phase === 'uploading'} onClick={() => void start()}>
          {t('recording.start')}
        </button>
      )}
    </section>
  )
}
