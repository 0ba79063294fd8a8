import { useField } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { KitField, KitForm, SpecField } from '~/components/form/kit'
import { indexedDbJournal, type Journal, type Pending } from '~/components/live/recorder-journal'
import { RecordingUpload, UploadError, resumeUpload, type CompleteAnswer, type UploadProgress } from '~/components/live/recorder-upload'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'
import { extraFieldSpecs } from '~/lib/form-fields'
import { decodeError } from '~/lib/form-kit'
import { SessionUpload } from '#shared/schemas/session'
import { UPLOAD_EXTENSIONS } from '#shared/schemas/csm-recording'
import { apiData, type RealmApi } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute, type SessionUser } from '~/server/auth.server'
import { getT } from '~/server/i18n.server'
import { sessionFilterOptions } from './__session.server'
import { JOURNAL_TARGET, fileMime, prepareUpload, uploadFields } from './__session-upload'

/**
 * session/create (issue 15, seed 002 §2): a session made by hand around an uploaded recording. The form creates the
 * session (status created) and its upload (`POST /api/csm/recording/upload`); the browser then sends the file in
 * parts through `/recording` (the live recorder's queue, recorder-upload.ts) with a progress bar, pause and resume,
 * keeping the file in its IndexedDB journal until the server holds it, so an upload cut by a reload is resumed here;
 * the server validates the file on its own container and answers the result (or the reason it was refused).
 */

export const handle = { title: 'pages.session.create' }

async function formFields(api: RealmApi, user: SessionUser, t: (key: string, o?: Record<string, string>) => string) {
  const [options, extra] = await Promise.all([
    sessionFilterOptions(api, user, t),
    apiData(api.mas.extra_field.form[':entity'].$get({ param: { entity: 'session' } })),
  ])
  const places = [
    ...options.channel_id.map((o) => ({ value: `channel:${o.value}`, label: t('session.create.place_channel', { name: o.label }) })),
    ...options.room_id.map((o) => ({ value: `room:${o.value}`, label: t('session.create.place_room', { name: o.label }) })),
  ]
  return uploadFields(places, options.category_id, extraFieldSpecs(extra.items))
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'session.create')
  const timeZone = realm.config?.time_zone ?? DEFAULT_TIME_ZONE
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
  return { fields: await formFields(api, user, await getT(request)), timeZone, today, me: user.nick }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'session.create')
  return apiAction(request, context, {
    route: 'session.create',
    schema: SessionUpload,
    fields: await formFields(api, user, await getT(request)),
    prepare: prepareUpload,
    call: (api, json) => apiData(api.csm.recording.upload.$post({ json })),
    onSuccess: (answer, submission) => ({ upload: answer, title: submission.payload.title }),
  })
}

/** The action's answer once the session and its upload exist (else it answers the form's submission). */
const UploadAnswer = v.object({
  upload: v.object({ id: v.string(), session_id: v.string(), part_size: v.number() }),
  title: v.optional(v.string(), ''),
})

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading' }
  | { kind: 'done'; answer: CompleteAnswer & { video_codec?: string; audio_codec?: string } }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string }

const ACCEPT = [...Object.keys(UPLOAD_EXTENSIONS).map((e) => `.${e}`), 'video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'].join(',')

