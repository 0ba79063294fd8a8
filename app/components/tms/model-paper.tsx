import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { Icon } from '~/components/ui/icon'
import type { QuestionInput } from '#shared/schemas/tms/question'
import { QuestionView } from './question-view'

export interface PaperModel {
  title: string
  description: string
  kind: string
  style?: { background_color?: string }
  min_execution_time?: number
  max_execution_time?: number
  questions: QuestionInput[]
}

/**
 * A model as one printable page: the student's view (preview) or the same with its resolution. Informative blocks
 * and sections are not numbered.
 */
export function ModelPaper({ model, resolution = false, back }: { model: PaperModel; resolution?: boolean; back: string }) {
  const { t } = useTranslation()
  let n = 0
  return (
    // A model's own paper colour is a light page whatever the console theme: paper-light gives its text, hints, borders
    // and buttons the light palette, so they keep their contrast on it in the dark themes too.
    <div
      className={model.style?.background_color ? 'paper paper-light' : 'paper'}
      style={model.style?.background_color ? { background: model.style.background_color } : undefined}
    >
      <div className="paper-actions no-print">
        <Link to={back} className="btn">
          <Icon name="chevronLeft" /> {t('tms.form.back')}
        </Link>
        <button type="button" className="btn" onClick={() => window.print()}>
          <Icon name="print" /> {t('tms.view.print')}
        </button>
      </div>
      <header className="paper-header">
        <p className="hint">{t(resolution ? 'pages.tms.model.resolution' : 'pages.tms.model.preview')}</p>
        <h1>{model.title}</h1>
        {model.description ? <p>{model.description}</p> : null}
        <p className="hint">
          {t(`tms.kind.${model.kind}`)}
          {model.min_execution_time || model.max_execution_time
            ? ` · ${t('tms.view.time', { min: String(model.min_execution_time ?? 0), max: String(model.max_execution_time ?? 0) })}`
            : ''}
        </p>
      </header>
      {model.questions.length === 0 ? <p className="empty">{t('tms.view.no_questions')}</p> : null}
      {model.questions.map((q, i) => (
        <QuestionView key={(q as { id?: string }).id ?? i} q={q} index={q.type === 'info' || q.type === 'section' ? null : n++} resolution={resolution} />
      ))}
    </div>
  )
}
