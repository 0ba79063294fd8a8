/**
 * Lesson exports in the browser (issue 18), loaded on demand from the preview screens: slides as PNG images of the
 * page size (3508 × 2480, seed 000 §9) and the deck as a PPTX file (pptxgenjs). A `.client` module: never in the
 * Worker, and pptxgenjs is imported only when the PPTX button is used.
 */
import katex from 'katex'
import { PAGE_HEIGHT, PAGE_WIDTH, type Slide, type SlideDeck } from '#shared/schemas/lesson/slide'

const DPI = 300
const inches = (units: number) => units / DPI

async function dataUrl(src: string): Promise<string | null> {
  try {
    const res = await fetch(src, { mode: 'cors', credentials: 'same-origin' })
    if (!res.ok) return null
    const blob = await res.blob()
    return await new Promise((resolve) => {
      const reader = new FileReader()
      reader.onload = () => resolve(String(reader.result))
      reader.onerror = () => resolve(null)
      reader.readAsDataURL(blob)
    })
  } catch {
    return null
  }
}

/**
 * An SVG drawn as an image has no stylesheets and loads nothing: the copy keeps KaTeX's MathML (the browser
 * typesets it without KaTeX's CSS) instead of its HTML, and carries its images inline.
 */
async function standaloneSvg(svg: SVGSVGElement): Promise<string> {
  const copy = svg.cloneNode(true) as SVGSVGElement
  copy.setAttribute('width', String(PAGE_WIDTH))
  copy.setAttribute('height', String(PAGE_HEIGHT))
  copy.querySelectorAll('.katex-html').forEach((n) => n.remove())
  copy.querySelectorAll('.katex-mathml').forEach((n) => n.removeAttribute('class'))
  for (const img of Array.from(copy.querySelectorAll('image'))) {
    const href = img.getAttribute('href') ?? ''
    const inline = href.startsWith('data:') ? href : await dataUrl(href)
    if (inline) img.setAttribute('href', inline)
    else img.remove()
  }
  return new XMLSerializer().serializeToString(copy)
}

/** Draws an SVG document onto a canvas of its size; answers a PNG blob. */
async function svgPng(markup: string, width: number, height: number): Promise<Blob> {
  const img = new Image()
  img.width = width
  img.height = height
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`
  await img.decode()
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  canvas.getContext('2d')!.drawImage(img, 0, 0, width, height)
  return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('png'))), 'image/png'))
}

/** One slide as a PNG of 3508 × 2480 pixels. */
export async function slidePng(svg: SVGSVGElement): Promise<Blob> {
  return svgPng(await standaloneSvg(svg), PAGE_WIDTH, PAGE_HEIGHT)
}

export function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A formula as a PNG data URL (MathML typeset by the browser), for the PPTX. */
async function formulaPng(latex: string, color: string, width: number, height: number): Promise<string> {
  const math = katex.renderToString(latex, { throwOnError: false, output: 'mathml', displayMode: true })
  const markup = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><foreignObject width="100%" height="100%"><div xmlns="http://www.w3.org/1999/xhtml" style="font-size:${Math.round(height / 3)}px;color:${color};display:flex;align-items:center;justify-content:center;height:100%">${math}</div></foreignObject></svg>`
  const blob = await svgPng(markup, Math.round(width), Math.round(height))
  return await new Promise((resolve) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.readAsDataURL(blob)
  })
}

const plain = (html: string) =>
  html
    .replace(/<\/(p|li|h\d)>/g, '\n')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim()

const hex = (c: string) => c.replace('#', '')

/** The deck as a PPTX presentation on an A4 landscape page: text, shapes, images and formulas (as images); narration as notes. */
export async function deckPptx(deck: SlideDeck, title: string): Promise<Blob> {
  const { default: PptxGenJS } = await import('pptxgenjs')
  const pptx = new PptxGenJS()
  pptx.defineLayout({ name: 'A4L', width: inches(PAGE_WIDTH), height: inches(PAGE_HEIGHT) })
  pptx.layout = 'A4L'
  pptx.title = title
  for (const s of deck as Slide[]) {
    const slide = pptx.addSlide()
    slide.background = { color: hex(s.background) }
    if (s.narration) slide.addNotes(s.narration)
    for (const o of s.objects) {
      if (o.hidden || o.kind === 'persona') continue
      const box = {
        x: inches(o.x),
        y: inches(o.y),
        w: inches(o.width),
        h: inches(o.height),
        rotate: o.rotation || undefined,
        transparency: Math.round((1 - o.opacity) * 100) || undefined,
      }
      if (o.kind === 'text')
        slide.addText(plain(o.html), {
          ...box,
          fontSize: Math.round((o.font_size * 72) / DPI),
          color: hex(o.color),
          align: o.align,
          valign: 'top',
          fontFace: 'Arial',
        })
      else if (o.kind === 'shape') {
        const shape = o.shape === 'ellipse' ? pptx.ShapeType.ellipse : o.shape === 'rect' ? pptx.ShapeType.rect : pptx.ShapeType.line
        slide.addShape(shape, {
          ...box,
          ...(o.shape === 'line' || o.shape === 'arrow' ? { y: inches(o.y + o.height / 2), h: 0 } : {}),
          fill: o.fill ? { color: hex(o.fill) } : undefined,
          line: { color: hex(o.stroke || '#000000'), width: (o.stroke_width * 72) / DPI, endArrowType: o.shape === 'arrow' ? 'triangle' : undefined },
        })
      } else if (o.kind === 'image') {
        const data = o.src.startsWith('data:') ? o.src : await dataUrl(o.src)
        if (data) slide.addImage({ ...box, data, altText: o.alt })
      } else if (o.kind === 'formula') slide.addImage({ ...box, data: await formulaPng(o.latex, o.color, o.width / 2, o.height / 2), altText: o.latex })
    }
  }
  return (await pptx.write({ outputType: 'blob' })) as Blob
}
