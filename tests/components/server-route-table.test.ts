import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { RouteObject } from 'react-router-dom'
import { createStaticHandler, createStaticRouter, type StaticHandlerContext } from 'react-router-dom/server'
import { describe, expect, it } from 'vitest'
// Not a public entry point: the function RemixServer calls on every render (patches/@remix-run+react+*.patch).
// @ts-expect-error -- the package declares no types for its internal modules
import { createServerRoutes } from '../../node_modules/@remix-run/react/dist/esm/routes.js'

const require = createRequire(import.meta.url)

type ServerRoute = { id: string; path?: string; index?: boolean; handle?: unknown; children?: ServerRoute[] }
const manifestOf = (...routes: { id: string; parentId?: string; path?: string; index?: boolean }[]) =>
  Object.fromEntries(routes.map((r) => [r.id, { hasLoader: true, hasClientLoader: false, ...r }]))

describe('the server render reuses its route table (patches/@remix-run+react+*.patch, react-router-dom+*.patch)', () => {
  it('is patched in the builds the Worker and the tests load', () => {
    const react = require.resolve('@remix-run/react').replace(/index\.js$/, '')
    for (const file of ['routes.js', 'esm/routes.js'])
      expect(readFileSync(`${react}${file}`, 'utf8'), file).toContain('const serverRoutesCache = new WeakMap();')
    const dom = require.resolve('react-router-dom/server').replace(/server\.js$/, '')
    for (const file of ['server.js', 'server.mjs']) expect(readFileSync(`${dom}${file}`, 'utf8'), file).toContain('const staticDataRoutes = new WeakMap();')
    const router = require.resolve('@remix-run/router').replace(/router\.cjs\.js$/, '')
    for (const file of ['router.js', 'router.cjs.js'])
      expect(readFileSync(`${router}${file}`, 'utf8'), file).toContain('const rankedArrayCache = new WeakMap();')
  })

  it('builds the routes once per manifest while every route keeps its module, and afresh when one changes', () => {
    const manifest = manifestOf({ id: 'root', path: '' }, { id: 'user', parentId: 'root', path: 'user' }, { id: 'home', parentId: 'root', index: true })
    const modules = () => ({ root: rootModule, user: userModule, home: homeModule })
    const rootModule = { default: () => null, handle: 'root' }
    const userModule = { default: () => null, handle: 'user' }
    const homeModule = { default: () => null, handle: 'home' }
    const future = {}
    const first = createServerRoutes(manifest, modules(), future, false) as ServerRoute[]
    expect(first.map((r) => r.id)).toEqual(['root'])
    expect(first[0].children!.map((r) => [r.id, r.path, r.index, r.handle])).toEqual([
      ['user', 'user', undefined, 'user'],
      ['home', undefined, true, 'home'],
    ])
    // Remix hands a new routeModules object on every request, holding the same modules: the same routes.
    expect(createServerRoutes(manifest, modules(), future, false)).toBe(first)
    // A module replaced (a new build in development): new routes carrying it.
    const changed = createServerRoutes(manifest, { ...modules(), user: { default: () => null, handle: 'user 2' } }, future, false) as ServerRoute[]
    expect(changed).not.toBe(first)
    expect(changed[0].children![0].handle).toBe('user 2')
    // Another manifest, other future flags or SPA mode: never the cached table.
    expect(createServerRoutes({ ...manifest }, modules(), future, false)).not.toBe(changed)
    expect(createServerRoutes(manifest, modules(), {}, false)).not.toBe(changed)
    expect(createServerRoutes(manifest, modules(), future, true)).not.toBe(changed)
  })

  it('copies a routes array to data routes once, and again when routes were added to it', async () => {
    const routes: RouteObject[] = [{ id: 'root', path: '/', children: [{ id: 'user', path: 'user' }] }]
    const contextFor = async (path: string) => (await createStaticHandler(routes).query(new Request(`http://x${path}`))) as StaticHandlerContext
    const context = await contextFor('/user')
    const first = createStaticRouter(routes, context)
    expect(first.state.matches.map((m) => m.route.id)).toEqual(['root', 'user'])
    const second = createStaticRouter(routes, await contextFor('/user'))
    expect(second.routes).toBe(first.routes)
    expect(second.state.matches[1].route).toBe(first.routes[0].children![0])
    routes[0].children!.push({ id: 'wallet', path: 'wallet' })
    const grown = createStaticRouter(routes, await contextFor('/wallet'))
    expect(grown.routes).not.toBe(first.routes)
    expect(grown.state.matches.map((m) => m.route.id)).toEqual(['root', 'wallet'])
    expect(grown.state.matches[1].route).toBe(grown.routes[0].children![1])
  })
})
