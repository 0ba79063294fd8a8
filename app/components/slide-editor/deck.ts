import * as v from 'valibot'
import { PAGE_HEIGHT, PAGE_WIDTH, Slide, SlideDeck, slideHasContent, type SlideObject, type SlideObjectKind } from '#shared/schemas/lesson/slide'

/**
 * The slide editor's document operations (issue 18), pure: every edit takes the deck and answers a new one, never
 * changing its input and never adding or reordering fields of objects it does not touch, so a deck loaded and saved
 * without an edit is the same JSON. The canvas (./slide-editor.client.tsx) and the tests share them.
 */

/** A fresh object or slide id (the contract's `[A-Za-z0-9_-]{1,40}`). */
export function newId(prefix: string): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(36).padStart(2, '0')).join('')
  return `${prefix}_${random}`.slice(0, 40)
}

export function emptySlide(id = newId('s')): Slide {
  return { id, background: '#ffffff', objects: [], narration: '', overlay: 'none' }
}

export type NewObject =
  | { kind: 'text' }
  | { kind: 'formula'; latex: string }
  | { kind: 'image'; src: string; alt: string }
  | { kind: 'shape'; shape: 'rect' | 'ellipse' | 'line' | 'arrow' }
  | { kind: 'persona' }

const DEFAULT_BOX: Record<SlideObjectKind, { width: number; height: number }> = {
  text: { width: 2000, height: 400 },
  formula: { width: 1200, height: 400 },
  image: { width: 1200, height: 900 },
  shape: { width: 800, height: 600 },
  persona: { width: 700, height: 900 },
}

/** A new object centred on the page (the persona box in the bottom-right corner, where the player draws it). */
export function createObject(spec: NewObject, name: string, id = newId(spec.kind)): SlideObject {
  const { width, height } = DEFAULT_BOX[spec.kind]
  const persona = spec.kind === 'persona'
  const base = {
    id,
    name,
    x: persona ? PAGE_WIDTH - width - 80 : Math.round((PAGE_WIDTH - width) / 2),
    y: persona ? PAGE_HEIGHT - height - 80 : Math.round((PAGE_HEIGHT - height) / 2),
    width,
    height,
    rotation: 0,
    opacity: 1,
    hidden: false,
    locked: false,
  }
  switch (spec.kind) {
    case 'text':
      return { ...base, kind: 'text', html: '<p></p>', font_size: 120, color: '#1f2937', align: 'left' }
    case 'formula':
      return { ...base, kind: 'formula', latex: spec.latex, color: '#1f2937' }
    case 'image':
      return { ...base, kind: 'image', src: spec.src, alt: spec.alt }
    case 'shape': {
      const line = spec.shape === 'line' || spec.shape === 'arrow'
      return {
        ...base,
        ...(line ? { height: 1 } : {}),
        kind: 'shape',
        shape: spec.shape,
        fill: line ? '' : '#dbeafe',
        stroke: '#1d4ed8',
        stroke_width: 12,
      }
    }
    case 'persona':
      return { ...base, kind: 'persona' }
  }
}

/** Replace one slide (by index) with what `edit` answers. */
export function updateSlide(deck: SlideDeck, index: number, edit: (s: Slide) => Slide): SlideDeck {
  return deck.map((s, i) => (i === index ? edit(s) : s))
}

/** Change fields of one object, keeping its key order (a changed `x` stays where `x` was). */
export function updateObject(slide: Slide, id: string, patch: Partial<SlideObject>): Slide {
  return { ...slide, objects: slide.objects.map((o) => (o.id === id ? ({ ...o, ...patch } as SlideObject) : o)) }
}

export function removeObjects(slide: Slide, ids: readonly string[]): Slide {
  return { ...slide, objects: slide.objects.filter((o) => !ids.includes(o.id) || o.locked) }
}

/** Move a layer: `forward` one step toward the front (the end of the array), `backward` toward the back. */
export function moveLayer(slide: Slide, id: string, direction: 'forward' | 'backward' | 'front' | 'back'): Slide {
  const from = slide.objects.findIndex((o) => o.id === id)
  if (from < 0) return slide
  const last = slide.objects.length - 1
  const to = direction === 'front' ? last : direction === 'back' ? 0 : Math.max(0, Math.min(last, from + (direction === 'forward' ? 1 : -1)))
  if (to === from) return slide
  const objects = [...slide.objects]
  const [moved] = objects.splice(from, 1)
  objects.splice(to, 0, moved)
  return { ...slide, objects }
}

/** Move an item of a list one step (slides in the slide list). */
export function moveItem<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta
  if (to < 0 || to >= list.length) return [...list]
  const out = [...list]
  ;[out[index], out[to]] = [out[to], out[index]]
  return out
}

const clampCoord = (n: number) => Math.round(Math.min(2 * PAGE_WIDTH, Math.max(-PAGE_WIDTH, n)))

/** Keyboard nudging: `step` page units per arrow press (×10 with Shift); locked objects stay. */
export function nudge(slide: Slide, ids: readonly string[], dx: number, dy: number): Slide {
  return {
    ...slide,
    objects: slide.objects.map((o) => (ids.includes(o.id) && !o.locked ? { ...o, x: clampCoord(o.x + dx), y: clampCoord(o.y + dy) } : o)),
  }
}

export const NUDGE_STEP = 10

