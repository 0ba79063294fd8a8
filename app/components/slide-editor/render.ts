import katex from 'katex'
import { PAGE_HEIGHT, PAGE_WIDTH, type Slide, type SlideObject } from '#shared/schemas/lesson/slide'

/**
 * Slides as SVG (issue 18): the thumbnails of the slide list, and the pictures of text boxes and formulas that the
 * canvas places as images. Rich text and formulas go in a `foreignObject` as XHTML, formulas as KaTeX's MathML output
 * (drawn by the browser's own math layout: an SVG shown as an image loads no stylesheet or font, so KaTeX's HTML
 * output would lose its CSS). Browser-only (DOMParser, XMLSerializer).
 */

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** KaTeX's MathML for a formula (an error shows as its LaTeX, in red, never thrown). */
export function formulaMathml(latex: string, display = true): string {
  return katex.renderToString(latex, { output: 'mathml', throwOnError: false, displayMode: display, trust: false, strict: 'ignore' })
}

/** A rich text's HTML as well-formed XHTML, its formulas as MathML. */
function richTextXhtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, 'text/html')
  const root = doc.body.firstElementChild as HTMLElement
  for (const span of Array.from(root.querySelectorAll<HTMLElement>('span[data-latex]'))) {
    span.innerHTML = formulaMathml(span.getAttribute('data-latex') ?? '', span.getAttribute('data-display') === 'block')
  }
  for (const script of Array.from(root.querySelectorAll('script,style,iframe,object'))) script.remove()
  return Array.from(root.childNodes, (n) => new XMLSerializer().serializeToString(n)).join('')
}

function foreign(o: { width: number; height: number }, style: string, body: string): string {
  return (
    `<foreignObject x="0" y="0" width="${o.width}" height="${o.height}">` +
    `<div xmlns="http://www.w3.org/1999/xhtml" style="${escapeXml(style)}">${body}</div></foreignObject>`
  )
}

/** The inside of one object, drawn in its own box (0,0 to width,height). */
function objectBody(o: SlideObject): string {
  switch (o.kind) {
    case 'text':
      return foreign(
        o,
        `width:${o.width}px;height:${o.height}px;overflow:hidden;font-family:system-ui,sans-serif;font-size:${o.font_size}px;line-height:1.25;color:${o.color};text-align:${o.align};margin:0`,
        `<style>p,ul,ol,h2,h3{margin:0 0 .3em}</style>${richTextXhtml(o.html)}`,
      )
    case 'formula':
      return foreign(
        o,
        `width:${o.width}px;height:${o.height}px;display:flex;align-items:center;justify-content:center;color:${o.color};font-size:${Math.round(o.height / 2.2)}px`,
        formulaMathml(o.latex),
      )
    case 'image':
      // An image outside the document is not loaded by an SVG shown as a picture (the thumbnails): a grey box stands for it there.
      return `<rect width="${o.width}" height="${o.height}" fill="#e5e7eb"/><image href="${escapeXml(o.src)}" width="${o.width}" height="${o.height}" preserveAspectRatio="xMidYMid meet"/>`
    case 'shape': {
      const fill = o.fill || 'none'
      const stroke = o.stroke ? ` stroke="${o.stroke}" stroke-width="${o.stroke_width}"` : ''
      if (o.shape === 'rect') return `<rect width="${o.width}" height="${o.height}" fill="${fill}"${stroke}/>`
      if (o.shape === 'ellipse') return `<ellipse cx="${o.width / 2}" cy="${o.height / 2}" rx="${o.width / 2}" ry="${o.height / 2}" fill="${fill}"${stroke}/>`
      const head = o.shape === 'arrow' ? ` marker-end="url(#arrow-${escapeXml(o.id)})"` : ''
      const marker =
        o.shape === 'arrow'
          ? `<defs><marker id="arrow-${escapeXml(o.id)}" markerWidth="4" markerHeight="4" refX="3" refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="${o.stroke || '#000000'}"/></marker></defs>`
          : ''
      return `${marker}<line x1="0" y1="${o.height / 2}" x2="${o.width}" y2="${o.height / 2}"${stroke}${head}/>`
    }
    case 'persona':
      return (
        `<rect width="${o.width}" height="${o.height}" fill="#ede9fe" stroke="#7c3aed" stroke-width="10" stroke-dasharray="40 24"/>` +
        `<circle cx="${o.width / 2}" cy="${o.height * 0.38}" r="${Math.min(o.width, o.height) * 0.18}" fill="#c4b5fd"/>` +
        `<ellipse cx="${o.width / 2}" cy="${o.height * 0.85}" rx="${o.width * 0.3}" ry="${o.height * 0.2}" fill="#c4b5fd"/>`
      )
  }
}

/** One object as a standalone SVG document in its own size (what the canvas draws for text boxes and formulas). */
export function objectSvg(o: SlideObject): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${o.width}" height="${o.height}" viewBox="0 0 ${o.width} ${o.height}">${objectBody(o)}</svg>`
}

/** A whole slide as SVG in page units (hidden objects left out; rotation about the top-left corner, as on the canvas). */
export function slideSvg(slide: Slide): string {
  const objects = slide.objects
    .filter((o) => !o.hidden)
    .map((o) => `<g transform="translate(${o.x} ${o.y}) rotate(${o.rotation})" opacity="${o.opacity}">${objectBody(o)}</g>`)
    .join('')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE_WIDTH}" height="${PAGE_HEIGHT}" viewBox="0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}">` +
    `<rect width="${PAGE_WIDTH}" height="${PAGE_HEIGHT}" fill="${slide.background}"/>${objects}</svg>`
  )
}

export const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
