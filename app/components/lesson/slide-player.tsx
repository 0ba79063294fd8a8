import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import type { StudentSlideMedia } from '#shared/schemas/lesson/media'
import type { Slide } from '#shared/schemas/lesson/slide'
import { SlideView } from './slide-view'

const PAGE = { width: 3508, height: 2480 }

/** Where the persona's video goes: the slide's persona object (its box on the page), else the bottom-right corner. */
function overlayBox(slide: Slide): React.CSSProperties {
  const box = slide.objects.find((o) => o.kind === 'persona')
  if (!box) return { right: '2%', bottom: '2%', width: '28%' }
  const pct = (n: number, of: number) => `${(n / of) * 100}%`
  return { left: pct(box.x, PAGE.width), top: pct(box.y, PAGE.height), width: pct(box.width, PAGE.width), height: pct(box.height, PAGE.height) }
}

/**
 * The student's slides (issue 18): one slide at a time, scaled to the screen, stepped with its buttons, its narration
 * shown and heard: the stored narration audio of the persona's voice when the lesson has it for the slide (`media`),
 * the persona's talking video in the overlay box for a "voice and image" slide that has one, else spoken by the
 * browser (`speechSynthesis`, in the lesson's language) with play and pause. Without either the narration is read.
 */
export function SlidePlayer({ slides, language, media = {} }: { slides: Slide[]; language: string; media?: StudentSlideMedia }) {
  const { t } = useTranslation()
  const [index, setIndex] = useState(0)
  const [speaking, setSpeaking] = useState<'idle' | 'playing' | 'paused'>('idle')
  const [canSpeak, setCanSpeak] = useState(false)
  const slide = slides[index]
  useEffect(() => setCanSpeak(typeof window !== 'undefined' && 'speechSynthesis' in window), [])
  // A new slide stops the previous narration.
  useEffect(() => {
    if (canSpeak) window.speechSynthesis.cancel()
    setSpeaking('idle')
  }, [index, canSpeak])
  useEffect(() => () => (typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis.cancel() : undefined), [])

  const go = (to: number) => setIndex(Math.max(0, Math.min(slides.length - 1, to)))
  const speak = () => {
    const synth = window.speechSynthesis
    if (speaking === 'playing') {
      synth.pause()
      setSpeaking('paused')
      return
    }
    if (speaking === 'paused') {
      synth.resume()
      setSpeaking('playing')
      return
    }
    const u = new SpeechSynthesisUtterance(slide.narration)
    u.lang = language
    u.onend = () => setSpeaking('idle')
    u.onerror = () => setSpeaking('idle')
    synth.cancel()
    synth.speak(u)
    setSpeaking('playing')
  }
  if (!slide) return <p className="card hint">{t('mobile.lesson.no_slides')}</p>
  const stored = media[slide.id] ?? {}
  const video = slide.overlay === 'voice_image' ? stored.video : undefined
  return (
    <section className="lesson-player" aria-roledescription={t('mobile.lesson.carousel')} aria-label={t('lesson.kind.slide')}>
      <div className="lesson-player-stage">
        <SlideView slide={slide} label={t('lesson.slides.slide_n', { n: String(index + 1) })} />
        {video ? (
          // eslint-disable-next-line jsx-a11y/media-has-caption -- the narration is spoken from the slide's text, shown in full beside the player (its transcript)
          <video
            key={video}
            className="lesson-persona-video"
            src={video}
            controls
            playsInline
            preload="metadata"
            aria-label={t('lesson.player.video')}
            style={overlayBox(slide)}
          />
        ) : null}
      </div>
      <div className="lesson-player-controls">
        <button type="button" className="btn" onClick={() => go(index - 1)} disabled={index === 0}>
          <Icon name="chevronLeft" /> {t('mobile.lesson.previous')}
        </button>
        <span aria-live="polite" className="lesson-player-count">
          {t('mobile.lesson.slide_of', { n: String(index + 1), total: String(slides.length) })}
        </span>
        <button type="button" className="btn btn-primary" onClick={() => go(index + 1)} disabled={index === slides.length - 1}>
          {t('mobile.lesson.next')} <Icon name="chevronRight" />
        </button>
      </div>
      {slide.narration ? (
        <div className="card">
          {video ? null : stored.audio ? (
            // eslint-disable-next-line jsx-a11y/media-has-caption -- the narration is spoken from the slide's text, shown in full beside the player (its transcript)
            <audio key={stored.audio} className="lesson-narration-audio" src={stored.audio} controls preload="metadata" aria-label={t('lesson.player.audio')} />
          ) : canSpeak ? (
            <button type="button" className="btn" onClick={speak} aria-pressed={speaking === 'playing'}>
              <Icon name={speaking === 'playing' ? 'pause' : 'play'} /> {t(speaking === 'playing' ? 'mobile.lesson.pause' : 'mobile.lesson.play')}
            </button>
          ) : null}
          <p className="lesson-narration">{slide.narration}</p>
        </div>
      ) : null}
    </section>
  )
}
