import { afterEach, describe, expect, it, vi } from 'vitest'
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
})
