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
    // What react-i18next's useTranslation() calls: no language (its calls then carry `lngs: null`).
    const component = pt.getFixedT(null, 'translation')
    const keys = Object.keys(catalogues['pt-BR'])
    expect(keys.length).toBeGreaterThan(100)
    for (const key of [...keys, 'no.such.key']) {
      const want = fresh.t(key)
      // Directly, through fixed t()s, and again (from memory).
      expect([pt.t(key), fixed(key), component(key), pt.t(key), fixed(key), component(key)], key).toEqual([want, want, want, want, want, want])
    }
  })

  it('answers calls with values as i18next does, for every key with a placeholder in every language', () => {
    for (const locale of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const fresh = createInstance()
      void fresh.init({ ...i18nOptions, lng: locale, load: 'currentOnly', initImmediate: false, resources: { [locale]: { translation: catalogues[locale] } } })
      const instance = i18nFor(locale)
      const fixed = instance.getFixedT(locale, 'translation')
      const component = instance.getFixedT(null, 'translation')
      const withValues = Object.entries(catalogues[locale]).filter(([, text]) => text.includes('{{'))
      expect(withValues.length, locale).toBeGreaterThan(20)
      for (const [key, text] of withValues) {
        const names = [...text.matchAll(/\{\{-?\s*([^},\s]+)/g)].map((m) => m[1])
        // Text with characters an escape would touch, a number, and (last) one placeholder left without a value.
        const sets = [
          Object.fromEntries(names.map((n, i) => [n, `<b>&"${n}'${i}`])),
          Object.fromEntries(names.map((n, i) => [n, 1000 + i])),
          Object.fromEntries(names.slice(1).map((n) => [n, n])),
        ]
        for (const values of sets) {
          const want = fresh.t(key, values)
          // Twice each: the second from the remembered text.
          expect([fixed(key, values), fixed(key, values), component(key, values), component(key, values), instance.t(key, values)], `${locale} ${key}`).toEqual(
            [want, want, want, want, want],
          )
        }
      }
      // A key that does not exist, counts (plurals), default values and other options go through i18next whole.
      expect(component('no.such.key', { nick: 'ana' })).toBe(fresh.t('no.such.key', { nick: 'ana' }))
      const plural = Object.keys(catalogues[locale])
        .find((k) => k.endsWith('_other'))!
        .replace(/_other$/, '')
      for (const count of [0, 1, 2, 5]) expect(component(plural, { count })).toBe(fresh.t(plural, { count }))
      expect(component('no.such.key', { defaultValue: 'x {{a}}', a: 'b' })).toBe('x b')
      expect(component(['no.such.key', 'app.skip_to_content'])).toBe(fresh.t(['no.such.key', 'app.skip_to_content']))
      expect(component('app.skip_to_content', { lng: 'en-US' })).toBe(fresh.t('app.skip_to_content', { lng: 'en-US' }))
    }
  })

  it('resolves a plain key once, and every call with values afresh', () => {
    const en = i18nFor('en-US')
    // i18next's translator (not in its public types) resolves every call that is not answered from memory.
    const translator = (en as unknown as { translator: { translate(key: unknown, options?: unknown): unknown } }).translator
    const translate = vi.spyOn(translator, 'translate')
    const fixed = en.getFixedT(null, 'translation')
    const key = 'nav.overview'
    for (let i = 0; i < 5; i++) fixed(key)
    expect(translate.mock.calls.filter(([k]) => k === key).length).toBeLessThanOrEqual(1)
    // Values, counts and default values are never answered from memory.
    const withValue = Object.keys(catalogues['en-US']).find((k) => catalogues['en-US'][k].includes('{{nick}}'))!
    const a = fixed(withValue, { nick: 'ana' })
    const b = fixed(withValue, { nick: 'bia' })
    expect(a).toContain('ana')
    expect(b).toContain('bia')
    // The text of a call with values is resolved at most once (it may be remembered already); only its values are
    // put in afresh.
    const resolved = translate.mock.calls.filter(([k]) => k === withValue).length
    expect(resolved).toBeLessThanOrEqual(1)
    expect(fixed(withValue, { nick: 'cai' })).toContain('cai')
    expect(translate.mock.calls.filter(([k]) => k === withValue).length).toBe(resolved)
    expect(fixed('no.such.key', { defaultValue: 'first' })).toBe('first')
    expect(fixed('no.such.key', { defaultValue: 'second' })).toBe('second')
  })
})
