import { describe, expect, it } from 'vitest'
import { catalogueAreas, catalogues } from '~/i18n/catalogues'
import { LOCALES } from '~/i18n/config'

const area = (path: string) => path.split('/').pop()!

describe('translation catalogues', () => {
  const reference = Object.keys(catalogues['pt-BR']).sort()

  it('has content', () => {
    expect(reference.length).toBeGreaterThan(50)
  })

  it.each(LOCALES)('%s has exactly the keys of pt-BR, none empty', (locale) => {
    const catalogue = catalogues[locale]
    expect(Object.keys(catalogue).sort()).toEqual(reference)
    for (const [key, text] of Object.entries(catalogue)) expect(text.trim(), key).not.toBe('')
  })

  it.each(LOCALES)('%s has the same area files, each with the keys of its pt-BR counterpart', (locale) => {
    const ref = Object.fromEntries(Object.entries(catalogueAreas['pt-BR']).map(([p, c]) => [area(p), Object.keys(c).sort()]))
    const mine = Object.fromEntries(Object.entries(catalogueAreas[locale]).map(([p, c]) => [area(p), Object.keys(c).sort()]))
    expect(mine).toEqual(ref)
  })

  it('defines each key in one area only', () => {
    const seen = new Map<string, string>()
    for (const [path, c] of Object.entries(catalogueAreas['pt-BR'])) {
      for (const key of Object.keys(c)) {
        expect(seen.get(key), `${key} in ${area(path)} and ${seen.get(key)}`).toBeUndefined()
        seen.set(key, area(path))
      }
    }
  })

  it.each(LOCALES)('%s keeps the same {{placeholders}} as pt-BR', (locale) => {
    const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort()
    const ref = catalogues['pt-BR']
    for (const [key, text] of Object.entries(catalogues[locale])) expect(placeholders(text), key).toEqual(placeholders(ref[key]))
  })

  it.each(['pt-BR', 'es-ES'] as const)('%s never shows the internal word "realm" (it is "domínio" / "dominio")', (locale) => {
    for (const [key, text] of Object.entries(catalogues[locale])) {
      const shown = text.replace(/{{[^}]*}}|{[^}]*}/g, '')
      expect(shown, key).not.toMatch(/\brealms?\b/i)
    }
  })
})
