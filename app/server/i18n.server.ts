import { createInstance, type i18n as I18n, type TFunction } from 'i18next'
import { initReactI18next } from 'react-i18next'
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

/**
 * One i18next instance per language for the life of the Worker, made on first use. The catalogues are bundled and
 * the same for every realm and user, and an instance's language never changes, so nothing per request, per tenant or
 * per user lives in it; making an instance per request was a tenth of a page's CPU.
 */
const instances = new Map<Locale, I18n>()

export function i18nFor(locale: Locale): I18n {
  let instance = instances.get(locale)
  if (!instance) {
    instance = createInstance()
    // Resources are given inline and initImmediate is off: init completes synchronously.
    void instance
      .use(initReactI18next)
      // `load: 'currentOnly'`: a t() resolves through the instance's one language and the fallback, not through the
      // language part (`pt`) as well, which supportedLngs rejects anyway (the same answer, less work per t()).
      .init({ ...i18nOptions, lng: locale, load: 'currentOnly', initImmediate: false, resources: { [locale]: { translation: catalogues[locale] } } })
    memoizeLanguageCodes(instance)
    memoizePlainTranslations(instance)
    instances.set(locale, instance)
  }
  return instance
}

/** A translate function for server-side text (CSV headers, titles). */
export async function getT(request: Request): Promise<TFunction> {
  return i18nFor(await getLocale(request)).t
}

/** Language codes an instance formats, at most this many remembered (it is asked for its own and the fallback). */
const MAX_CODES = 16

/**
 * i18next resolves every `t()` through its language hierarchy, formatting the language code each time with
 * `Intl.getCanonicalLocales` (about a twentieth of a page's CPU in a profile: a page calls `t()` a few hundred times).
 * The answer depends on the code alone, so each instance remembers it.
 */
export function memoizeLanguageCodes(instance: I18n): void {
  const utils = instance.services.languageUtils as { formatLanguageCode(code: string): string }
  const format = utils.formatLanguageCode.bind(utils)
  const known = new Map<string, string>()
  utils.formatLanguageCode = (code) => {
    let found = known.get(code)
    if (found === undefined) {
      found = format(code)
      if (known.size < MAX_CODES) known.set(code, found)
    }
    return found
  }
}

/** Plain translations an instance remembers; all are dropped when this many are held. */
export const MAX_PLAIN_TRANSLATIONS = 5000

/** The options react-i18next's fixed t() adds to a call without options of its own. */
const PLAIN_OPTIONS = new Set(['lng', 'lngs', 'ns', 'keyPrefix'])

/**
 * A page calls `t(key)` a few hundred times, each resolved afresh by i18next (key parsing, the language hierarchy,
 * resource lookup, nesting and interpolation passes: about a twentieth of a page's CPU in a profile). A call with no
 * options of its own — only the language and namespace that react-i18next's fixed t() adds — answers the same text
 * for as long as the instance's resources and language stay, so each instance remembers those answers (they are
 * forgotten when a resource bundle or the language changes). Calls with values, counts, contexts, default values or
 * several keys are not remembered.
 */
export function memoizePlainTranslations(instance: I18n): void {
  const translate = instance.t.bind(instance) as unknown as (...args: unknown[]) => unknown
  const known = new Map<string, string>()
  const forget = () => known.clear()
  instance.on('languageChanged', forget)
  instance.store.on('added', forget)
  instance.store.on('removed', forget)
  const plain = (key: unknown, options: unknown, more: number): options is { lng?: unknown; ns?: unknown } => {
    if (typeof key !== 'string' || more > 2) return false
    if (options === undefined) return true
    if (typeof options !== 'object' || options === null) return false
    for (const [name, value] of Object.entries(options)) {
      if (!PLAIN_OPTIONS.has(name)) return false
      if (name === 'lng' || name === 'ns' ? value !== undefined && typeof value !== 'string' : value !== undefined) return false
    }
    return true
  }
  const t = (...args: unknown[]) => {
    const [key, options] = args
    if (!plain(key, options, args.length)) return translate(...args)
    const memoKey = `${(options?.lng as string | undefined) ?? ''}\u0001${(options?.ns as string | undefined) ?? ''}\u0001${key as string}`
    let found = known.get(memoKey)
    if (found === undefined) {
      const answer = translate(...args)
      if (typeof answer !== 'string') return answer
      if (known.size >= MAX_PLAIN_TRANSLATIONS) known.clear()
      known.set(memoKey, answer)
      found = answer
    }
    return found
  }
  instance.t = t as unknown as I18n['t']
}
