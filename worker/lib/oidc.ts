import { base64UrlToBytes } from './crypto'

/**
 * Verification of OpenID Connect id_tokens (Google sign-in): RS256 signature against the issuer's JWKS, issuer,
 * audience (the realm's client id), expiry and nonce. Keys are cached per JWKS URL and fetched again when a token
 * names a key id the cache does not hold (key rotation).
 */
export interface IdTokenClaims {
  iss: string
  sub: string
  aud: string | string[]
  exp: number
  iat?: number
  nonce?: string
  email?: string
  email_verified?: boolean | string
  name?: string
  picture?: string
  hd?: string
}

export class OidcError extends Error {
  constructor(
    readonly reason: 'malformed' | 'signature' | 'issuer' | 'audience' | 'expired' | 'nonce' | 'unavailable',
    message: string,
  ) {
    super(message)
  }
}

interface Jwk {
  kty: string
  kid?: string
  alg?: string
  n?: string
  e?: string
  use?: string
}

const JWKS_TTL_MS = 60 * 60_000
const REFETCH_MIN_MS = 30_000
const jwksCache = new Map<string, { keys: Jwk[]; fetchedAt: number }>()

async function fetchJwks(url: string): Promise<Jwk[]> {
  let res: Response
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } })
  } catch (err) {
    throw new OidcError('unavailable', `The identity provider's keys could not be fetched: ${String(err)}`)
  }
  if (!res.ok) throw new OidcError('unavailable', `The identity provider's keys answered HTTP ${res.status}.`)
  const body = (await res.json().catch(() => null)) as { keys?: Jwk[] } | null
  if (!body || !Array.isArray(body.keys)) throw new OidcError('unavailable', 'The identity provider answered no key set.')
  jwksCache.set(url, { keys: body.keys, fetchedAt: Date.now() })
  return body.keys
}

async function keyFor(jwksUrl: string, kid: string | undefined): Promise<Jwk> {
  const find = (keys: Jwk[]) => keys.find((k) => k.kty === 'RSA' && (kid === undefined || k.kid === kid))
  const cached = jwksCache.get(jwksUrl)
  const fresh = cached !== undefined && Date.now() - cached.fetchedAt < JWKS_TTL_MS
  let key = find(fresh ? cached.keys : await fetchJwks(jwksUrl))
  // An unknown key id may be a rotated key: fetch the set again, at most every REFETCH_MIN_MS.
  if (!key && fresh && Date.now() - cached.fetchedAt >= REFETCH_MIN_MS) key = find(await fetchJwks(jwksUrl))
  if (!key) throw new OidcError('signature', `No key ${kid ?? ''} in the identity provider's key set.`)
  return key
}

function decodeJson<T>(part: string): T {
  try {
    return JSON.parse(new TextDecoder().decode(base64UrlToBytes(part))) as T
  } catch {
    throw new OidcError('malformed', 'The token is not a JWT.')
  }
}

export interface VerifyOptions {
  jwksUrl: string
  /** Accepted `iss` values. */
  issuers: string[]
  audience: string
  nonce?: string
  now?: number
  /** Tolerated clock difference, in seconds. */
  leeway?: number
}

export async function verifyIdToken(token: string, opts: VerifyOptions): Promise<IdTokenClaims> {
  const parts = token.split('.')
  if (parts.length !== 3) throw new OidcError('malformed', 'The token is not a JWT.')
  const header = decodeJson<{ alg?: string; kid?: string }>(parts[0])
  if (header.alg !== 'RS256') throw new OidcError('malformed', `Unsupported signature algorithm ${header.alg}.`)
  const jwk = await keyFor(opts.jwksUrl, header.kid)
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RS256', ext: true },
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['verify'],
  )
  let signature: Uint8Array<ArrayBuffer>
  try {
    signature = base64UrlToBytes(parts[2])
  } catch {
    throw new OidcError('malformed', 'The token signature is not base64url.')
  }
  const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`)
  if (!(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signature, signed))) throw new OidcError('signature', 'The token signature is not valid.')
  const claims = decodeJson<IdTokenClaims>(parts[1])
  if (!opts.issuers.includes(claims.iss)) throw new OidcError('issuer', `The token was issued by ${claims.iss}.`)
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (!opts.audience || !audiences.includes(opts.audience)) throw new OidcError('audience', 'The token was issued for another application.')
  const now = (opts.now ?? Date.now()) / 1000
  if (typeof claims.exp !== 'number' || claims.exp + (opts.leeway ?? 60) <= now) throw new OidcError('expired', 'The token has expired.')
  if (opts.nonce !== undefined && claims.nonce !== opts.nonce) throw new OidcError('nonce', 'The token was not issued for this sign-in.')
  return claims
}

/** Google's issuer writes `iss` with or without the scheme; both forms are accepted for any issuer. */
export function issuerForms(issuer: string): string[] {
  const bare = issuer.replace(/^https?:\/\//, '').replace(/\/$/, '')
  return [...new Set([issuer.replace(/\/$/, ''), bare])]
}

/** The issuer's OpenID configuration (authorization endpoint for the browser flow). */
export async function discover(issuer: string): Promise<{ authorization_endpoint: string; jwks_uri: string }> {
  let res: Response
  try {
    res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } })
  } catch (err) {
    throw new OidcError('unavailable', `The identity provider could not be reached: ${String(err)}`)
  }
  const body = (await res.json().catch(() => null)) as { authorization_endpoint?: string; jwks_uri?: string } | null
  if (!res.ok || !body?.authorization_endpoint) throw new OidcError('unavailable', 'The identity provider answered no configuration.')
  return { authorization_endpoint: body.authorization_endpoint, jwks_uri: body.jwks_uri ?? '' }
}
