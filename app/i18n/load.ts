import type { Catalogue } from './catalogues'
import type { Locale } from './config'

const lazy = {
  'pt-BR': import.meta.glob<Catalogue>('./locales/pt-BR/*.ts', { import: 'default' }),
  'en-US': import.meta.glob<Catalogue>('./locales/en-US/*.ts', { import: 'default' }),
  'es-ES': import.meta.glob<Catalogue>('./locales/es-ES/*.ts', { import: 'default' }),
}

/** Loads one language's catalogue in the browser; each language is fetched only when used. */
export async function loadCatalogue(locale: Locale): Promise<Catalogue> {
  const parts = await Promise.all(Object.values(lazy[locale]).map((load) => load()))
  return Object.assign({}, ...parts)
}
