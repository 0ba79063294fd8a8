import { useTranslation } from 'react-i18next'

const STATUS_CLASS: Record<string, string> = { finished: 'badge-success', pending: 'badge-warning', pending_agreement: 'badge-warning' }

/** An answer's state (seed 001 §4) as a badge, in words. */
export function AnswerStatus({ status }: { status: string }) {
  const { t } = useTranslation()
  return <span className={`badge ${STATUS_CLASS[status] ?? ''}`}>{t(`correct.status.${status}`)}</span>
}

/** Delivered on time or delayed (seed 001 §4 "Task delivery"), in words; nothing for an answer not delivered. */
export function DeliveryBadge({ delivery }: { delivery: string | null }) {
  const { t } = useTranslation()
  if (!delivery) return null
  return <span className={`badge ${delivery === 'delayed' ? 'badge-warning' : 'badge-success'}`}>{t(`correct.delivery.${delivery}`)}</span>
}

/** Statuses a teacher corrects (delivered); drafts and answers sent back for adjustments are the student's. */
export const CORRECTABLE = ['submitted', 'review', 'pending_agreement', 'finished']
