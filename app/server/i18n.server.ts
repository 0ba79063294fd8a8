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

/** Plain translations (and texts of calls with values) an instance remembers; all are dropped when this many are held. */
export const MAX_PLAIN_TRANSLATIONS = 5000

/** The options react-i18next's fixed t() adds to a call without options of its own (`lngs` and `keyPrefix` empty). */
const PLAIN_OPTIONS = new Set(['lng', 'lngs', 'ns', 'keyPrefix'])

/**
 * Option names i18next itself reads in a t() call (i18next 23's translator, interpolator and plural resolver): a call
 * naming one of them is never answered from memory. Any other name is an interpolation value.
 */
const I18NEXT_OPTIONS = new Set([
  'appendNamespaceToCIMode',
  'appendNamespaceToMissingKey',
  'applyPostProcessor',
  'context',
  'count',
  'defaultValue',
  'fallbackLng',
  'formatParams',
  'i18nResolved',
  'ignoreJSONStructure',
  'interpolation',
  'interpolationkey',
  'joinArrays',
  'keySeparator',
  'missingInterpolationHandler',
  'nest',
  'nsSeparator',
  'ordinal',
  'postProcess',
  'replace',
  'returnDetails',
  'returnEmptyString',
  'returnNull',
  'returnObjects',
  'skipInterpolation',
])

/** What starts a nested key in a text (i18next's default). */
const NESTING_PREFIX = '$t('

/** A `{{…}}` placeholder (i18next's default prefix and suffix) and the name in it. */
const PLACEHOLDERS = /\{\{-?\s*([^}]*?)\s*\}\}/g

/** i18next's interpolator (not in its public types): replaces `{{name}}` in a resolved text as its translator does. */
interface Interpolator {
  formatSeparator: string
  interpolate(text: string, data: object, lng: string | undefined, options: object): string
}

type Values = Record<string, unknown>

/**
 * A page calls `t()` a few hundred times, each resolved afresh by i18next (key parsing, the language hierarchy,
 * resource lookup, nesting and interpolation passes: about a twentieth of a page's CPU in a profile).
 * - A call with no options of its own answers the same text for as long as the instance's resources and language
 *   stay, so each instance remembers those answers (forgotten when a resource bundle or the language changes).
 * - A call with values (`t('resources.user.edit', { nick })`: a list's row actions make three per row) resolves to the
 *   same text before its values are put in, so the instance remembers that text (i18next's answer with
 *   `skipInterpolation`) and puts the values in with i18next's own interpolator, as its translator does. Only when the
 *   values are strings or numbers and the text neither nests other keys (`$t(…)`) nor formats a value
 *   (`{{n, number}}`); counts, contexts, default values, several keys and any other option i18next reads go through
 *   i18next whole.
 * - react-i18next's `t` is i18next's fixed t (`getFixedT(null, ns)`), which copies every call's options into a new
 *   object with `lngs: null` (once a reason the memory above never answered a component's call) before i18next sees
 *   them: about 3 µs of a 4 µs call with values. The instance's fixed t answers the calls above without the copy and
 *   hands everything else to i18next's.
 */
