import type { Locale } from './config'

/**
 * The catalogues, one file per area and language (`locales/<locale>/<area>.ts`), bundled: a Worker has no file
 * system. Adding an area is adding its three files; nothing to register. tests/components/i18n.test.ts fails when
 * a language misses a key of pt-BR.
 */
export type Catalogue = Record<string, string>

const modules = {
  'pt-BR': import.meta.glob<Catalogue>('./locales/pt-BR/*.ts', { eager: true, import: 'default' }),
  'en-US': import.meta.glob<Catalogue>('./locales/en-US/*.ts', { eager: true, import: 'default' }),
  'es-ES': import.meta.glob<Catalogue>('./locales/es-ES/*.ts', { eager: true, import: 'default' }),
}

const merge = (parts: Record<string, Catalogue>): Catalogue => Object.assign({}, ...Object.values(parts))

export const catalogues: Record<Locale, Catalogue> = {
  'pt-BR': merge(modules['pt-BR']),
  'en-US': merge(modules['en-US']),
  'es-ES': merge(modules['es-ES']),
}

/** Area files per language, for tests that check every area is complete. */
export const catalogueAreas = modules
