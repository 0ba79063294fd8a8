import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { Icon } from './icon'
import { useToast } from './toast'

/** Copies a text (a link, a token) to the clipboard and says so; where the clipboard is refused, it says that too. */
export function CopyButton({ text, label, iconOnly }: { text: string; label: string; iconOnly?: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      className={iconOnly ? 'btn btn-icon' : 'btn'}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text)
          setCopied(true)
          setTimeout(() => setCopied(false), 2000)
          toast.push({ kind: 'success', message: 'copy.done', key: 'copy' })
        } catch {
          toast.push({ kind: 'error', message: 'copy.failed', key: 'copy' })
        }
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} label={iconOnly ? label : undefined} />
      {iconOnly ? null : <span>{copied ? t('copy.copied') : label}</span>}
    </button>
  )
}
