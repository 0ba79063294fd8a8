import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** localStorage key remembering that a user closed a tour. */
export const tourKey = (tour: string, nick: string) => `console.tour.${tour}.${nick}`

/**
 * A short step-by-step help above a screen (seed 001 §3 guided tours): a region with one step shown at a time
 * ("Step 1 of N"), Previous/Next buttons, and Close, which hides it for that user (remembered in localStorage);
 * once closed, a "How it works" button shows it again. Step texts are `<prefix>.<n>` (1-based), the title `<prefix>.title`.
 */
export function GuidedTour({ tour, prefix, steps, nick }: { tour: string; prefix: string; steps: number; nick: string }) {
  const { t } = useTranslation()
  const id = useId()
  const [open, setOpen] = useState(true)
  const [step, setStep] = useState(1)
  const body = useRef<HTMLDivElement>(null)
  const opened = useRef(false)

  useEffect(() => {
    try {
      if (localStorage.getItem(tourKey(tour, nick)) === 'closed') setOpen(false)
    } catch {
      // Storage refused (private mode): the tour stays open.
    }
  }, [tour, nick])

  useEffect(() => {
    if (opened.current) body.current?.focus()
    opened.current = true
  }, [step])

  const close = (remember: boolean) => {
    setOpen(false)
    try {
      if (remember) localStorage.setItem(tourKey(tour, nick), 'closed')
      else localStorage.removeItem(tourKey(tour, nick))
    } catch {
      // Nothing to remember without storage.
    }
  }

  if (!open)
    return (
      <p>
        <button
          type="button"
          className="btn"
          onClick={() => {
            close(false)
            setStep(1)
            setOpen(true)
          }}
        >
          {t('tour.show')}
        </button>
      </p>
    )
  return (
    <section className="card guided-tour" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t(`${prefix}.title`)}</h2>
      <div ref={body} tabIndex={-1} aria-live="polite">
        <p className="hint">{t('tour.step', { step, count: steps })}</p>
        <p>{t(`${prefix}.${step}`)}</p>
      </div>
      <div className="form-actions">
        <button type="button" className="btn" disabled={step === 1} onClick={() => setStep(step - 1)}>
          {t('tour.previous')}
        </button>
        {step < steps ? (
          <button type="button" className="btn btn-primary" onClick={() => setStep(step + 1)}>
            {t('tour.next')}
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => close(true)}>
          {t(step < steps ? 'tour.close' : 'tour.done')}
        </button>
      </div>
    </section>
  )
}
