import type { TokenHandler } from './html-tokens'

/**
 * The browser's tokenizer for rich text (./html-tokens.ts on the server): DOMParser builds an inert document (no
 * script runs, no image loads) and the walk reports its elements and text in document order, each opening with
 * its closing, as htmlparser2 does for the same well-formed input.
 */
export function tokenize(html: string, handler: TokenHandler): void {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html')
  const visit = (parent: Node) => {
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) handler.ontext((node as Text).data)
      else if (node.nodeType === Node.ELEMENT_NODE) {
        const el = node as Element
        const name = el.localName.toLowerCase()
        const attribs: Record<string, string> = {}
        for (const attr of Array.from(el.attributes)) attribs[attr.name.toLowerCase()] = attr.value
        handler.onopentag(name, attribs)
        visit(el instanceof HTMLTemplateElement ? el.content : el)
        handler.onclosetag(name)
      }
    }
  }
  visit(doc.body)
}
