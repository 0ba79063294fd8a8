import { Parser } from 'htmlparser2'

/** What the rich-text walker (./rich-text.ts) hears from an HTML tokenizer: openings, closings and text. */
export interface TokenHandler {
  onopentag(name: string, attribs: Record<string, string>): void
  onclosetag(name: string): void
  ontext(text: string): void
}

/**
 * Tokenizes HTML with htmlparser2 (the Worker and the server render: no DOM there). The browser build swaps this
 * module for ./html-tokens.browser.ts (vite.config.ts), which uses the browser's own parser: htmlparser2 does not
 * ship to the browser. Every opening gets its closing, implied ones included.
 */
export function tokenize(html: string, handler: TokenHandler): void {
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
  parser.write(html)
  parser.end()
}
