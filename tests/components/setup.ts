import { cleanup } from '@testing-library/react'
import { afterEach, beforeAll } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { setDefaultTranslator } from '~/i18n/react'
import { Translator } from '~/i18n/translator'
import { failOnConsoleError } from '../support/console-errors'

failOnConsoleError()

beforeAll(() => {
  // Components rendered outside the console's I18nProvider translate in pt-BR.
  setDefaultTranslator(new Translator('pt-BR', catalogues['pt-BR']))
})

afterEach(() => cleanup())
