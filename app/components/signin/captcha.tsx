import { useTranslation } from 'react-i18next'
import type { RealmConfig } from '#shared/schemas/realm'
import { Icon } from '../ui/icon'

/**
 * The captcha widget's server-rendered frame (seed 000 §4), inside the form it guards: its hidden inputs
 * (`captcha_token`, the visitor's `session_key`) and the first view. The sign-in page's module (signin-page.ts,
 * `runCaptcha`) runs it: proof of work starts at once and is solved in a Web Worker with a progress bar; text and image
 * challenges open on a click. The form's submit stays disabled until the widget holds a token.
 */
export function Captcha({ id, config }: { id: string; config: Pick<RealmConfig, 'captcha_type'> }) {
  const { t } = useTranslation()
  const type = config.captcha_type || 'pow'
  return (
    <div
      className="captcha"
      id={id}
      role="group"
      aria-labelledby={`${id}-title`}
      data-captcha=""
      data-captcha-type={type}
      data-captcha-state="idle"
      aria-busy={false}
    >
      <input type="hidden" name="captcha_token" value="" />
      <input type="hidden" name="session_key" value="" />
      <span id={`${id}-title`} className="visually-hidden">
        {t('captcha.label')}
      </span>
      <div data-captcha-view="">
        {type === 'pow' ? (
          <div className="captcha-status" role="status">
            <span className="spinner" aria-hidden="true" /> {t('captcha.pow.solving')}
            <progress max={100} aria-label={t('captcha.pow.progress')} />
          </div>
        ) : (
          <button type="button" className="btn captcha-start" disabled>
            <Icon name="shield" /> {t('captcha.start')}
          </button>
        )}
      </div>
    </div>
  )
}

/** Every text the captcha widget may show, for the sign-in page's module (translated by the server). */
export const CAPTCHA_TEXTS = [
  'captcha.verified',
  'captcha.pow.solving',
  'captcha.pow.progress',
  'captcha.retry',
  'captcha.start',
  'captcha.image.prompt',
  'captcha.text.prompt',
  'captcha.image.alt',
  'captcha.answer',
  'captcha.confirm',
  'captcha.refresh',
  'captcha.error.wrong',
  'captcha.error.verify',
  'captcha.error.generate',
]
