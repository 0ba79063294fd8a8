import { cleanup } from '@testing-library/react'
import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { afterEach, beforeAll } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { i18nOptions } from '~/i18n/config'
import { failOnConsoleError } from '../support/console-errors'

failOnConsoleError()

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    ...i18nOptions,
    lng: 'pt-BR',
    resources: Object.fromEntries(Object.entries(catalogues).map(([l, c]) => [l, { translation: c }])),
  })
})

afterEach(() => cleanup())
