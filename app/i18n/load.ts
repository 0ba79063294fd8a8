import files from 'virtual:catalogue-files'
import type { Catalogue } from './catalogues'
import { CATALOGUE_GROUPS, type CatalogueGroup, type Locale } from './config'

export const GROUPS = Object.keys(CATALOGUE_GROUPS) as CatalogueGroup[]

/** The URL of a language's catalogue group (a content-hashed JSON asset). */
export const catalogueUrl = (locale: Locale, group: CatalogueGroup): string => files[locale][group]

/** Fetches catalogue files in the browser (the page preloads them: root.tsx) and merges them. */
export async function fetchCatalogues(urls: string[]): Promise<Catalogue> {
  const parts = await Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, { credentials: 'same-origin' })
      if (!res.ok) throw new Error(`catalogue ${url}: HTTP ${res.status}`)
      return (await res.json()) as Catalogue
    }),
  )
  return Object.assign({}, ...parts)
}
