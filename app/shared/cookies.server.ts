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

/** Session tokens read by sessionToken, by cookie name and Cookie header; all are dropped when this many are held. */
export const MAX_SESSION_HEADERS = 256
/** Longer Cookie headers are read afresh each time (the memory stays small). */
const MAX_REMEMBERED_HEADER = 4096
const tokensByHeader = new Map<string, string | null>()

/**
 * The auth token of the session cookie, or null. Every console page reads it twice (the Worker entry, the session
 * loader), and Remix decodes a cookie's value character by character; the answer depends on the cookie's name and the
 * Cookie header alone (the cookie is not signed), so the isolate remembers it per exact header text (at most
 * MAX_SESSION_HEADERS headers of up to 4 KB): a browser sends the same header with each request until a cookie changes.
 */
export async function sessionToken(request: Request): Promise<string | null> {
  const cookie = sessionCookie(request)
  const header = request.headers.get('cookie')
  if (!header) return null
  const key = header.length <= MAX_REMEMBERED_HEADER ? `${cookie.name}\u0000${header}` : null
  if (key !== null) {
    const known = tokensByHeader.get(key)
    if (known !== undefined) return known
  }
  const value = (await cookie.parse(header)) as unknown
  const token = typeof value === 'string' && value.length > 0 ? value : null
  if (key !== null) {
    if (tokensByHeader.size >= MAX_SESSION_HEADERS) tokensByHeader.clear()
    tokensByHeader.set(key, token)
  }
  return token
}

/** How many Cookie headers sessionToken holds (tests check the bound). */
export const rememberedSessionHeaders = () => tokensByHeader.size
