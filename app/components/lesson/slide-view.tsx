import { forwardRef, useMemo } from 'react'
import { renderFormula, renderRichText } from '#shared/rich-text'
import { PAGE_HEIGHT, PAGE_WIDTH, type Slide, type SlideObject } from '#shared/schemas/lesson/slide'
import { useRichTextPolicy } from '~/components/tms/rich-text'

const transform = (o: SlideObject) => (o.rotation ? `rotate(${o.rotation} ${o.x + o.width / 2} ${o.y + o.height / 2})` : undefined)

function SlideShapeView({ o }: { o: Extract<SlideObject, { kind: 'shape' }> }) {
  const paint = { fill: o.fill || 'none', stroke: o.stroke || 'none', strokeWidth: o.stroke_width }
  if (o.shape === 'ellipse') return <ellipse cx={o.x + o.width / 2} cy={o.y + o.height / 2} rx={o.width / 2} ry={o.height / 2} {...paint} />
  if (o.shape === 'line' || o.shape === 'arrow')
    return (
      <line
        x1={o.x}
        y1={o.y + o.height / 2}
        x2={o.x + o.width}
        y2={o.y + o.height / 2}
        {...paint}
        stroke={o.stroke || '#000000'}
        markerEnd={o.shape === 'arrow' ? 'url(#slide-arrow)' : undefined}
      />
    )
  return <rect x={o.x} y={o.y} width={o.width} height={o.height} {...paint} />
}

/**
 * One slide of the slide document drawn as SVG in page units (viewBox 3508 × 2480: it scales to any width): shapes
 * and images as SVG, text boxes and formulas as HTML (rich text sanitized again, formulas by KaTeX) in
 * foreignObject. The student's player, the previews, the thumbnails and the image export draw with it — no canvas
 * library on the phone. Hidden objects and the persona box ("voice and image" overlay) are not drawn.
 */
export const SlideView = forwardRef<SVGSVGElement, { slide: Slide; label: string; className?: string }>(function SlideView({ slide, label, className }, ref) {
  const policy = useRichTextPolicy()
  const html = useMemo(
    () =>
      new Map(slide.objects.map((o) => [o.id, o.kind === 'text' ? renderRichText(o.html, policy) : o.kind === 'formula' ? renderFormula(o.latex, true) : ''])),
    [slide, policy],
  )
  return (
    <svg
      ref={ref}
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}`}
      className={`slide-view ${className ?? ''}`}
      role="img"
      aria-label={label}
    >
      <defs>
        <marker id="slide-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke" />
        </marker>
      </defs>
      <rect width={PAGE_WIDTH} height={PAGE_HEIGHT} fill={slide.background} />
      {slide.objects.map((o) => {
        if (o.hidden || o.kind === 'persona') return null
        const common = { key: o.id, opacity: o.opacity, transform: transform(o) }
        if (o.kind === 'shape')
          return (
            <g {...common}>
              <SlideShapeView o={o} />
            </g>
          )
        if (o.kind === 'image')
          return (
            <image {...common} href={o.src} x={o.x} y={o.y} width={o.width} height={o.height} preserveAspectRatio="xMidYMid meet">
              <title>{o.alt}</title>
            </image>
          )
        const style = o.kind === 'text' ? { fontSize: `${o.font_size}px`, color: o.color, textAlign: o.align } : { fontSize: '120px', color: o.color }
        return (
          <foreignObject {...common} x={o.x} y={o.y} width={o.width} height={o.height}>
            <div
              {...{ xmlns: 'http://www.w3.org/1999/xhtml' }}
              className={`slide-box slide-${o.kind}`}
              style={{ ...style, lineHeight: 1.25, width: '100%', height: '100%', overflow: 'hidden', fontFamily: 'system-ui, sans-serif' }}
              dangerouslySetInnerHTML={{ __html: html.get(o.id) ?? '' }}
            />
          </foreignObject>
        )
      })}
    </svg>
  )
})
