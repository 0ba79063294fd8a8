import { createHash } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { transformWithEsbuild, type Plugin } from 'vite'
import type { Catalogue } from './catalogues'
import { CATALOGUE_GROUPS, LOCALES, type CatalogueGroup, type Locale } from './config'

/** `virtual:catalogue-files`: the URL of each language's catalogue group, e.g. `/assets/i18n-pt-BR-signin-1a2b3c4d.json`. */
export type CatalogueFiles = Record<Locale, Record<CatalogueGroup, string>>

const ID = 'virtual:catalogue-files'

async function readArea(file: string): Promise<Catalogue> {
  // Area files are plain `export default { key: text }` modules without imports.
  const { code } = await transformWithEsbuild(readFileSync(file, 'utf8'), file, { loader: 'ts', format: 'cjs' })
  const module = { exports: {} as { default?: Catalogue } }
  new Function('module', 'exports', code)(module, module.exports)
  return module.exports.default ?? {}
}

/**
 * The browser's catalogues as JSON files, one per language and group (app/i18n/config.ts), content-hashed like
 * every asset: the page preloads the files it needs (root.tsx) and entry.client.tsx fetches them before hydrating.
 * JSON rather than JS chunks: one request per group instead of one per area, and the server knows the file
 * names (the same in both builds, from the content), so it can preload them.
 */
export function catalogueFiles(localesDir: string): Plugin {
  let emitted: { fileName: string; source: string }[] = []
  let files = {} as CatalogueFiles
  let ssr = false
  return {
    name: 'catalogue-files',
    configResolved(config) {
      ssr = Boolean(config.build.ssr)
    },
    async buildStart() {
      emitted = []
      files = {} as CatalogueFiles
      for (const locale of LOCALES) {
        const dir = join(localesDir, locale)
        const groups = {} as Record<CatalogueGroup, Catalogue>
        for (const name of readdirSync(dir)
          .filter((f) => f.endsWith('.ts'))
          .sort()) {
          this.addWatchFile(join(dir, name))
          const area = name.replace(/\.ts$/, '')
          const group = (Object.keys(CATALOGUE_GROUPS) as CatalogueGroup[]).find((g) => CATALOGUE_GROUPS[g].includes(area)) ?? 'console'
          groups[group] = { ...groups[group], ...(await readArea(join(dir, name))) }
        }
        files[locale] = {} as Record<CatalogueGroup, string>
        for (const group of ['signin', 'console'] as const) {
          const source = JSON.stringify(groups[group] ?? {})
          const hash = createHash('sha256').update(source).digest('hex').slice(0, 8)
          const fileName = `assets/i18n-${locale}-${group}-${hash}.json`
          emitted.push({ fileName, source })
          files[locale][group] = `/${fileName}`
        }
      }
    },
    resolveId(id) {
      return id === ID ? `\0${ID}` : undefined
    },
    load(id) {
      return id === `\0${ID}` ? `export default ${JSON.stringify(files)}` : undefined
    },
    generateBundle() {
      if (!ssr) for (const file of emitted) this.emitFile({ type: 'asset', fileName: file.fileName, source: file.source })
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = emitted.find((f) => `/${f.fileName}` === req.url)
        if (!file) return next()
        res.setHeader('content-type', 'application/json')
        res.end(file.source)
      })
    },
  }
}
