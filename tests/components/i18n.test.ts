import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { LOCALES } from '~/i18n/config'

describe('translation catalogues', () => {
  const reference = Object.keys(catalogues['pt-BR']).sort()

  it.each(LOCALES)('%s has exactly the keys of pt-BR, none empty', (locale) => {
    const catalogue = catalogues[locale] as Record<string, string>
    expect(Object.keys(catalogue).sort()).toEqual(reference)
    for (const [key, text] of Object.entries(catalogue)) expect(text.trim(), key).not.toBe('')
  })

  it.each(LOCALES)('%s keeps the same {{placeholders}} as pt-BR', (locale) => {
    const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort()
    const ref = catalogues['pt-BR'] as Record<string, string>
    for (const [key, text] of Object.entries(catalogues[locale] as Record<string, string>)) {
      expect(placeholders(text), key).toEqual(placeholders(ref[key]))
    }
  })
})
