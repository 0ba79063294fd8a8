import { base64UrlToBytes, bytesToBase64Url, hmacSign, hmacVerify } from './crypto'

export interface MetaverseClaims {
  realm: string
  /** Nick of the staff member who generated the token. */
  sub: string
  email: string
  host: string
  iat: number
  exp: number
}

/** `<claims>.<signature>`: base64url JSON claims and their HMAC-SHA256 with the realm's metaverse API token. */
export async function signMetaverseToken(secret: string, claims: MetaverseClaims): Promise<string> {
  const body = bytesToBase64Url(new TextEncoder().encode(JSON.stringify(claims)))
  return `${body}.${await hmacSign(secret, body)}`
}

/** The claims of a token signed with `secret` that has not expired at `now` (seconds), else null. */
export async function verifyMetaverseToken(secret: string, token: string, now = Math.floor(Date.now() / 1000)): Promise<MetaverseClaims | null> {
  const [body, signature, ...rest] = token.split('.')
  if (!body || !signature || rest.length || !(await hmacVerify(secret, body, signature))) return null
  try {
    const claims = JSON.parse(new TextDecoder().decode(base64UrlToBytes(body))) as MetaverseClaims
    return claims.exp > now ? claims : null
  } catch {
    return null
  }
}
