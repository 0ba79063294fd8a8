const enc = new TextEncoder()

export function bytesToBase64Url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/** A random URL-safe string of `bytes` random bytes (32 bytes = 256 bits by default). */
export function randomToken(bytes = 32): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/** Two hex digits of each byte value, made once (every request hashes its token, a transfer its body too). */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(text)))
  let hex = ''
  for (let i = 0; i < digest.length; i++) hex += HEX[digest[i]]
  return hex
}

/** Token hashes remembered by tokenHash; all are dropped when this many are held. */
export const MAX_TOKEN_HASHES = 512
const tokenHashes = new Map<string, string>()

/**
 * The SHA-256 (hex) of an auth token, as the session table keys it: every request hashes its token (the API's
 * x-api-key, the console's session cookie), and a WebCrypto digest per request was about a fifteenth of an API list
 * call's CPU. The hash depends on the token alone, so each isolate remembers the answer for the tokens it sees (at most
 * MAX_TOKEN_HASHES); the session itself is still read on every request.
 */
export async function tokenHash(token: string): Promise<string> {
  let hash = tokenHashes.get(token)
  if (hash === undefined) {
    hash = await sha256Hex(token)
    if (tokenHashes.size >= MAX_TOKEN_HASHES) tokenHashes.clear()
    tokenHashes.set(token, hash)
  }
  return hash
}

/** How many token hashes this isolate holds (tests check the bound). */
export const rememberedTokenHashes = () => tokenHashes.size

/** Constant-time comparison of two byte strings of any length. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

export async function hmacSign(secret: string, data: string): Promise<string> {
  const sig = await crypto.subtle.sign('HMAC', await hmacKey(secret), enc.encode(data))
  return bytesToBase64Url(new Uint8Array(sig))
}

export async function hmacVerify(secret: string, data: string, signature: string): Promise<boolean> {
  try {
    return await crypto.subtle.verify('HMAC', await hmacKey(secret), base64UrlToBytes(signature), enc.encode(data))
  } catch {
    return false
  }
}
