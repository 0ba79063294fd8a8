import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../worker/lib/crypto'

describe('sha256Hex (worker/lib/crypto.ts): token and request hashes', () => {
  it('answers the standard SHA-256 digests in lower-case hex, leading zero digits kept', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    // A digest with bytes below 0x10 (each must still be two digits).
    const digest = await sha256Hex('realm-console 7')
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('realm-console 7')))
    expect(digest).toBe(Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''))
  })
})
