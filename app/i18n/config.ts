/** Interface languages (seed 000 §1): pt-BR is the default; the catalogues are flat `key → text` maps. */
export const LOCALES = ['pt-BR', 'en-US', 'es-ES'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'pt-BR'

export function isLocale(x: unknown): x is Locale {
  return typeof x === 'string' && (LOCALES as readonly string[]).includes(x)
}

/**
 * The browser loads its language's catalogue in two groups (app/i18n/vite-catalogues.ts): `signin`, the areas the
 * sign-in page and the pages around it use (root chrome, errors, realm choice, sign-in, captcha, recovery, consent),
 * and `console`, every other area. A route whose page needs only the first says so with `handle.catalogue =
 * 'signin'`; the console group then loads after hydration, before it is needed.
 */
export const CATALOGUE_GROUPS = {
  signin: ['common', 'auth', 'captcha', 'recover', 'realm-switch', 'shell', 'oauth2'],
  console: [] as string[],
} satisfies Record<string, string[]>
export type CatalogueGroup = keyof typeof CATALOGUE_GROUPS
