import { GLYPH_HEIGHT, GLYPH_WIDTH, inked } from './font'
import { encodeGrayPng } from './png'
import { between, intBetween } from './random'

export const IMAGE_WIDTH = 220
export const IMAGE_HEIGHT = 80

interface PlacedGlyph {
  ch: string
  cx: number
  cy: number
  cos: number
  sin: number
  shear: number
  scale: number
}

/**
 * Draws `text` as a distorted grayscale picture: each glyph is scaled, rotated and sheared on its own, the whole
 * picture is warped by two sine waves, then crossed by noise lines and speckled. The answer never appears in the
 * payload, only in these pixels.
 */
export function renderCaptchaPixels(text: string): Uint8Array {
  const w = IMAGE_WIDTH
  const h = IMAGE_HEIGHT
  const pixels = new Uint8Array(w * h)
  const step = (w - 20) / text.length
  const glyphs: PlacedGlyph[] = [...text].map((ch, i) => {
    const angle = between(-0.28, 0.28)
    return {
      ch,
      cx: 10 + step * (i + 0.5) + between(-3, 3),
      cy: h / 2 + between(-6, 6),
      cos: Math.cos(angle),
      sin: Math.sin(angle),
      shear: between(-0.22, 0.22),
      scale: between(5.2, 6.2),
    }
  })
  const wave = { ay: between(2, 4), py: between(60, 100), fy: between(0, Math.PI * 2), ax: between(1, 2), px: between(30, 50), fx: between(0, Math.PI * 2) }

  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // Background: light, with a faint diagonal texture and grain.
      let value = 228 + 14 * Math.sin((x + y) / 7) + between(-12, 12)
      const sx = x + wave.ax * Math.sin((2 * Math.PI * y) / wave.px + wave.fx)
      const sy = y + wave.ay * Math.sin((2 * Math.PI * x) / wave.py + wave.fy)
      for (const g of glyphs) {
        const dx = sx - g.cx
        const dy = sy - g.cy
        const v = -dx * g.sin + dy * g.cos
        const u = dx * g.cos + dy * g.sin - g.shear * v
        const fx = Math.floor(u / g.scale + GLYPH_WIDTH / 2)
        const fy = Math.floor(v / g.scale + GLYPH_HEIGHT / 2)
        if (inked(g.ch, fx, fy)) {
          value = 45 + between(-25, 25)
          break
        }
      }
      pixels[y * w + x] = Math.max(0, Math.min(255, Math.round(value)))
    }
  }

  // Noise lines in the ink's tone, so they cannot be filtered out by brightness alone.
  for (let n = 0; n < 5; n++) {
    const gray = intBetween(40, 120)
    const thick = n < 2 ? 2 : 1
    drawLine(pixels, w, h, between(0, w), between(0, h), between(0, w), between(0, h), gray, thick)
  }
  for (let n = 0; n < 350; n++) {
    pixels[intBetween(0, h - 1) * w + intBetween(0, w - 1)] = intBetween(0, 1) ? intBetween(0, 80) : intBetween(180, 255)
  }
  return pixels
}

function drawLine(pixels: Uint8Array, w: number, h: number, x0: number, y0: number, x1: number, y1: number, gray: number, thick: number) {
  const steps = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)))
  for (let i = 0; i <= steps; i++) {
    const t = steps === 0 ? 0 : i / steps
    const x = Math.round(x0 + (x1 - x0) * t)
    const y = Math.round(y0 + (y1 - y0) * t)
    for (let oy = 0; oy < thick; oy++) {
      for (let ox = 0; ox < thick; ox++) {
        const px = x + ox
        const py = y + oy
        if (px >= 0 && px < w && py >= 0 && py < h) pixels[py * w + px] = gray
      }
    }
  }
}

/** The picture of `text` as a `data:image/png;base64,…` URL. */
export async function renderCaptchaImage(text: string): Promise<string> {
  const png = await encodeGrayPng(IMAGE_WIDTH, IMAGE_HEIGHT, renderCaptchaPixels(text))
  let binary = ''
  for (const b of png) binary += String.fromCharCode(b)
  return `data:image/png;base64,${btoa(binary)}`
}
