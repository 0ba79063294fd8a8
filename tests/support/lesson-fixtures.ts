import type { Slide } from '#shared/schemas/lesson/slide'

/** A text box of a lesson slide (the lesson tests' slides: workers and browser). */
export const textObject = (id: string, html: string) => ({
  id,
  name: 'Text',
  kind: 'text' as const,
  x: 100,
  y: 100,
  width: 1200,
  height: 300,
  rotation: 0,
  opacity: 1,
  hidden: false,
  locked: false,
  html,
  font_size: 72,
  color: '#111111',
  align: 'left' as const,
})

/** A slide with these objects, its narration and overlay. */
export const lessonSlide = (id: string, objects: Slide['objects'], narration = '', overlay: Slide['overlay'] = 'none'): Slide => ({
  id,
  background: '#ffffff',
  objects,
  narration,
  overlay,
})
