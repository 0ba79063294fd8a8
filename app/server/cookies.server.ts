import { createCookie } from '@remix-run/cloudflare'
import { secureFor } from '#shared/cookies.server'

// The session cookie is shared with the Worker entry (it prefetches a console page's session).
export { sessionCookie } from '#shared/cookies.server'

/** The interface language; readable by the page so the language menu needs no round trip to show it. */
export const localeCookie = createCookie('lng', { sameSite: 'lax', path: '/', maxAge: 60 * 60 * 24 * 365 })

/** The nonce of a Google sign-in in progress (10 minutes), checked against the id_token's `nonce`. */
export function googleNonceCookie(request: Request) {
  const secure = secureFor(request)
  return createCookie(secure ? '__Host-dash_g_nonce' : 'dash_g_nonce', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 600 })
}

/**
 * The two halves of a session handover between hosts (realm switch): the state on the host that started it, the
 * nonce on the target host. httpOnly, SameSite=Lax (sent on the top-level redirects between the two hosts), two
 * minutes, and only for the handover routes; `__Host-` needs Path=/, so outside localhost they are `__Secure-`.
 */
function handoverCookie(request: Request, name: string) {
  const secure = secureFor(request)
  return createCookie(secure ? `__Secure-${name}` : name, { httpOnly: true, sameSite: 'lax', secure, path: '/authentication/handover', maxAge: 120 })
}

export const handoverStateCookie = (request: Request) => handoverCookie(request, 'dash_handover_state')
export const handoverNonceCookie = (request: Request) => handoverCookie(request, 'dash_handover_nonce')
