import type { ReactNode } from 'react'
import { Icon, type IconName } from '~/components/ui/icon'

/** An editor's or form's primary button: a spinner in place of its icon while `busy`, and disabled then. */
export function BusyButton({
  busy,
  icon,
  children,
  onClick,
  disabled = false,
}: {
  busy: boolean
  icon: IconName
  children: ReactNode
  /** Absent: a submit button. */
  onClick?: () => void
  disabled?: boolean
}) {
  return (
    <button type={onClick ? 'button' : 'submit'} className="btn btn-primary" onClick={onClick} disabled={busy || disabled}>
      {busy ? <span className="spinner" aria-hidden="true" /> : <Icon name={icon} />} {children}
    </button>
  )
}
