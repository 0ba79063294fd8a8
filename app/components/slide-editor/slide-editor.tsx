import { Suspense, lazy, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SlideEditorProps } from './slide-editor.client'

const Editor = lazy(() => import('./slide-editor.client').then((m) => ({ default: m.SlideEditor })))

export type { SlideEditorProps }
export { deckForSave } from './deck'

/**
 * The slide editor island (issue 18). Konva and react-konva are browser-only and heavy: they are loaded by this
 * dynamic import on the screens that mount `<SlideEditor>`, so they are absent from the Worker and from every other
 * page's JS. The server and the first browser render show a placeholder.
 */
export function SlideEditor(props: SlideEditorProps) {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  const placeholder = <SlideEditorPlaceholder />
  if (!mounted) return placeholder
  return (
    <Suspense fallback={placeholder}>
      <Editor {...props} />
    </Suspense>
  )
}

function SlideEditorPlaceholder() {
  const { t } = useTranslation()
  return (
    <div className="slide-editor slide-editor-loading" aria-busy="true">
      <p role="status">{t('slides.loading')}</p>
    </div>
  )
}
