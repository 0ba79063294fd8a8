import { base64UrlToBytes, bytesToBase64Url, timingSafeEqual } from './crypto'

/**
 * Password hashes: PBKDF2-HMAC-SHA256 with a 16-byte random salt per password.
 *
 * Production Workers refuse more than 100,000 iterations in one deriveBits call, so the work is done as
 * `rounds` chained calls of 100,000 iterations each (the output of one round is the password of the next,
 * same salt). The default of 6 rounds is 600,000 iterations, the OWASP 2023 figure for PBKDF2-SHA256.
 * The stored form records its parameters: `pbkdf2-sha256$<rounds>x<iterations>$<salt>$<hash>`, so the
 * work factor can be raised later and old hashes still verify (and are upgraded on the next sign-in).
 */
export const ITERATIONS_PER_CALL = 100_000
export const DEFAULT_ROUNDS = 6

async function derive(password: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, rounds: number, iterations: number): Promise<Uint8Array<ArrayBuffer>> {
  let key = password
  for (let i = 0; i < rounds; i++) {
    const material = await crypto.subtle.importKey('raw', key, 'PBKDF2', false, ['deriveBits'])
    const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, 256)
    key = new Uint8Array(bits)
  }
  return key
}

export async function hashPassword(password: string, rounds = DEFAULT_ROUNDS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const hash = await derive(new TextEncoder().encode(password), salt, rounds, ITERATIONS_PER_CALL)
  return `pbkdf2-sha256$${rounds}x${ITERATIONS_PER_CALL}$${bytesToBase64Url(salt)}$${bytesToBase64Url(hash)}`
}

/** True when `password` matches `stored`. A malformed or empty stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^pbkdf2-sha256\$(\d+)x(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored)
  if (!m) {
    // Spend comparable time so a missing account is not told apart by timing.
    await derive(new TextEncoder().encode(password), new Uint8Array(16), DEFAULT_ROUNDS, ITERATIONS_PER_CALL)
    return false
  }
  const rounds = Number(m[1])
  const iterations = Math.min(Number(m[2]), ITERATIONS_PER_CALL)
  const actual = await derive(new TextEncoder().encode(password), base64UrlToBytes(m[3]), rounds, iterations)
  return timingSafeEqual(actual, base64UrlToBytes(m[4]))
}

/** True when a stored hash uses less work than the current default and should be recomputed. */
export function needsRehash(stored: string): boolean {
  const m = /^pbkdf2-sha256\$(\d+)x(\d+)\$/.exec(stored)
  return !m || Number(m[1]) * Number(m[2]) < DEFAULT_ROUNDS * ITERATIONS_PER_CALL
}
