import { createCookie, type Cookie } from '@remix-run/cloudflare'

/** Hosts served over plain HTTP in development, where `Secure` and `__Host-` cookies cannot be set. */
export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname.endsWith('.localhost')
}

/** Cookies get `Secure` and the `__Host-`/`__Secure-` prefixes everywhere but on local development hosts. */
export const secureFor = (request: Request) => !isLocalHost(new URL(request.url).hostname)

/**
 * The two forms of a cookie (secure, and plain for local hosts), made once per isolate: a cookie object holds only its
 * name and options (its `expires` is computed when read), and making one per request was a twentieth of a page's CPU.
 */
function cookiePair(make: (secure: boolean) => Cookie): (request: Request) => Cookie {
  const secure = make(true)
  const plain = make(false)
  return (request) => (secureFor(request) ? secure : plain)
}

/** The realm chosen on a multi-realm host. */
export const realmCookie = cookiePair((secure) =>
  createCookie(secure ? '__Host-dash_realm' : 'dash_realm', {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: 60 * 60 * 24 * 365,
  }),
)

/**
 * The session cookie holds the auth token; httpOnly so page scripts never see it, SameSite=Lax, and outside
 * localhost `Secure` with the `__Host-` prefix (bound to this exact host, path /). Shared: the Worker entry reads the
 * token of a console page to send its session lookup with the host lookup (worker/index.ts).
 */
export const sessionCookie = cookiePair((secure) =>
  createCookie(secure ? '__Host-dash_session' : 'dash_session', {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    // Sign-in sets each cookie's own Max-Age to its session's remaining lifetime (realm-tunable).
    maxAge: 60 * 60 * 12,
  }),
)

/** The auth token of the session cookie, or null. */
export async function sessionToken(request: Request): Promise<string | null> {
  const value = (await sessionCookie(request).parse(request.headers.get('cookie'))) as unknown
  return typeof value === 'string' && value.length > 0 ? value : null
}
