import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { LOCALES } from '~/i18n/config'
import { I18nProvider, useTranslation } from '~/i18n/react'
import { Translator } from '~/i18n/translator'

describe('the translator (what the console asked of i18next)', () => {
  const t = new Translator('en-US', {
    'a.b': 'Plain',
    greet: 'Hello, {{name}}!',
    total: 'Total {{total, number}} of {{ count }}',
    empty: '',
  }).t

  it('looks keys up flat (a dot is part of the key) and falls back to defaultValue, then the key', () => {
    expect(t('a.b')).toBe('Plain')
    expect(t('missing.key')).toBe('missing.key')
    expect(t('missing.key', { defaultValue: 'Fallback {{n}}', n: 2 })).toBe('Fallback 2')
    expect(t('missing.key', { defaultValue: '' })).toBe('')
    // A key whose text is empty is the empty text, not its default (i18next's returnEmptyString).
    expect(t('empty', { defaultValue: 'x' })).toBe('')
  })

  it('interpolates values, formats numbers in the language, and keeps a placeholder whose value is not passed', () => {
    expect(t('greet', { name: 'Ana' })).toBe('Hello, Ana!')
    expect(t('greet', { name: 0 })).toBe('Hello, 0!')
    expect(t('greet', { name: null })).toBe('Hello, !')
    expect(t('greet', { name: undefined })).toBe('Hello, !')
    expect(t('greet')).toBe('Hello, {{name}}!')
    expect(t('total', { total: 12345.5, count: 3 })).toBe('Total 12,345.5 of 3')
    expect(new Translator('pt-BR', { total: '{{total, number}}' }).t('total', { total: 12345.5 })).toBe('12.345,5')
    // A value is text, never a placeholder to fill again.
    expect(t('greet', { name: '{{name}}' })).toBe('Hello, {{name}}!')
  })

  it.each(LOCALES)('%s: the catalogue uses only what the translator implements ({{name}}, {{name, number}}; no plurals or nesting)', (locale) => {
    const unsupported = Object.entries(catalogues[locale]).filter(
      ([key, text]) =>
        /_(zero|one|two|few|many|other)$/.test(key) ||
        text.includes('$t(') ||
        [...text.matchAll(/\{\{([^{}]*)\}\}/g)].some(([, inner]) => !/^\s*[\w.]+\s*(,\s*number\s*)?$/.test(inner)),
    )
    expect(unsupported).toEqual([])
  })

  it('re-renders what is on screen when texts arrive later (the rest of the catalogue after hydration)', () => {
    const i18n = new Translator('pt-BR', { early: 'Cedo' })
    function Probe() {
      const { t, i18n: info } = useTranslation()
      return (
        <p>
          {t('early')} · {t('late')} · {info.language}
        </p>
      )
    }
    render(
      <I18nProvider i18n={i18n}>
        <Probe />
      </I18nProvider>,
    )
    expect(screen.getByText('Cedo · late · pt-BR')).toBeTruthy()
    act(() => i18n.add({ late: 'Tarde' }))
    expect(screen.getByText('Cedo · Tarde · pt-BR')).toBeTruthy()
  })
})
