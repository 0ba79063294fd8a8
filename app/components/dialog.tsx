import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from './icon'

/**
 * A modal dialog on the native <dialog> element: focus moves in and is trapped by the browser, Escape closes it,
 * and focus returns to where it was.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  className = '',
  labelledBy = 'dialog-title',
  busy = false,
}: {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  className?: string
  labelledBy?: string
  /** While true the dialog cannot be dismissed (Escape and the close button do nothing), e.g. during a switch. */
  busy?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const { t } = useTranslation()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      className={`dialog ${className}`}
      aria-labelledby={labelledBy}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault()
        if (!busy) onClose()
      }}
    >
      {open ? (
        <>
          <header className="dialog-header">
            <h2 id={labelledBy}>{title}</h2>
            <button type="button" className="btn btn-icon" onClick={onClose} disabled={busy}>
              <Icon name="close" label={t('dialog.close')} />
            </button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      ) : null}
    </dialog>
  )
}

/** A yes/no confirmation in a modal dialog. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger,
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  message: ReactNode
  confirmLabel: string
  cancelLabel: string
  danger?: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} labelledBy="confirm-title">
      <div className="dialog-message">{message}</div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onCancel} autoFocus>
          {cancelLabel}
        </button>
        <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}

/**
 * The confirmation before deleting `item` (closed while null): title `<prefix>.delete` and message
 * `<prefix>.delete_confirm`, interpolated with `values`. Yes runs `onConfirm` and closes.
 */
export function DeleteConfirm({ item, prefix, values, onConfirm, onClose }: { item: unknown; prefix: string; values: Record<string, string>; onConfirm: () => void; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <ConfirmDialog
      open={item !== null}
      title={t(`${prefix}.delete`, values)}
      message={t(`${prefix}.delete_confirm`, values)}
      confirmLabel={t('resources.role.delete_yes')}
      cancelLabel={t('settings.cancel')}
      danger
      onCancel={onClose}
      onConfirm={() => {
        onConfirm()
        onClose()
      }}
    />
  )
}
