import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/ui/dialog'

/** A fresh idempotency key for one confirmed paid attempt (the API debits a key once, whatever the retries). */
export const newIdempotencyKey = () => `pm-${crypto.randomUUID()}`

/**
 * A paid operation's button (issue 16 "each paid call is confirmed with its credit price"): the click opens a
 * confirmation that states the price; only "confirm and pay" calls `onConfirm`, with the price shown (the API
 * refuses another one: `price_changed`) and a new idempotency key.
 */
export function PaidButton({
  label,
  message,
  price,
  disabled,
  onConfirm,
}: {
  label: string
  /** The confirmation's message (it names the price). */
  message: string
  price: number
  disabled?: boolean
  onConfirm: (confirm: { confirm_points: number; idempotency_key: string }) => void
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="btn" disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={open}
        title={t('persona.media.confirm.title')}
        message={message}
        confirmLabel={t('persona.media.confirm.ok')}
        cancelLabel={t('persona.media.confirm.cancel')}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false)
          onConfirm({ confirm_points: price, idempotency_key: newIdempotencyKey() })
        }}
      />
    </>
  )
}

/** The API's error items as one translated line. */
export function errorText(t: (key: string, o?: Record<string, unknown>) => string, errors: { cause: string; message: string; value: unknown }[]) {
  return errors
    .map((e) => {
      const v = e.value && typeof e.value === 'object' ? (e.value as Record<string, unknown>) : {}
      return t(e.message, { ...v, defaultValue: t(`errors.${e.cause}`, { defaultValue: e.message }) })
    })
    .join(' ')
}
