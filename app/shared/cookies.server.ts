import { createCookie } from '@remix-run/cloudflare'

/** Hosts served over plain HTTP in development, where `Secure` and `__Host-` cookies cannot be set. */
export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname.endsWith('.localhost')
}

/** Cookies get `Secure` and the `__Host-`/`__Secure-` prefixes everywhere but on local development hosts. */
export const secureFor = (request: Request) => !isLocalHost(new URL(request.url).hostname)

/** The realm chosen on a multi-realm host. */
export function realmCookie(request: Request) {
  const secure = secureFor(request)
  return createCookie(secure ? '__Host-dash_realm' : 'dash_realm', {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: 60 * 60 * 24 * 365,
  })
}
