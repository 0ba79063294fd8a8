import { SIGNIN_METHODS, type SigninMethod } from '#shared/signin-methods'

/** Logo clicks that reveal the TV-provider tab where it is not the realm's first method (seed 000 §9). */
export const TV_PROVIDER_CLICKS = 10

/**
 * The sign-in tabs of a realm, in the order of its `allowed_signin` (seed 000 §2.1). Where the username-and-password
 * form (`iptv`, the TV provider) comes first it is the main form and carries the Google button, so Google has no tab
 * of its own; elsewhere `iptv` stays hidden until the logo has been clicked 10 times.
 */
export function signinTabs(allowed: readonly string[], tvUnlocked: boolean): SigninMethod[] {
  const known = [...new Set(allowed)].filter((m): m is SigninMethod => (SIGNIN_METHODS as readonly string[]).includes(m))
  const iptvFirst = known[0] === 'iptv'
  return known.filter((m) => (m === 'iptv' ? iptvFirst || tvUnlocked : m === 'google' ? !iptvFirst : true))
}

/** True when the Google button sits under the username form instead of having a tab. */
export function googleInUsernameForm(allowed: readonly string[]): boolean {
  return allowed[0] === 'iptv' && allowed.includes('google')
}
