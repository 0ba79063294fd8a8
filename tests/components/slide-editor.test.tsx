import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SlideEditor } from '~/components/slide-editor/slide-editor'
import { catalogues } from '~/i18n/catalogues'

const pt = catalogues['pt-BR']

describe('the slide editor island', () => {
  it('renders its placeholder on the server: the canvas editor is loaded in the browser only', () => {
    const html = renderToString(<SlideEditor value={[]} onChange={() => undefined} />)
    expect(html).toContain(pt['slides.loading'])
    expect(html).toContain('aria-busy="true"')
    expect(html).not.toContain('<canvas')
  })

  it('has every label in the three languages', () => {
    const keys = Object.keys(pt).filter((k) => k.startsWith('slides.') || k.startsWith('formula.'))
    expect(keys.length).toBeGreaterThan(90)
    for (const lang of ['en-US', 'es-ES'] as const) expect(keys.filter((k) => !catalogues[lang][k])).toEqual([])
  })
})
