import { QuestionPairList } from './question-pairs'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RichText } from '~/components/tms/rich-text'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import type { LessonInput } from '#shared/schemas/lesson/lesson'
import { SlideView } from './slide-view'

type Printable = 'handout' | 'class_plan'

/**
 * A lesson as a reader sees it (the console's previews): summary, class plan, handout, slides, narration and
 * question pairs, with the exports — the handout and the class plan printed as A4 pages (the print stylesheet keeps
 * only the chosen section), each slide as a 3508 × 2480 PNG, the deck as PPTX.
 */
export function LessonView({
  lesson,
}: {
  lesson: Pick<LessonInput, 'title' | 'language' | 'summary' | 'class_plan' | 'handout' | 'slides' | 'question_pairs'>
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const slides = useRef<(SVGSVGElement | null)[]>([])
  const [busy, setBusy] = useState(false)
  const file = lesson.title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'lesson'

  const print = (section: Printable) => {
    document.documentElement.dataset.print = section
    window.print()
    delete document.documentElement.dataset.print
  }
  const run = async (job: () => Promise<void>) => {
    setBusy(true)
    try {
      await job()
      toast.push({ kind: 'success', message: 'lesson.export.done' })
    } catch {
      toast.push({ kind: 'error', message: 'lesson.export.failed' })
    } finally {
      setBusy(false)
    }
  }
  const pngs = () =>
    run(async () => {
      const { slidePng, download } = await import('./export.client')
      for (const [i, svg] of slides.current.entries()) if (svg) download(await slidePng(svg), `${file}-${i + 1}.png`)
    })
  const pptx = () =>
    run(async () => {
      const { deckPptx, download } = await import('./export.client')
      download(await deckPptx(lesson.slides, lesson.title), `${file}.pptx`)
    })

  return (
    <article className="lesson-view" lang={lesson.language}>
      <div className="toolbar-actions lesson-exports no-print" role="group" aria-label={t('lesson.export.title')}>
        <button type="button" className="btn" onClick={() => print('handout')} disabled={!lesson.handout}>
          <Icon name="print" /> {t('lesson.export.print_handout')}
        </button>
        <button type="button" className="btn" onClick={() => print('class_plan')} disabled={!lesson.class_plan.html}>
          <Icon name="print" /> {t('lesson.export.print_class_plan')}
        </button>
        <button type="button" className="btn" onClick={() => void pngs()} disabled={busy || lesson.slides.length === 0}>
          <Icon name="image" /> {t('lesson.export.png')}
        </button>
        <button type="button" className="btn" onClick={() => void pptx()} disabled={busy || lesson.slides.length === 0}>
          <Icon name="download" /> {t('lesson.export.pptx')}
        </button>
        {busy ? <span className="spinner" role="status" aria-label={t('lesson.export.working')} /> : null}
      </div>
      <section className="lesson-section card" data-print-section="summary">
        <h2>{t('lesson.kind.summary')}</h2>
        {lesson.summary ? <RichText html={lesson.summary} /> : <p className="hint">{t('lesson.view.empty')}</p>}
      </section>
      <section className="lesson-section card" data-print-section="class_plan">
        <h2>
          {t('lesson.kind.class_plan')} · {t('lesson.view.minutes', { count: lesson.class_plan.duration })}
        </h2>
        <p className="print-only">{lesson.title}</p>
        {lesson.class_plan.html ? <RichText html={lesson.class_plan.html} /> : <p className="hint">{t('lesson.view.empty')}</p>}
      </section>
      <section className="lesson-section card" data-print-section="handout">
        <h2>{t('lesson.kind.handout')}</h2>
        <p className="print-only">{lesson.title}</p>
        {lesson.handout ? <RichText html={lesson.handout} /> : <p className="hint">{t('lesson.view.empty')}</p>}
      </section>
      <section className="lesson-section card" data-print-section="slides">
        <h2>{t('lesson.kind.slide')}</h2>
        {lesson.slides.length === 0 ? <p className="hint">{t('lesson.view.empty')}</p> : null}
        <ol className="lesson-slides">
          {lesson.slides.map((s, i) => (
            <li key={s.id}>
              <SlideView
                ref={(el) => {
                  slides.current[i] = el
                }}
                slide={s}
                label={t('lesson.slides.slide_n', { n: String(i + 1) })}
              />
              {s.narration ? <p className="hint">{s.narration}</p> : null}
            </li>
          ))}
        </ol>
      </section>
      {lesson.question_pairs.length ? (
        <section className="lesson-section card" data-print-section="pairs">
          <h2>{t('lesson.kind.question_pairs')}</h2>
          <QuestionPairList pairs={lesson.question_pairs} />
        </section>
      ) : null}
    </article>
  )
}
