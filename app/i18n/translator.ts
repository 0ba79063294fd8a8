import type { Catalogue } from './catalogues'
import type { Locale } from './config'

/** Values a text interpolates (`{{name}}`), and the text to use when the key has none (`defaultValue`). */
export type TOptions = { defaultValue?: string } & Record<string, unknown>
/** Translates a key of the catalogue (flat keys: `.` is part of the key). */
export type TFunction = (key: string, options?: TOptions) => string

/** `{{name}}` or `{{name, number}}` (the only forms the catalogues use; tests/components/i18n.test.ts keeps it so). */
const PLACEHOLDER = /\{\{([^{}]+)\}\}/g

/**
 * The console's translator: one language's catalogue and its `t`. It does what the console asked of i18next and no
 * more — flat keys, the text itself when the key is missing (`defaultValue`, else the key), `{{name}}` interpolation
 * (a value not passed keeps its placeholder; null or undefined passed prints nothing) and the `number` format —
 * for a fraction of its weight in the sign-in page's scripts and of its cost per call in the server render.
 * Texts can arrive later (the browser fetches the rest of its catalogue after hydrating): `add` merges them and
 * tells subscribers, so what is on screen re-renders with them.
 */
export class Translator {
  #texts: Catalogue
  #numbers: Intl.NumberFormat | undefined
  readonly #listeners = new Set<() => void>()
  /** The current `t`; a new function after `add`, so components that use it re-render. */
  t: TFunction

  constructor(
    readonly language: Locale,
    texts: Catalogue,
  ) {
    this.#texts = texts
    this.t = this.#translate()
  }

  #translate(): TFunction {
    const texts = this.#texts
    return (key, options) => {
      const text = texts[key] ?? options?.defaultValue ?? key
      return text.includes('{{') ? this.#interpolate(text, options) : text
    }
  }

  #interpolate(text: string, values: TOptions | undefined): string {
    return text.replace(PLACEHOLDER, (placeholder, inner: string) => {
      const [name, format] = inner.split(',').map((part) => part.trim())
      if (!values || !Object.prototype.hasOwnProperty.call(values, name)) return placeholder
      const value = values[name]
      if (value === null || value === undefined) return ''
      if (format === 'number') {
        this.#numbers ??= new Intl.NumberFormat(this.language)
        return this.#numbers.format(Number(value))
      }
      return String(value)
    })
  }

  /** Adds texts (later ones win) and re-renders what subscribed. */
  add(texts: Catalogue): void {
    this.#texts = { ...this.#texts, ...texts }
    this.t = this.#translate()
    for (const listener of this.#listeners) listener()
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
