import { data, redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { settingsFromForm } from '#shared/schemas/settings'
import { safeRedirect } from '~/server/auth.server'
import { settingsCookie } from '~/server/settings.server'

export const loader = () => redirect('/')

/** Saves the display settings in their cookie; the next render (server included) applies them, so nothing flashes. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData()
  const parsed = settingsFromForm(form)
  if (!parsed.success) return data({ ok: false, errors: parsed.issues.map((i) => i.message) }, { status: 400 })
  const headers = { 'Set-Cookie': await settingsCookie.serialize(parsed.output) }
  // Without JavaScript the form posts here directly: go back to the page.
  if (form.get('redirectTo') && request.headers.get('sec-fetch-mode') === 'navigate') {
    throw redirect(safeRedirect(form.get('redirectTo')), { headers })
  }
  return data({ ok: true }, { headers })
}
