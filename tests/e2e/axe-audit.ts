import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** A serious or critical axe-core violation found on a page. */
export interface Finding {
  route: string
  rule: string
  impact: string
  help: string
  targets: string[]
}

/** axe-core's serious and critical violations on the page as it is now, `route` naming where. */
export async function audit(page: Page, route: string): Promise<Finding[]> {
  // Evaluated through the DevTools protocol, which the page's Content Security Policy does not govern (a <script> tag
  // would be refused, rightly).
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> } }).axe
    interface AxeViolation {
      id: string
      impact: string | null
      help: string
      nodes: { target: string[] }[]
    }
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }))
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ route, rule: v.id, impact: v.impact, help: v.help, targets: v.targets }))
}
