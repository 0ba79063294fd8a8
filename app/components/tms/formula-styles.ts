import type { LinksFunction } from '@remix-run/cloudflare'
import katexStylesUrl from 'katex/dist/katex.min.css?url'

/**
 * KaTeX's stylesheet, linked only by the routes whose pages show rich text with formulas (statements, options,
 * previews, the editors): `export const links = formulaLinks`. Other pages do not download it.
 */
export const formulaLinks: LinksFunction = () => [{ rel: 'stylesheet', href: katexStylesUrl }]
