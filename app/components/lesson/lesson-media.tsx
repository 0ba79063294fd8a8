import { useTranslation } from 'react-i18next'
import type { SlideMediaItem } from '#shared/schemas/lesson/media'
import { PaidButton, errorText } from '~/components/persona-media/paid-button'
import { usePaidMedia, type PaidMediaAnswer } from '~/components/persona-media/use-paid-media'
import type { LessonMediaData } from '~/routes/lesson.media.$lessonId'

/** How often the editor reads pending persona videos again (each read asks the provider about them). */
export const VIDEO_POLL_MS = 5000

type Answer = PaidMediaAnswer & { results?: { outcome: string }[] }

function stateText(t: (k: string) => string, item: SlideMediaItem | null) {
  if (!item) return t('lesson.media.state.none')
  if (item.stale) return t('lesson.media.state.stale')
  return t(`lesson.media.state.${item.status}`)
}

/**
 * The lesson editor's narration audio and persona videos (issue 18): the voice and animation providers (or why the
 * browser speaks, or that no animation provider is configured), per slide the audio's and the video's state (stale
 * when the text, voice or image changed), and "Generate narration" / "Generate persona videos", each confirmed with
 * its credit price before the paid call. Data and calls go through `/lesson/media/{lessonId}`; media are generated
 * from the saved lesson, so unsaved changes disable the buttons.
 */
export function LessonMedia({ lessonId, dirty }: { lessonId: string; dirty: boolean }) {
  const { t } = useTranslation()
  const base = `/lesson/media/${encodeURIComponent(lessonId)}`
  const { list, run } = usePaidMedia<LessonMediaData, Answer>(
    `lesson-media-${lessonId}`,
    base,
    (d) => d.state === 'ok' && d.slides.some((s) => s.video?.status === 'pending'),
    VIDEO_POLL_MS,
  )
  const data = list.data

  if (!data)
    return list.state === 'idle' ? (
      <div className="error" role="alert">
        {t('lesson.media.load_failed')}{' '}
        <button type="button" className="btn" onClick={() => list.load(base)}>
          {t('lesson.media.retry')}
        </button>
      </div>
    ) : (
      <p className="hint" role="status">
        {t('lesson.media.loading')}
      </p>
    )
  if (data.state !== 'ok') return null
  const busy = run.state !== 'idle'
  const submit = (intent: 'narration' | 'video', body: { confirm_points: number; idempotency_key: string }) =>
    run.submit(body, { method: 'post', action: `${base}?intent=${intent}`, encType: 'application/json' })
  const counts = (run.data?.results ?? []).reduce<Record<string, number>>((n, r) => ({ ...n, [r.outcome]: (n[r.outcome] ?? 0) + 1 }), {})
  return (
    <section className="lesson-media" aria-labelledby={`lesson-media-${lessonId}`} data-testid="lesson-media">
      <h3 id={`lesson-media-${lessonId}`}>{t('lesson.media.title')}</h3>
      <p className="hint">{t('lesson.media.intro')}</p>
      <p role="note">{data.voice_provider ? t('lesson.media.voice', { provider: data.voice_provider }) : t(`lesson.media.reason.${data.voice_reason}`)}</p>
      <p role="note">{data.animation_provider ? t('lesson.media.animation', { provider: data.animation_provider }) : t('lesson.media.animation_none')}</p>
      {dirty ? <p className="hint">{t('lesson.media.unsaved')}</p> : null}
      {data.canEdit ? (
        <div className="toolbar-actions">
          {data.voice_provider ? (
            <PaidButton
              label={t('lesson.media.generate_narration', { points: data.narration_points })}
              message={t('lesson.media.confirm_message', { points: data.narration_points })}
              price={data.narration_points}
              disabled={busy || dirty || data.narration_slides === 0}
              onConfirm={(body) => submit('narration', body)}
            />
          ) : null}
          {data.animation_provider && data.voice_provider ? (
            <PaidButton
              label={t('lesson.media.generate_video', { points: data.video_points })}
              message={t('lesson.media.confirm_message', { points: data.video_points })}
              price={data.video_points}
              disabled={busy || dirty || data.video_slides === 0}
              onConfirm={(body) => submit('video', body)}
            />
          ) : null}
          {busy ? <span className="spinner" role="status" aria-label={t('lesson.media.loading')} /> : null}
        </div>
      ) : null}
      {run.state === 'idle' && run.data ? (
        run.data.ok ? (
          <p role="status">{t('lesson.media.done', { generated: counts.generated ?? 0, reused: counts.reused ?? 0, failed: counts.failed ?? 0 })}</p>
        ) : (
          <p className="error" role="alert">
            {errorText(t, run.data.errors)}
          </p>
        )
      ) : null}
      <ol className="lesson-media-list">
        {data.slides.map((s, i) => (
          <li key={s.slide_id} className="card" data-slide={s.slide_id}>
            <strong>{t('lesson.media.slide', { n: String(i + 1) })}</strong>
            <span className={s.audio?.stale ? 'media-stale' : undefined}>
              {t('lesson.media.audio')}: {s.chars === 0 ? t('lesson.media.state.no_narration') : stateText(t, s.audio)}
            </span>
            {s.audio?.url && s.audio.status === 'done' && !s.audio.stale ? (
              // eslint-disable-next-line jsx-a11y/media-has-caption -- the narration is spoken from the slide's text, shown in full beside the player (its transcript)
              <audio src={s.audio.url} controls preload="none" aria-label={t('lesson.player.audio')} />
            ) : null}
            <span className={s.video?.stale ? 'media-stale' : undefined}>
              {t('lesson.media.video')}:{' '}
              {!s.wants_video
                ? t('lesson.media.state.not_needed')
                : s.video
                  ? stateText(t, s.video)
                  : s.audio?.status === 'done' && !s.audio.stale
                    ? t('lesson.media.state.none')
                    : t('lesson.media.state.needs_audio')}
            </span>
            {s.video?.url && s.video.status === 'done' && !s.video.stale ? (
              <a href={s.video.url} target="_blank" rel="noreferrer">
                {t('lesson.player.video')}
              </a>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  )
}
