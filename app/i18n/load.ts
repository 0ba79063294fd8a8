import type { Locale } from './config'
import type { Catalogue } from './locales/pt-BR'

/** Loads one catalogue in the browser; each language is its own chunk, fetched only when used. */
export async function loadCatalogue(locale: Locale): Promise<Catalogue> {
  switch (locale) {
    case 'en-US':
      return (await import('./locales/en-US')).default
    case 'es-ES':
      return (await import('./locales/es-ES')).default
    default:
      return (await import('./locales/pt-BR')).default
  }
}
