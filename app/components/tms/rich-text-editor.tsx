import { Suspense, lazy, useEffect, useId, useState } from 'react'
import type { RichTextEditorProps } from './rich-text-editor.client'

const Editor = lazy(() => import('./rich-text-editor.client').then((m) => ({ default: m.RichTextEditor })))

/**
 * The rich text field. The editor (tiptap, ProseMirror, the formula dialog) is browser-only and loaded on demand:
 * the server renders, and the browser hydrates, this placeholder with the field's label and error; the
 * editor replaces it once loaded. So the editor is out of the Worker and of every page that has no such field.
 */
export function RichTextEditor(props: RichTextEditorProps) {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  const placeholder = <EditorPlaceholder {...props} />
  if (!mounted) return placeholder
  return (
    <Suspense fallback={placeholder}>
      <Editor {...props} />
    </Suspense>
  )
}

function EditorPlaceholder({ label, error }: RichTextEditorProps) {
  const id = useId()
  return (
    <div className={`field rich-field${error ? ' field-invalid' : ''}`}>
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="rich-toolbar" aria-hidden="true" />
      <div className="rich-input input" aria-busy="true" aria-labelledby={`${id}-label`} />
      {error ? <p className="error">{error}</p> : null}
    </div>
  )
}