export default function SessionCreateRoute() {
  const { fields, timeZone, today, me } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t, i18n } = useTranslation()
  const journalId = `session-create:${me}`
  const MB = (bytes: number) => (bytes / (1024 * 1024)).toLocaleString(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
  const file = useRef<File | null>(null)
  const [chosen, setChosen] = useState<{ mime: string; size: number } | null>(null)
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [progress, setProgress] = useState<UploadProgress>({ recorded: 0, sent: 0, retrying: false, paused: false })
  const [pending, setPending] = useState<Pending | null>(null)
  const upload = useRef<RecordingUpload | null>(null)
  const journal = useRef<Journal | null>(null)
  const started = useRef<string | null>(null)

  const reason = useCallback(
    (err: unknown) => (err instanceof UploadError ? errorText(t, { cause: err.cause_, message: err.message, value: err.value }) : t('error.http.network')),
    [t],
  )
  /** Runs an upload to its end: the answer, a refusal (final: the server removed the file and the session), or a failure kept for later. */
  const run = useCallback(
    async (work: () => Promise<CompleteAnswer | null>) => {
      setPhase({ kind: 'uploading' })
      try {
        const answer = await work()
        setPending(null)
        setPhase(answer ? { kind: 'done', answer } : { kind: 'idle' })
      } catch (err) {
        const final = err instanceof UploadError && err.status >= 400 && err.status < 500
        if (final) setPending(null)
        setPhase(final ? { kind: 'refused', reason: reason(err) } : { kind: 'failed', reason: reason(err) })
      }
    },
    [reason],
  )

  // An upload interrupted on this device (a reload, a closed tab) is offered again.
  useEffect(() => {
    journal.current = indexedDbJournal()
    journal.current
      ?.pending(JOURNAL_TARGET, journalId)
      .then(setPending)
      .catch(() => undefined)
  }, [journalId])

  // The session and its upload exist (the action's answer): send the chosen file.
  const answer = useMemo(() => {
    const parsed = v.safeParse(UploadAnswer, actionData)
    return parsed.success ? parsed.output : null
  }, [actionData])
  useEffect(() => {
    const f = file.current
    if (!answer || !f || started.current === answer.upload.id) return
    started.current = answer.upload.id
    const { id, part_size, session_id } = answer.upload
    const up = new RecordingUpload(id, part_size, setProgress)
    upload.current = up
    void run(async () => {
      const j = journal.current
      if (j) {
        await j
          .begin({
            rec: id,
            target: JOURNAL_TARGET,
            id: journalId,
            part_size,
            started_at: Date.now(),
            label: answer.title,
            name: f.name,
            size: f.size,
            session_id,
          })
          .catch(() => undefined)
        up.journal = j
      }
      up.append(f)
      return up.finish()
    })
  }, [answer, journalId, run])

  const resumePending = (p: Pending) => {
    const j = journal.current
    if (!j) return
    setProgress({ recorded: p.meta.size ?? 0, sent: p.acked, retrying: false, paused: false })
    void run(() => resumeUpload(p, j, setProgress, undefined, undefined, (up) => (upload.current = up)))
  }
  const discard = async (p: Pending) => {
    const up = new RecordingUpload(p.meta.rec, p.meta.part_size, () => undefined)
    up.journal = journal.current
    await up.abort()
    await journal.current?.end(p.meta.rec).catch(() => undefined)
    setPending(null)
    setPhase({ kind: 'idle' })
  }

  const busy = phase.kind === 'uploading' || phase.kind === 'done' || phase.kind === 'failed'
  const hasPlaces = fields.some((f) => f.name === 'target_id' && (f.options?.length ?? 0) > 0)
  const total = progress.recorded || chosen?.size || 0
  const validating = phase.kind === 'uploading' && total > 0 && progress.sent >= total && !progress.paused

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.session.create')}</h1>
        <Link to="/session" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <p className="hint">{t('session.create.intro')}</p>

      {pending && phase.kind === 'idle' ? (
        <section className="card" role="status" aria-labelledby="pending-upload">
          <p id="pending-upload">
            {t('session.create.pending', {
              title: pending.meta.label ?? '',
              name: pending.meta.name ?? '',
              sent: MB(pending.acked),
              total: MB(pending.meta.size ?? 0),
            })}
          </p>
          <div className="form-actions">
            <button type="button" className="btn btn-primary" onClick={() => resumePending(pending)}>
              <Icon name="play" /> {t('session.create.resume')}
            </button>
            <button type="button" className="btn" onClick={() => void discard(pending)}>
              <Icon name="trash" /> {t('session.create.discard')}
            </button>
          </div>
        </section>
      ) : null}

      {busy || phase.kind === 'refused' ? (
        <section className="card" aria-labelledby="upload-title">
          <h2 id="upload-title">{t('session.create.upload_title')}</h2>
          {phase.kind === 'uploading' || phase.kind === 'failed' ? (
            <>
              <div className="upload-progress">
                <progress id="upload-progress" max={Math.max(total, 1)} value={progress.sent} aria-label={t('session.create.progress_label')} />
                <span aria-live="polite">
                  {t('session.create.progress', { sent: MB(progress.sent), total: MB(total) })}
                  {progress.retrying ? <> {t('session.create.retrying')}</> : null}
                </span>
              </div>
              <p role="status">
                {phase.kind === 'failed'
                  ? t('session.create.failed', { reason: phase.reason })
                  : progress.paused
                    ? t('session.create.paused')
                    : validating
                      ? t('session.create.validating')
                      : t('session.create.uploading')}
              </p>
              <div className="form-actions">
                {phase.kind === 'uploading' ? (
                  progress.paused ? (
                    <button type="button" className="btn btn-primary" onClick={() => upload.current?.resume()}>
                      <Icon name="play" /> {t('session.create.resume')}
                    </button>
                  ) : (
                    <button type="button" className="btn" disabled={validating} onClick={() => upload.current?.pause()}>
                      <Icon name="pause" /> {t('session.create.pause')}
                    </button>
                  )
                ) : (
                  <button
                    type="button"
                    className="btn btn-primary"
                    onClick={() => {
                      void journal.current?.pending(JOURNAL_TARGET, journalId).then((p) => (p ? resumePending(p) : setPhase({ kind: 'idle' })))
                    }}
                  >
                    <Icon name="play" /> {t('session.create.resume')}
                  </button>
                )}
              </div>
            </>
          ) : null}
          {phase.kind === 'done' ? (
            <>
              <p role="status">
                {t('session.create.done', {
                  duration: phase.answer.duration_seconds.toLocaleString(i18n.language),
                  size: MB(phase.answer.size),
                  codecs: [phase.answer.video_codec, phase.answer.audio_codec].filter(Boolean).join(' + '),
                })}
              </p>
              <div className="form-actions">
                <Link className="btn btn-primary" to={`/session/detail/${phase.answer.session_id}`}>
                  <Icon name="eye" /> {t('session.create.open')}
                </Link>
                <a className="btn" href="/session/create">
                  {t('session.create.another')}
                </a>
              </div>
            </>
          ) : null}
          {phase.kind === 'refused' ? (
            <p role="alert" className="error">
              {t('session.create.refused', { reason: phase.reason })}
            </p>
          ) : null}
        </section>
      ) : null}

      {!hasPlaces ? (
        <p className="empty-state">{t('session.create.no_places')}</p>
      ) : (
        <div hidden={busy}>
          <KitForm
            schema={SessionUpload}
            fields={fields}
            prepare={prepareUpload}
            lastResult={answer ? null : actionData}
            defaultValue={{ reference_date: today }}
            timeZone={timeZone}
            submitLabel={t('session.create.submit')}
            submitIcon="upload"
          >
            {fields
              .filter((f) => f.name !== 'mime' && f.name !== 'size')
              .map((f) => (
                <SpecField key={f.name} spec={f} timeZone={timeZone} />
              ))}
            <FileField
              chosen={chosen}
              onChoose={(f) => {
                file.current = f
                setChosen(f ? { mime: fileMime(f), size: f.size } : null)
                if (phase.kind === 'refused') setPhase({ kind: 'idle' })
              }}
            />
          </KitForm>
        </div>
      )}
    </>
  )
}

