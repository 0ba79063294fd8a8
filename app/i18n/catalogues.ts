import type { Locale } from './config'
import enUS from './locales/en-US'
import esES from './locales/es-ES'
import ptBR, { type Catalogue } from './locales/pt-BR'

/** Every catalogue, bundled: a Worker has no file system to load them from. */
export const catalogues: Record<Locale, Catalogue> = { 'pt-BR': ptBR, 'en-US': enUS, 'es-ES': esES }
export type TranslationKey = keyof Catalogue
