import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Plugin } from 'vite'
import { OCR_BASE, OCR_FILES, OCR_VERSION } from '../shared/ocr'

/**
 * Copies on-device OCR's files from node_modules into the client build at `OCR_BASE` (app/shared/ocr.ts): the
 * tesseract.js worker script, its wasm cores and the Portuguese, English and Spanish traineddata of
 * `@tesseract.js-data/*`. So `npm run build`, `npm start` and `npm test` (all `remix vite:build`) serve them from our
 * own origin on a fresh clone, with no CDN and nothing committed. Fails the build when tesseract.js is not the version
 * the paths name.
 */
export function ocrAssets(): Plugin {
  const require = createRequire(import.meta.url)
  let ssr = false
  return {
    name: 'ocr-assets',
    configResolved(config) {
      ssr = Boolean(config.build.ssr)
    },
    generateBundle() {
      if (ssr) return
      const tesseract = dirname(require.resolve('tesseract.js/package.json'))
      const version = (JSON.parse(readFileSync(join(tesseract, 'package.json'), 'utf8')) as { version: string }).version
      if (version !== OCR_VERSION) this.error(`tesseract.js is ${version}; app/shared/ocr.ts names ${OCR_VERSION}`)
      const core = dirname(require.resolve('tesseract.js-core/package.json'))
      const base = OCR_BASE.replace(/^\//, '')
      const emit = (fileName: string, file: string) => this.emitFile({ type: 'asset', fileName: `${base}/${fileName}`, source: readFileSync(file) })
      emit(OCR_FILES.worker, join(tesseract, 'dist', OCR_FILES.worker))
      for (const name of OCR_FILES.core) emit(`core/${name}`, join(core, name))
      for (const lang of OCR_FILES.languages) {
        const data = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`))
        emit(`lang/${lang}.traineddata.gz`, join(data, '4.0.0_best_int', `${lang}.traineddata.gz`))
      }
    },
  }
}