export function memoizePlainTranslations(instance: I18n): void {
  const translate = instance.t.bind(instance) as unknown as (...args: unknown[]) => unknown
  // Answers of plain calls and resolved texts of calls with values (null: not one to interpolate here), by language
  // and namespace, then key (a key is usually a literal, whose hash the engine keeps: no string is built per call).
  const known = new Map<string, Map<string, string>>()
  const templates = new Map<string, Map<string, string | null>>()
  let held = 0
  const forget = () => {
    known.clear()
    templates.clear()
    held = 0
  }
  instance.on('languageChanged', forget)
  instance.store.on('added', forget)
  instance.store.on('removed', forget)
  const interpolator = (instance.services as unknown as { interpolator?: Interpolator }).interpolator
  const { postProcess, interpolation } = instance.options as { postProcess?: unknown; interpolation?: Record<string, unknown> }
  // i18next's defaults for what a placeholder looks like, and nothing run after interpolation.
  const mayInterpolate =
    interpolator !== undefined &&
    !postProcess &&
    !interpolation?.defaultVariables &&
    (interpolation?.prefix ?? '{{') === '{{' &&
    (interpolation?.suffix ?? '}}') === '}}' &&
    (interpolation?.nestingPrefix ?? NESTING_PREFIX) === NESTING_PREFIX &&
    !['prefixEscaped', 'suffixEscaped', 'nestingPrefixEscaped', 'alwaysFormat'].some((o) => interpolation?.[o])

  /** Whether options hold interpolation values only: strings and numbers under names i18next does not read. */
  const valuesOnly = (options: object): boolean => {
    // for…in, not Object.entries: no array per call.
    for (const name in options) {
      const value = (options as Values)[name]
      if (PLAIN_OPTIONS.has(name) || I18NEXT_OPTIONS.has(name) || name.startsWith('defaultValue')) return false
      if (!(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) return false
    }
    return true
  }
  const scope = <V>(maps: Map<string, Map<string, V>>, lng: string | undefined, ns: string | undefined) => {
    const name = `${lng ?? ''}\u0001${ns ?? ''}`
    let map = maps.get(name)
    if (!map) {
      map = new Map()
      maps.set(name, map)
    }
    return map
  }
  const remember = <V>(map: Map<string, V>, key: string, value: V) => {
    if (held >= MAX_PLAIN_TRANSLATIONS) forget()
    held++
    map.set(key, value)
  }

  /** The answer to t(key, values) in a language and namespace from memory or the interpolator; undefined: ask i18next. */
  const answer = (lng: string | undefined, ns: string | undefined, key: string, values: Values | undefined): string | undefined => {
    if (values === undefined) {
      const answers = scope(known, lng, ns)
      let found = answers.get(key)
      if (found === undefined) {
        const text = translate(key, { lng, ns })
        if (typeof text !== 'string') return undefined
        remember(answers, key, text)
        found = text
      }
      return found
    }
    if (!mayInterpolate) return undefined
    const texts = scope(templates, lng, ns)
    let template = texts.get(key)
    if (template === undefined) {
      const text = translate(key, { lng, ns, skipInterpolation: true })
      // A missing key (answered as the key itself), nesting, formatted values and placeholders named as i18next's own
      // options (which i18next would fill from them) stay with i18next.
      const own =
        typeof text === 'string' &&
        text !== key &&
        !text.includes(NESTING_PREFIX) &&
        [...text.matchAll(PLACEHOLDERS)].every(([, name]) => !name.includes(interpolator!.formatSeparator) && !PLAIN_OPTIONS.has(name))
      template = own ? text : null
      remember(texts, key, template)
    }
    return template === null ? undefined : interpolator!.interpolate(template, values, lng || instance.language, values)
  }

  const t = (...args: unknown[]) => {
    const [key, options] = args
    if (
      typeof key === 'string' &&
      args.length <= 2 &&
      (options === undefined || (typeof options === 'object' && options !== null && !Array.isArray(options)))
    ) {
      // Split the options into the language and namespace (each a string or nothing, `lngs` and `keyPrefix` empty) and
      // the values.
      let lng: string | undefined
      let ns: string | undefined
      let values: Values | undefined
      let ok = true
      for (const name in options ?? {}) {
        const value = (options as Values)[name]
        if (PLAIN_OPTIONS.has(name)) {
          if (name === 'lng' || name === 'ns') {
            if (typeof value === 'string') {
              if (name === 'lng') lng = value
              else ns = value
            } else if (value != null) ok = false
          } else if (value != null) ok = false
        } else {
          values ??= {}
          values[name] = value
        }
      }
      if (ok && (values === undefined || valuesOnly(values))) {
        const found = answer(lng, ns, key, values)
        if (found !== undefined) return found
      }
    }
    return translate(...args)
  }
  instance.t = t as unknown as I18n['t']

  const getFixedT = instance.getFixedT.bind(instance) as (lng: unknown, ns: unknown, keyPrefix: unknown) => TFunction
  instance.getFixedT = ((lng: unknown, ns: unknown, keyPrefix: unknown) => {
    const fixed = getFixedT(lng, ns, keyPrefix)
    if (keyPrefix || (lng != null && typeof lng !== 'string') || (ns != null && typeof ns !== 'string')) return fixed
    const language = (lng as string | null) ?? undefined
    const namespace = (ns as string | null) ?? undefined
    const lean = (key: unknown, options?: unknown, ...rest: unknown[]) => {
      if (
        typeof key === 'string' &&
        rest.length === 0 &&
        (options === undefined || (typeof options === 'object' && options !== null && !Array.isArray(options) && valuesOnly(options)))
      ) {
        const found = answer(language, namespace, key, options as Values | undefined)
        if (found !== undefined) return found
      }
      return (fixed as unknown as (...args: unknown[]) => unknown)(key, options, ...rest)
    }
    // What i18next's fixed t carries (react-i18next reads nothing else of it).
    return Object.assign(lean, {
      lng: (fixed as unknown as Values).lng,
      lngs: (fixed as unknown as Values).lngs,
      ns: (fixed as unknown as Values).ns,
      keyPrefix: (fixed as unknown as Values).keyPrefix,
    })
  }) as unknown as I18n['getFixedT']
}
