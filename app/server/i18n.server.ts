import { createInstance, type TFunction } from 'i18next'
import { RemixI18Next } from 'remix-i18next/server'
import { catalogues } from '~/i18n/catalogues'
import { DEFAULT_LOCALE, LOCALES, i18nOptions, isLocale, type Locale } from '~/i18n/config'
import { localeCookie } from './cookies.server'

/** Locale from the `lng` cookie; pt-BR otherwise (seed 000 §9: language defaults to pt-BR). */
export const i18nServer = new RemixI18Next({
  detection: { supportedLanguages: [...LOCALES], fallbackLanguage: DEFAULT_LOCALE, cookie: localeCookie, order: ['cookie'] },
  i18next: { ...i18nOptions, resources: Object.fromEntries(Object.entries(catalogues).map(([l, c]) => [l, { translation: c }])) },
})

export async function getLocale(request: Request): Promise<Locale> {
  const locale = await i18nServer.getLocale(request)
  return isLocale(locale) ? locale : DEFAULT_LOCALE
}

/** A translate function for server-side text (CSV headers, titles). */
export async function getT(request: Request): Promise<TFunction> {
  const locale = await getLocale(request)
  const instance = createInstance()
  await instance.init({ ...i18nOptions, lng: locale, resources: { [locale]: { translation: catalogues[locale] } } })
  return instance.t
}
