import { vitePlugin as remix } from '@remix-run/dev'
import { fileURLToPath } from 'node:url'
import { flatRoutes } from 'remix-flat-routes'
import { defineConfig } from 'vite'
import { PLAIN_ENTITIES } from './app/shared/entities/index'
import { catalogueFiles } from './app/i18n/vite-catalogues'
import { ocrAssets } from './app/lib/vite-ocr-assets'

declare module '@remix-run/cloudflare' {
  interface Future {
    v3_singleFetch: true
  }
}

/** The console layout's route id (remix-flat-routes), parent of the entity screens. */
const CONSOLE_LAYOUT = 'routes/_console+/_layout'

function entityRouteManifest() {
  const out: Record<string, { id: string; parentId: string; path: string; file: string; index?: boolean }> = {}
  for (const e of PLAIN_ENTITIES) {
    const base = e.route.path.replace(/^\//, '')
    const add = (screen: string, path: string, file: string) => {
      const id = `entity/${e.name}/${screen}`
      out[id] = { id, parentId: CONSOLE_LAYOUT, path, file }
    }
    const screens = e.screens ?? ['list', 'create', 'edit']
    if (screens.includes('list')) add('list', base, 'entity-routes/list.tsx')
    if (screens.includes('create')) add('create', `${base}/create`, 'entity-routes/form.tsx')
    if (screens.includes('edit')) add('edit', `${base}/edit/:${e.route.param}`, 'entity-routes/form.tsx')
  }
  return out
}

/** The console is built once by Vite and served by the Worker (worker/index.ts) under wrangler. */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    catalogueFiles(fileURLToPath(new URL('./app/i18n/locales', import.meta.url))),
    // On-device OCR's worker, cores and language data, served from our own origin (app/shared/ocr.ts).
    ocrAssets(),
    {
      // Rich text is tokenized by htmlparser2 on the server and by the browser's own DOMParser in the browser
      // (app/shared/html-tokens.browser.ts): htmlparser2 stays out of the browser's scripts.
      name: 'browser-html-tokens',
      enforce: 'pre',
      resolveId(source, importer, options) {
        if (options?.ssr || source !== './html-tokens' || !importer?.endsWith('/app/shared/rich-text.ts')) return null
        return fileURLToPath(new URL('./app/shared/html-tokens.browser.ts', import.meta.url))
      },
    },
    remix({
      // Routes live in folders by area (remix-flat-routes, hybrid `+` folders: `_console+/tms+/genre.create.tsx` is
      // `_console.tms.genre.create`); Remix's own file convention is off. Route-local pieces (forms, editors, loaders'
      // helpers) sit beside their routes as `__name.tsx` and are not routes.
      ignoredRouteFiles: ['**/*'],
      // Plus the generic list, create and edit screens of every plain entity (app/shared/entities/), at the paths
      // each declaration names, inside the console layout: no route file per entity.
      routes: async (defineRoutes) => ({
        ...flatRoutes('routes', defineRoutes, { ignoredRouteFiles: ['**/.*', '**/*.css', '**/__*.*', '**/*.server.*', '**/*.test.*'] }),
        ...entityRouteManifest(),
      }),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  resolve: {
    alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) },
    mainFields: ['browser', 'module', 'main'],
  },
  ssr: {
    resolve: { conditions: ['workerd', 'worker', 'browser'], externalConditions: ['workerd', 'worker'] },
    // Dependencies and the code shared with the Worker (`#shared/…`) stay imports in build/server/index.js: wrangler
    // bundles the Worker entry and this build together, so each library (KaTeX, htmlparser2, the Remix router,
    // valibot, …) and each shared module is in the Worker once (tests/workers/bundle.test.ts).
    external: true,
    target: 'webworker',
  },
  build: {
    minify: true,
    sourcemap: false,
    // The server build leaves `#shared/…` as imports too, for the same reason as the dependencies above.
    rollupOptions: isSsrBuild ? { external: (id: string) => id.startsWith('#shared/') } : {},
  },
}))
