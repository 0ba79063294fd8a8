import { normalizeEmployeeId } from '#shared/schemas/auth'
import { base64UrlToBytes, bytesToBase64Url, hmacSign, hmacVerify, randomToken } from './crypto'

/**
 * The state single sign-on portal behind employee-token sign-in. The portal vouches for an employee by an
 * access token; the console exchanges it for a session. Production adapters (a state's own SSO) implement the
 * same interface; the local default is `HmacStatePortal`.
 */
export interface StatePortal {
  /** The employee the token vouches for, or the reason it does not. `jti` identifies the token for single use. */
  verify(token: string, now?: number): Promise<{ ok: true; id: string; jti: string; expiresAt: number } | { ok: false; reason: 'invalid' | 'expired' }>
}

interface Claims {
  realm: string
  id: string
  exp: number
  jti: string
}

/**
 * Local default: `ep1.<base64url JSON {realm, id, exp, jti}>.<HMAC-SHA256>`, signed with the realm's
 * `employee_token_secret`, expiring, and bound to one realm.
 */
export class HmacStatePortal implements StatePortal {
  constructor(
    private readonly secret: string,
    private readonly realm: string,
  ) {}

  async verify(token: string, now = Date.now()) {
    const [version, payload, signature, extra] = token.split('.')
    if (version !== 'ep1' || !payload || !signature || extra !== undefined) return { ok: false as const, reason: 'invalid' as const }
    if (!(await hmacVerify(this.secret, `${version}.${payload}`, signature))) return { ok: false as const, reason: 'invalid' as const }
    let claims: Claims
    try {
      claims = JSON.parse(new TextDecoder().decode(base64UrlToBytes(payload))) as Claims
    } catch {
      return { ok: false as const, reason: 'invalid' as const }
    }
    if (claims.realm !== this.realm || typeof claims.id !== 'string' || typeof claims.exp !== 'number' || typeof claims.jti !== 'string') {
      return { ok: false as const, reason: 'invalid' as const }
    }
    if (claims.exp * 1000 <= now) return { ok: false as const, reason: 'expired' as const }
    return { ok: true as const, id: normalizeEmployeeId(claims.id), jti: claims.jti, expiresAt: claims.exp * 1000 }
  }
}

/** Mints a token of the local portal (used by `npm start`'s demo link and the tests, as the portal would). */
export async function mintPortalToken(secret: string, realm: string, id: string, ttlSeconds: number, now = Date.now()): Promise<string> {
  const claims: Claims = { realm, id: normalizeEmployeeId(id), exp: Math.floor(now / 1000) + ttlSeconds, jti: randomToken(12) }
  const payload = bytesToBase64Url(new TextEncoder().encode(JSON.stringify(claims)))
  return `ep1.${payload}.${await hmacSign(secret, `ep1.${payload}`)}`
}

/** The portal of a realm, or null when none is configured (employee-token sign-in then reports it unavailable). */
export function statePortalFor(realm: { code: string; employee_token_secret?: unknown }): StatePortal | null {
  const secret = String(realm.employee_token_secret ?? '')
  return secret ? new HmacStatePortal(secret, realm.code) : null
}
