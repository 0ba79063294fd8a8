import { useRouteLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { renderRichText, type RichTextPolicy } from '#shared/rich-text'
import type { RootData } from '~/root'

/** Images of rich text may come from this realm's files (besides https). */
export function useRichTextPolicy(): RichTextPolicy {
  const root = useRouteLoaderData<RootData>('root')
  const base = root?.realm?.files_base_url
  const realm = root?.realm?.realm
  return useMemo(() => (base && realm ? { filesBase: `${base.replace(/\/?$/, '/')}${realm}/` } : {}), [base, realm])
}

/**
 * Stored rich text as a reader sees it: sanitized again here (whatever the storage holds, nothing runs) and with
 * formulas typeset by KaTeX.
 */
export function RichText({ html, className = '', id }: { html: string; className?: string; id?: string }) {
  const policy = useRichTextPolicy()
  const out = useMemo(() => renderRichText(html, policy), [html, policy])
  return <div id={id} className={`rich-text ${className}`} dangerouslySetInnerHTML={{ __html: out }} />
}
