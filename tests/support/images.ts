const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]

/** The start of a real PNG of `width` × `height` (signature and IHDR chunk, `extra` zero bytes after): what uploads sniff. */
export const pngBytes = (width: number, height: number, extra = 0) =>
  new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
    ...be32(width),
    ...be32(height),
    8,
    6,
    0,
    0,
    0,
    ...new Array<number>(4 + extra).fill(0),
  ])