/** The arrow key's move, or null for another key. */
export function nudgeDelta(key: string, shift: boolean): { dx: number; dy: number } | null {
  const step = NUDGE_STEP * (shift ? 10 : 1)
  switch (key) {
    case 'ArrowLeft':
      return { dx: -step, dy: 0 }
    case 'ArrowRight':
      return { dx: step, dy: 0 }
    case 'ArrowUp':
      return { dx: 0, dy: -step }
    case 'ArrowDown':
      return { dx: 0, dy: step }
    default:
      return null
  }
}

/** Pasted (or duplicated) objects: fresh ids, shifted so they do not hide their originals, unlocked. */
export function pasteObjects(slide: Slide, copied: readonly SlideObject[], offset = 60): { slide: Slide; ids: string[] } {
  const pasted = copied.map((o) => ({ ...o, id: newId(o.kind), x: clampCoord(o.x + offset), y: clampCoord(o.y + offset), locked: false }))
  return { slide: { ...slide, objects: [...slide.objects, ...pasted].slice(0, 200) }, ids: pasted.map((o) => o.id) }
}

/** A copy of a slide with fresh ids (slide and objects), inserted after it. */
export function duplicateSlide(deck: SlideDeck, index: number): SlideDeck {
  const source = deck[index]
  if (!source || deck.length >= 200) return deck
  const copy: Slide = { ...source, id: newId('s'), objects: source.objects.map((o) => ({ ...o, id: newId(o.kind) })) }
  return [...deck.slice(0, index + 1), copy, ...deck.slice(index + 1)]
}

// ---------------------------------------------------------------------------------------------------------------
// Undo and redo

export interface History<T> {
  past: T[]
  present: T
  future: T[]
  /** The tag of the last commit: consecutive commits with the same tag (typing in one field) are one undo step. */
  tag: string | null
}

export const HISTORY_LIMIT = 100

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], tag: null }
}

export function commit<T>(h: History<T>, next: T, tag: string | null = null): History<T> {
  if (next === h.present) return h
  if (tag !== null && tag === h.tag) return { ...h, present: next, future: [] }
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [], tag }
}

export function undo<T>(h: History<T>): History<T> {
  if (!h.past.length) return h
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future], tag: null }
}

export function redo<T>(h: History<T>): History<T> {
  if (!h.future.length) return h
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1), tag: null }
}

// ---------------------------------------------------------------------------------------------------------------
// Snapping and alignment guides

export interface Box {
  x: number
  y: number
  width: number
  height: number
}
export interface Guide {
  orientation: 'vertical' | 'horizontal'
  /** Page units: x of a vertical guide, y of a horizontal one. */
  position: number
}

/** Page units within which an edge or centre snaps (about 8 screen pixels at the usual zoom). */
export const SNAP_DISTANCE = 30

/**
 * Snap a moving box to the page's edges and centre lines and to the edges and centres of the other boxes: each axis
 * independently, to the nearest line within `distance`. Answers the snapped position and the guides to draw.
 */
export function snapBox(box: Box, others: readonly Box[], distance = SNAP_DISTANCE): { x: number; y: number; guides: Guide[] } {
  const lines = (b: Box, axis: 'x' | 'y') => (axis === 'x' ? [b.x, b.x + b.width / 2, b.x + b.width] : [b.y, b.y + b.height / 2, b.y + b.height])
  const page: Box = { x: 0, y: 0, width: PAGE_WIDTH, height: PAGE_HEIGHT }
  const guides: Guide[] = []
  const snapAxis = (axis: 'x' | 'y') => {
    const own = lines(box, axis)
    const targets = [page, ...others].flatMap((b) => lines(b, axis))
    let best: { delta: number; line: number } | null = null
    for (const target of targets) {
      for (const edge of own) {
        const delta = target - edge
        if (Math.abs(delta) <= distance && (!best || Math.abs(delta) < Math.abs(best.delta))) best = { delta, line: target }
      }
    }
    if (!best) return box[axis]
    guides.push({ orientation: axis === 'x' ? 'vertical' : 'horizontal', position: best.line })
    return box[axis] + best.delta
  }
  const x = snapAxis('x')
  const y = snapAxis('y')
  return { x, y, guides }
}

// ---------------------------------------------------------------------------------------------------------------
// Loading and saving

/** JSON with object keys sorted: equal for two values that differ only in key order. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  )
}

/**
 * A value checked against the contract, kept as it came (valibot's output lists an object's keys in the schema's
 * order, so a deck stored in another order would not round-trip): the input itself when the check dropped nothing,
 * the checked output when it did (unknown fields), null when it is not valid.
 */
function checked(value: unknown): SlideDeck | null {
  const parsed = v.safeParse(SlideDeck, value)
  if (!parsed.success) return null
  return sortedJson(parsed.output) === sortedJson(value) ? (value as SlideDeck) : parsed.output
}

/** A stored deck as the editor's document, or null when it is not a valid `SlideDeck`. Loaded and saved unedited, it is the same JSON. */
export function loadDeck(value: unknown): SlideDeck | null {
  return checked(value)
}

export type SaveResult = { ok: true; deck: SlideDeck; removed: number } | { ok: false; cause: 'slides_missing_content' | 'validation'; removed: number }

/**
 * The deck to store (seed 001 §5 "at least one slide with content; empty slides must be removed"): slides without
 * content are dropped; none left with content is refused. The result is checked against the contract.
 */
export function deckForSave(deck: SlideDeck): SaveResult {
  const kept = deck.filter(slideHasContent)
  const removed = deck.length - kept.length
  if (!kept.length) return { ok: false, cause: 'slides_missing_content', removed }
  const valid = checked(kept)
  return valid ? { ok: true, deck: valid, removed } : { ok: false, cause: 'validation', removed }
}
