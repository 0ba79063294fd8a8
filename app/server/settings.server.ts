import { createCookie } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { DEFAULT_SETTINGS, Settings } from '#shared/schemas/settings'

export const settingsCookie = createCookie('dash_settings', { sameSite: 'lax', path: '/', httpOnly: true, maxAge: 60 * 60 * 24 * 365 })

/** The display settings saved in the cookie; anything unreadable falls back to the defaults. */
export async function getSettings(request: Request): Promise<Settings> {
  const raw = (await settingsCookie.parse(request.headers.get('cookie'))) as unknown
  const parsed = v.safeParse(Settings, raw ?? {})
  return parsed.success ? parsed.output : DEFAULT_SETTINGS
}
