/**
 * The whole stream as bytes, stopping (and cancelling the stream) as soon as it passes `max` bytes, whatever a
 * Content-Length said: `tooLarge()` is what the caller throws then.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}
