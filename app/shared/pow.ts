/**
 * Proof of work shared by the Worker (verification) and the browser's Web Worker (solving): find a nonce such that
 * SHA-256(`<challengeId>:<nonce>`) starts with at least `difficulty` zero bits.
 */
export function leadingZeroBits(hash: Uint8Array): number {
  let bits = 0
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8
      continue
    }
    return bits + Math.clz32(byte) - 24
  }
  return bits
}

export async function powHash(challengeId: string, nonce: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${challengeId}:${nonce}`)))
}

/** True when `nonce` solves the challenge. */
export async function powSolves(challengeId: string, nonce: string, difficulty: number): Promise<boolean> {
  return leadingZeroBits(await powHash(challengeId, nonce)) >= difficulty
}

/**
 * Searches nonces 0, 1, 2… in batches (hashing a batch concurrently is much faster than one at a time) and reports
 * progress after each batch; stops early when `cancelled()` turns true.
 */
export async function solvePow(
  challengeId: string,
  difficulty: number,
  onProgress: (tried: number) => void = () => undefined,
  cancelled: () => boolean = () => false,
  batch = 512,
): Promise<string | null> {
  for (let start = 0; start < 2 ** 32; start += batch) {
    if (cancelled()) return null
    const hashes = await Promise.all(Array.from({ length: batch }, (_, i) => powHash(challengeId, String(start + i))))
    const found = hashes.findIndex((h) => leadingZeroBits(h) >= difficulty)
    if (found >= 0) return String(start + found)
    onProgress(start + batch)
  }
  return null
}
