import { isAcceptedUrl } from './schemas/common'

/**
 * The conference deep link (issue 13, seed 000 §2.1 "Conference deep link"): a shared link to a channel opens
 * `/deeplink?channel={id}` (on a multi-realm host `&realm={code}`), which offers the three ways in: the realm's
 * app (`{app_scheme}://channel/{id}?realm={code}`; `/deeplink/app` tries it at once), the app stores, and the
 * browser (`web_client_url`, its `{channel}` placeholder replaced or `?channel={id}` added; without one, the
 * console's own participant view `/live/{id}`).
 * A console room's shared link (issue 20) is `/deeplink?room={id}`: the app as `{app_scheme}://room/{id}?realm={code}`,
 * the stores, and the browser always in the console's room participant view `/live/room/{id}` (the realm's web client
 * is a channel client: its address names channels).
 */

/** A URL scheme an app may register (RFC 3986), never one a browser runs or reads itself. */
export const APP_SCHEME_PATTERN = /^[a-z][a-z0-9+.-]{1,31}$/
export const RESERVED_SCHEMES = ['http', 'https', 'javascript', 'data', 'file', 'blob', 'about', 'ftp', 'ws', 'wss', 'mailto', 'tel', 'vbscript']

export interface DeeplinkRealmFields {
  code: string
  app_scheme: string
  ios_store_url: string
  android_store_url: string
  web_client_url: string
}

export interface DeeplinkLinks {
  /** Opens the realm's app, or null when the realm has no app scheme. */
  app: string | null
  ios: string | null
  android: string | null
  /** The web client, or the participant view of this console (a path). */
  browser: string
}

const stored = (url: string) => (url && isAcceptedUrl(url) ? url : null)

export function deeplinkLinks(realm: DeeplinkRealmFields, channelId: string, kind: 'channel' | 'room' = 'channel'): DeeplinkLinks {
  const id = encodeURIComponent(channelId)
  const scheme = APP_SCHEME_PATTERN.test(realm.app_scheme) && !RESERVED_SCHEMES.includes(realm.app_scheme) ? realm.app_scheme : null
  const web = kind === 'channel' ? stored(realm.web_client_url) : null
  let browser = kind === 'room' ? `/live/room/${id}` : `/live/${id}`
  if (web) {
    if (web.includes('{channel}')) browser = web.replaceAll('{channel}', id)
    else {
      const u = new URL(web)
      u.searchParams.set('channel', channelId)
      browser = u.toString()
    }
  }
  return {
    app: scheme ? `${scheme}://${kind}/${id}?realm=${encodeURIComponent(realm.code)}` : null,
    ios: stored(realm.ios_store_url),
    android: stored(realm.android_store_url),
    browser,
  }
}

export type VisitorPlatform = 'ios' | 'android' | 'other'

/** The visitor's platform from the user agent: which store to offer (both when it is neither). */
export function visitorPlatform(userAgent: string | null | undefined): VisitorPlatform {
  const ua = userAgent ?? ''
  if (/android/i.test(ua)) return 'android'
  if (/iphone|ipad|ipod/i.test(ua)) return 'ios'
  return 'other'
}

/** The shared link of a channel: the deep-link page on `origin`, naming the realm on a multi-realm host. */
export function sharedChannelLink(origin: string, channelId: string, realm: string | null, kind: 'channel' | 'room' = 'channel'): string {
  const q = new URLSearchParams({ [kind]: channelId })
  if (realm) q.set('realm', realm)
  return `${origin}/deeplink?${q}`
}
