import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
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

/** A yes/no confirmation in a modal dialog; `children` go between the message and the buttons. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger,
  confirmDisabled,
  children,
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  message: ReactNode
  confirmLabel: string
  cancelLabel: string
  danger?: boolean
  /** While true the confirm button is disabled (e.g. until the operator has typed what is asked). */
  confirmDisabled?: boolean
  children?: ReactNode
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} labelledBy="confirm-title">
      <div className="dialog-message" id="confirm-message">
        {message}
      </div>
      {children}
      <div className="dialog-actions">
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog moves focus inside itself when it opens (WAI-ARIA dialog pattern) */}
        <button type="button" className="btn" onClick={onCancel} autoFocus={!children}>
          {cancelLabel}
        </button>
        <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm} disabled={confirmDisabled}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}

/**
 * The confirmation before deleting `item` (closed while null): title `<prefix>.delete` and message
 * `<prefix>.delete_confirm`, interpolated with `values`. Yes runs `onConfirm` and closes. With `typeToConfirm` the
 * operator must type that text (e.g. a realm's code) into a field labelled `<prefix>.delete_type` before yes is
 * enabled; `onConfirm` receives what was typed.
 */
export function DeleteConfirm({
  item,
  prefix,
  values,
  typeToConfirm,
  onConfirm,
  onClose,
}: {
  item: unknown
  prefix: string
  values: Record<string, string>
  typeToConfirm?: string
  onConfirm: (typed: string) => void
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [typed, setTyped] = useState('')
  const inputId = useId()
  const open = item !== null
  // Each opening starts empty: a code typed for one realm never confirms another.
  useEffect(() => {
    if (!open) setTyped('')
  }, [open])
  const matches = typeToConfirm === undefined || typed.trim() === typeToConfirm
  const confirm = () => {
    if (!matches) return
    onConfirm(typed.trim())
    onClose()
  }
  return (
    <ConfirmDialog
      open={open}
      title={t(`${prefix}.delete`, values)}
      message={t(`${prefix}.delete_confirm`, values)}
      confirmLabel={t(typeToConfirm === undefined ? 'resources.role.delete_yes' : `${prefix}.delete_yes`, values)}
      cancelLabel={t('settings.cancel')}
      danger
      confirmDisabled={!matches}
      onCancel={onClose}
      onConfirm={confirm}
    >
      {typeToConfirm !== undefined ? (
        <form
          className="field dialog-confirm-field"
          onSubmit={(e) => {
            e.preventDefault()
            confirm()
          }}
        >
          <label htmlFor={inputId}>{t(`${prefix}.delete_type`, values)}</label>
          <input
            id={inputId}
            className="input"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog opens on this field: focus moves into the modal (WAI-ARIA dialog pattern)
            autoFocus
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            aria-describedby="confirm-message"
          />
        </form>
      ) : null}
    </ConfirmDialog>
  )
}
