import { isLocalHost } from './cookies.server'

/** Two years, subdomains included: a realm host once reached over HTTPS is never reached over HTTP again. */
export const HSTS = 'max-age=63072000; includeSubDomains'

/** A fresh nonce (128 random bits, base64) for one response's scripts. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
}

/**
 * Headers every answer of the Worker carries (pages, API, files): no MIME sniffing, only the origin as referrer
 * across sites, and HSTS on every host but the local development ones (localhost, *.localhost, 127.0.0.1), which are
 * served over plain HTTP.
 */
export function applyBaseHeaders(headers: Headers, url: URL): void {
  headers.set('X-Content-Type-Options', 'nosniff')
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  if (!isLocalHost(url.hostname)) headers.set('Strict-Transport-Security', HSTS)
}

/**
 * Policy of HTML answers that are not console pages (e.g. the page of a deleted realm's host): no script at all,
 * never framed.
 */
export const NO_SCRIPT_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export interface PagePolicyOptions {
  /** This response's nonce: every inline script of the page carries it (Remix's, React's streaming ones). */
  nonce: string
  /** The page's address (its origin is `'self'`). */
  url: URL
  /** PARTYKIT_HOST: host and port of the PartyKit server the browser opens WebSockets to. */
  partykitHost?: string
  /** More origins the page's scripts call (the realm's API when it is not this Worker: the captcha widget calls it). */
  connect?: string[]
  /** More origins forms may be sent to (the OAuth2 consent returns to the client's redirect URI). */
  formAction?: string[]
}

/** `scheme://host` of an absolute URL, or null when it is not one (or is the page's own origin). */
export function otherOrigin(value: unknown, page: URL): string | null {
  if (typeof value !== 'string' || !value) return null
  try {
    const u = new URL(value)
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null
    return u.origin === page.origin ? null : u.origin
  } catch {
    return null
  }
}

/**
 * The Content-Security-Policy of console pages. Scripts: this response's nonce (Remix's inline scripts and React's
 * streaming scripts carry it) and the console's own hashed modules ('self'; uploads on this origin are never served
 * with a script type, and `nosniff` stops a browser from guessing one). Styles allow inline style attributes and
 * elements: React `style` props, KaTeX's typeset formulas and the rich-text editor use them, and CSS runs no script.
 * Images and media come from this origin, data: and blob: URLs (captcha PNG, previews) and any HTTPS host (realm
 * logos, avatars, files on the realm's CDN). Frames only the privacy-enhanced YouTube player (video links). Nothing
 * frames the console, plugins are off, `<base>` cannot move relative URLs.
 */
export function pagePolicy(o: PagePolicyOptions): string {
  const party = o.partykitHost ? o.partykitHost.replace(/^(https?|wss?):\/\//, '').replace(/\/+$/, '') : ''
  const connect = ["'self'", ...(party ? [`ws://${party}`, `wss://${party}`] : []), ...(o.connect ?? [])]
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", `'nonce-${o.nonce}'`]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:', 'https:']],
    ['media-src', ["'self'", 'blob:', 'https:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', [...new Set(connect)]],
    ['worker-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['frame-src', ['https://www.youtube-nocookie.com']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', [...new Set(["'self'", ...(o.formAction ?? [])])]],
    ['frame-ancestors', ["'none'"]],
  ]
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ')
}
