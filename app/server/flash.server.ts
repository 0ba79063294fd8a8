import { createCookie } from '@remix-run/cloudflare'
import * as v from 'valibot'

/** A message shown once on the next page (after a redirect), as a toast. */
export const Flash = v.object({
  kind: v.picklist(['info', 'success', 'warning', 'error']),
  message: v.pipe(v.string(), v.maxLength(300)),
  values: v.optional(v.record(v.string(), v.string())),
})
export type Flash = v.InferOutput<typeof Flash>

const flashCookie = createCookie('dash_flash', { sameSite: 'lax', path: '/', httpOnly: true, maxAge: 60 })

/** Set-Cookie value carrying a flash message to the next page. */
export function setFlash(flash: Flash): Promise<string> {
  return flashCookie.serialize(flash)
}

/** The pending flash message, and the Set-Cookie that clears it (when there was one). */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const raw = (await flashCookie.parse(request.headers.get('cookie'))) as unknown
  if (raw === null || raw === undefined) return { flash: null, clear: null }
  const parsed = v.safeParse(Flash, raw)
  return { flash: parsed.success ? parsed.output : null, clear: await flashCookie.serialize('', { maxAge: 0 }) }
}
