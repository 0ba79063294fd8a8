/** Interface languages (seed 000 §1): pt-BR is the default; the catalogues are flat `key → text` maps. */
export const LOCALES = ['pt-BR', 'en-US', 'es-ES'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'pt-BR'

export function isLocale(x: unknown): x is Locale {
  return typeof x === 'string' && (LOCALES as readonly string[]).includes(x)
}

/** Shared i18next options; flat keys, so `.` is part of a key and not a path separator. */
export const i18nOptions = {
  supportedLngs: [...LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  defaultNS: 'translation',
  keySeparator: false as const,
  nsSeparator: false as const,
  interpolation: { escapeValue: false },
}
