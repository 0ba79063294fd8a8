import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react'
import { DEFAULT_LOCALE } from './config'
import { Translator, type TFunction } from './translator'

export type { TFunction, TOptions } from './translator'

interface Translation {
  t: TFunction
  i18n: { language: string }
}

const TranslationContext = createContext<Translation | null>(null)

/** Outside any provider (component tests render bare components): the translator installed with `setDefaultTranslator`. */
let fallback = new Translator(DEFAULT_LOCALE, {})

/** The translator components use when they render outside an I18nProvider (the component tests' setup installs one). */
export function setDefaultTranslator(translator: Translator): void {
  fallback = translator
}

/** Gives the tree its language; re-renders it when texts are added (the rest of the catalogue, after hydration). */
export function I18nProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  const t = useSyncExternalStore(
    i18n.subscribe,
    () => i18n.t,
    () => i18n.t,
  )
  const value = useMemo(() => ({ t, i18n: { language: i18n.language } }), [t, i18n.language])
  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>
}

/** `t` and the language of the page (react-i18next's hook, as the console used it). */
export function useTranslation(): Translation {
  return useContext(TranslationContext) ?? { t: fallback.t, i18n: { language: fallback.language } }
}