/** The recording file: its type and size go with the form (hidden), the file itself only in parts afterwards. */
function FileField({ chosen, onChoose }: { chosen: { mime: string; size: number } | null; onChoose: (f: File | null) => void }) {
  const { t } = useTranslation()
  const [size] = useField<unknown>('size')
  const sizeError = size.errors?.[0]
  return (
    <KitField name="mime" label={t('session.create.file')} hint={t('session.create.file_hint')} required>
      {(control) => (
        <>
          <input
            type="file"
            id={control.id}
            accept={ACCEPT}
            aria-invalid={control['aria-invalid'] ?? (sizeError ? true : undefined)}
            aria-describedby={[control['aria-describedby'], sizeError ? size.errorId : ''].filter(Boolean).join(' ') || undefined}
            aria-required
            onChange={(e) => onChoose(e.currentTarget.files?.[0] ?? null)}
          />
          <input type="hidden" name="mime" value={chosen?.mime ?? ''} />
          <input type="hidden" name="size" value={chosen ? String(chosen.size) : ''} />
          {sizeError ? (
            <p className="error" id={size.errorId}>
              {errorText(t, decodeError(sizeError))}
            </p>
          ) : null}
        </>
      )}
    </KitField>
  )
}

export const ErrorBoundary = RouteError
