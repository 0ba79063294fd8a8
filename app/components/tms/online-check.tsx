import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { MarkedText } from '~/components/tms/marked-text'
import { errorText } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import type { CheckMark, EssayIssueKind } from '#shared/essay-check'

export type { CheckMark }
/** What the apply screen's `?intent=check` answers: the check of one essay, or the API's refusal. */
export type CheckReply = {
  check?: { question_id: string; text: string; engine: string; marks: CheckMark[]; checks_used: number; checks_limit: number }
  question_id?: string
  errors?: ErrorItem[]
}

const DEVICE_RULES: readonly EssayIssueKind[] = ['repeated_word', 'lowercase_start', 'space_before_punctuation', 'double_space', 'no_final_punctuation']

/** The checker's marks the device's own rules do not find (spelling, LanguageTool's) still present in `text`. */
export function openCheckMarks(marks: CheckMark[], text: string): CheckMark[] {
  return marks.filter((m) => !(DEVICE_RULES as readonly string[]).includes(m.rule) && text.includes(m.excerpt))
}

/**
 * The essay's "Online Check" (issue 17): a button under the essay posting its current text to the apply screen's
 * `?intent=check` (the student API's `POST …/check`); the checked text is shown with the marks underlined in their
 * category's colour (`MarkedText`) and each mark's suggestions; refusals (limit, deadline, too many errors, checker
 * error) in words. `onMarks` hands the marks to the screen for the delivery's confirmation.
 */
export function OnlineCheck({
  questionId,
  text,
  action,
  disabled,
  onMarks,
}: {
  questionId: string
  text: string
  action: string
  disabled?: boolean
  onMarks: (marks: CheckMark[]) => void
}) {
  const { t } = useTranslation()
  const fetcher = useFetcher<CheckReply>()
  const reply = fetcher.data?.check?.question_id === questionId || fetcher.data?.question_id === questionId ? fetcher.data : undefined
  const result = reply?.check
  useEffect(() => {
    if (result) onMarks(result.marks)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer of the checker
  }, [result])
  const busy = fetcher.state !== 'idle'
  const explain = (m: CheckMark) =>
    [m.message || t(`mobile.tms.apply.issue.${m.rule}`), m.suggestions.length ? t('mobile.tms.apply.suggestions', { list: m.suggestions.join(', ') }) : '']
      .filter(Boolean)
      .join(' ')
  return (
    <div className="mtms-check">
      <button
        type="button"
        className="btn"
        disabled={disabled || busy || !text.trim()}
        aria-describedby={`mtms-check-${questionId}`}
        onClick={() => {
          const body = new FormData()
          body.set('question_id', questionId)
          body.set('text', text)
          fetcher.submit(body, { method: 'post', action })
        }}
      >
        <Icon name="check" /> {busy ? t('mobile.tms.apply.checking') : t('mobile.tms.apply.check')}
      </button>
      <div id={`mtms-check-${questionId}`} aria-live="polite">
        {!busy && reply?.errors ? (
          <p className="error" role="alert">
            {reply.errors.map((e) => errorText(t, e)).join(' ')}
          </p>
        ) : null}
        {result ? (
          <section className="mtms-check-result" aria-label={t('mobile.tms.apply.check_marks')}>
            <p className="hint">
              {result.marks.length ? t('mobile.tms.apply.check_result', { count: result.marks.length }) : t('mobile.tms.apply.check_clean')}
              {' · '}
              {t('mobile.tms.apply.check_used', { used: result.checks_used, limit: result.checks_limit })}
            </p>
            {result.text !== text ? <p className="hint warn">{t('mobile.tms.apply.check_stale')}</p> : null}
            {result.marks.length ? (
              <MarkedText
                text={result.text}
                errors={result.marks.map((m) => ({ category: m.category, excerpt: m.excerpt, offset: m.offset, explanation: explain(m) }))}
              />
            ) : null}
          </section>
        ) : null}
      </div>
    </div>
  )
}
