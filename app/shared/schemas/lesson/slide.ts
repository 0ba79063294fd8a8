import * as v from 'valibot'
import { MAX_LATEX } from '../../rich-text'

/**
 * The slide document (issue 18): what the slide editor (konva) edits, the lesson stores, the generator writes and the
 * student's player and the exports draw. One shape for all of them; it round-trips exactly (no defaults are added on
 * save that were not in the input — every field is required).
 *
 * Coordinates are in page units of the lesson's page, seed 000 §9: 3508 × 2480 (A4 landscape at 300 dpi).
 */
export const PAGE_WIDTH = 3508
export const PAGE_HEIGHT = 2480

const Coord = v.pipe(v.number('validation.number'), v.finite('validation.number'), v.minValue(-PAGE_WIDTH), v.maxValue(2 * PAGE_WIDTH))
const Size = v.pipe(v.number('validation.number'), v.finite('validation.number'), v.minValue(1), v.maxValue(2 * PAGE_WIDTH))
const Color = v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'validation.lesson.color'))
const ObjectId = v.pipe(v.string('validation.required'), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'validation.id'))

/** What every object on a slide has: a layer in the layers panel (order = array order, first is at the back). */
const base = {
  id: ObjectId,
  name: v.pipe(v.string(), v.maxLength(80, 'validation.max_length')),
  x: Coord,
  y: Coord,
  width: Size,
  height: Size,
  rotation: v.pipe(v.number('validation.number'), v.finite('validation.number'), v.minValue(-360), v.maxValue(360)),
  opacity: v.pipe(v.number('validation.number'), v.minValue(0), v.maxValue(1)),
  hidden: v.boolean('validation.boolean'),
  locked: v.boolean('validation.boolean'),
}

/** A text box: rich text as the rich-text editor writes it (sanitized with `sanitizeRichText` on the server). */
export const SlideText = v.object({
  ...base,
  kind: v.literal('text'),
  html: v.pipe(v.string(), v.maxLength(20_000, 'validation.max_length')),
  font_size: v.pipe(v.number('validation.number'), v.minValue(8), v.maxValue(600)),
  color: Color,
  align: v.picklist(['left', 'center', 'right'], 'validation.picklist'),
})

/** An image from an upload or an asset: its address under the realm's files (checked like every file reference). */
export const SlideImage = v.object({
  ...base,
  kind: v.literal('image'),
  src: v.pipe(v.string('validation.required'), v.minLength(1, 'validation.required'), v.maxLength(2000, 'validation.max_length')),
  alt: v.pipe(v.string(), v.maxLength(300, 'validation.max_length')),
})

export const SlideShape = v.object({
  ...base,
  kind: v.literal('shape'),
  shape: v.picklist(['rect', 'ellipse', 'line', 'arrow'], 'validation.picklist'),
  fill: v.union([Color, v.literal('')]),
  stroke: v.union([Color, v.literal('')]),
  stroke_width: v.pipe(v.number('validation.number'), v.minValue(0), v.maxValue(200)),
})

/** A formula: LaTeX rendered with KaTeX (checked with `formulaProblem`). */
export const SlideFormula = v.object({
  ...base,
  kind: v.literal('formula'),
  latex: v.pipe(v.string('validation.required'), v.minLength(1, 'validation.required'), v.maxLength(MAX_LATEX, 'validation.max_length')),
  color: Color,
})

/** The persona or assistant overlay of the slide (issue 18: "only voice" draws nothing; "voice and image" draws this box). */
export const SlidePersona = v.object({
  ...base,
  kind: v.literal('persona'),
})

export const SlideObject = v.variant('kind', [SlideText, SlideImage, SlideShape, SlideFormula, SlidePersona], 'validation.picklist')
export type SlideObject = v.InferOutput<typeof SlideObject>
export type SlideObjectKind = SlideObject['kind']

export const OVERLAY_MODES = ['none', 'voice', 'voice_image'] as const

export const Slide = v.object({
  id: ObjectId,
  background: Color,
  objects: v.pipe(v.array(SlideObject), v.maxLength(200, 'validation.max_items')),
  /** What the narrator says on this slide (seed 001 §9 narration lengths). */
  narration: v.pipe(v.string(), v.maxLength(5000, 'validation.max_length')),
  /** Persona or assistant overlay per slide (seed 001 §3: only voice, or voice and image). */
  overlay: v.picklist(OVERLAY_MODES, 'validation.picklist'),
})
export type Slide = v.InferOutput<typeof Slide>

/** A slide has content when one visible object says something (seed 001 §5 "at least one slide with content; empty slides must be removed"). */
export function slideHasContent(slide: Slide): boolean {
  return slide.objects.some((o) => {
    if (o.hidden) return false
    if (o.kind === 'text') return o.html.replace(/<[^>]*>/g, '').trim().length > 0
    return o.kind !== 'persona'
  })
}

/** The slide list of a presentation: at most 200 slides. */
export const SlideDeck = v.pipe(v.array(Slide), v.maxLength(200, 'validation.max_items'))
export type SlideDeck = v.InferOutput<typeof SlideDeck>
