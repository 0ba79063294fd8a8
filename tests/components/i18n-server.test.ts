import { createInstance } from 'i18next'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { i18nOptions } from '~/i18n/config'
import { i18nFor } from '~/server/i18n.server'

describe("the server's i18next instances (one per language, app/server/i18n.server.ts)", () => {
  afterEach(() => vi.restoreAllMocks())

  it('translate as before, in each language, without canonicalizing the language code on every t()', () => {
    const canonical = vi.spyOn(Intl, 'getCanonicalLocales')
    const pt = i18nFor('pt-BR')
    const en = i18nFor('en-US')
    const first = [pt.t('app.skip_to_content'), en.t('app.skip_to_content'), pt.t('nav.overview')]
    canonical.mockClear()
    for (let i = 0; i < 50; i++) {
      expect([pt.t('app.skip_to_content'), en.t('app.skip_to_content'), pt.t('nav.overview')]).toEqual(first)
    }
    // A page calls t() hundreds of times; the codes were formatted once per instance, before.
    expect(canonical).not.toHaveBeenCalled()
    expect(first[0]).not.toBe(first[1])
    expect(first[0]).not.toBe('app.skip_to_content')
    expect(i18nFor('es-ES').t('app.skip_to_content')).not.toBe(first[1])
  })

  it('remembers plain translations (no values of their own), answering what i18next answers for every key', () => {
    const pt = i18nFor('pt-BR')
    const fresh = createInstance()
    void fresh.init({ ...i18nOptions, lng: 'pt-BR', load: 'currentOnly', initImmediate: false, resources: { 'pt-BR': { translation: catalogues['pt-BR'] } } })
    const fixed = pt.getFixedT('pt-BR', 'translation')
    const keys = Object.keys(catalogues['pt-BR'])
    expect(keys.length).toBeGreaterThan(100)
    for (const key of [...keys, 'no.such.key']) {
      const want = fresh.t(key)
      // Directly, through react-i18next's fixed t(), and again (from memory).
      expect([pt.t(key), fixed(key), pt.t(key), fixed(key)], key).toEqual([want, want, want, want])
    }
  })

  it('resolves a plain key once, and every call with values afresh', () => {
    const en = i18nFor('en-US')
    // i18next's translator (not in its public types) resolves every call that is not answered from memory.
    const translator = (en as unknown as { translator: { translate(key: unknown, options?: unknown): unknown } }).translator
    const translate = vi.spyOn(translator, 'translate')
    const fixed = en.getFixedT('en-US', 'translation')
    const key = 'nav.overview'
    for (let i = 0; i < 5; i++) fixed(key)
    expect(translate.mock.calls.filter(([k]) => k === key).length).toBeLessThanOrEqual(1)
    // Values, counts and default values are never answered from memory.
    const withValue = Object.keys(catalogues['en-US']).find((k) => catalogues['en-US'][k].includes('{{nick}}'))!
    const a = fixed(withValue, { nick: 'ana' })
    const b = fixed(withValue, { nick: 'bia' })
    expect(a).toContain('ana')
    expect(b).toContain('bia')
    expect(fixed('no.such.key', { defaultValue: 'first' })).toBe('first')
    expect(fixed('no.such.key', { defaultValue: 'second' })).toBe('second')
  })
})
