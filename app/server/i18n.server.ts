import { catalogues } from '~/i18n/catalogues'
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '~/i18n/config'
import { Translator, type TFunction } from '~/i18n/translator'
import { localeCookie } from './cookies.server'

/** Locale from the `lng` cookie; pt-BR otherwise (seed 000 §9: language defaults to pt-BR). */
export async function getLocale(request: Request): Promise<Locale> {
  const locale = (await localeCookie.parse(request.headers.get('cookie'))) as unknown
  return isLocale(locale) ? locale : DEFAULT_LOCALE
}

/**
 * One translator per language for the life of the Worker: the catalogues are bundled and the same for every realm
 * and user, so nothing per request (or per tenant) is kept in it. The server render and getT use it.
 */
const translators = Object.fromEntries(LOCALES.map((locale) => [locale, new Translator(locale, catalogues[locale])])) as Record<Locale, Translator>

export function translatorFor(locale: Locale): Translator {
  return translators[locale]
}

/** A translate function for server-side text (CSV headers, titles). */
export async function getT(request: Request): Promise<TFunction> {
  return translatorFor(await getLocale(request)).t
}
