import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { DEFAULT_LOCALE, isLocale } from '~/i18n/config'
import { safeRedirect } from '~/server/auth.server'
import { localeCookie } from '~/server/cookies.server'

export const loader = () => redirect('/')

/** Stores the interface language in the `lng` cookie and returns to the page the user was on. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData()
  const wanted = form.get('locale')
  const locale = isLocale(wanted) ? wanted : DEFAULT_LOCALE
  throw redirect(safeRedirect(form.get('redirectTo')), { headers: { 'Set-Cookie': await localeCookie.serialize(locale) } })
}
