import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

// Read as a file: the test environment does not process CSS imports.
const css = readFileSync(resolve(__dirname, '../../app/styles/app.css'), 'utf8')

/**
 * The stylesheet is one file that every feature adds to. A class defined twice at the top level means one
 * feature's rule silently restyles another's screens (it happened: two features each defined `.tabs` and
 * `.search-fields`), so every top-level selector list is declared once; a feature picks its own class names.
 */
function topLevelSelectors(source: string): { selector: string; line: number }[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
  const out: { selector: string; line: number }[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '{') {
      const prelude = text.slice(start, i).trim()
      if (depth === 0 && !prelude.startsWith('@')) {
        out.push({ selector: prelude.replace(/\s+/g, ' '), line: text.slice(0, i).split('\n').length })
      }
      depth++
      start = i + 1
    } else if (ch === '}') {
      depth--
      start = i + 1
    } else if (ch === ';' && depth === 0) {
      start = i + 1
    }
  }
  return out
}

describe('app.css', () => {
  it('finds the rules it checks', () => {
    const rules = topLevelSelectors('.a { x: 1 }\n@media (x) { .a { y: 2 } }\n.b, .c { z: 3 }\n.a { w: 4 }')
    expect(rules).toEqual([
      { selector: '.a', line: 1 },
      { selector: '.b, .c', line: 3 },
      { selector: '.a', line: 4 },
    ])
  })

  it('declares every top-level selector once', () => {
    const rules = topLevelSelectors(css)
    expect(rules.length).toBeGreaterThan(200)
    const seen = new Map<string, number>()
    const repeated: string[] = []
    for (const { selector, line } of rules) {
      const first = seen.get(selector)
      if (first !== undefined) repeated.push(`${selector} (lines ${first} and ${line})`)
      else seen.set(selector, line)
    }
    expect(repeated).toEqual([])
  })
})
