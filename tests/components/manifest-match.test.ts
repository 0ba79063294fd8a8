import { describe, expect, it } from 'vitest'
import { ROUTES, matchRoute, type RouteEntry } from '#shared/manifest'

/** The matcher as it was: every route's pattern in turn, the most fixed segments first. */
function byPatterns(pathname: string): RouteEntry | undefined {
  const re = (path: string) => new RegExp(`^${path === '/' ? '' : path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`)
  const statics = (path: string) => path.split('/').filter((s) => s && !s.startsWith(':')).length
  return [...ROUTES].sort((a, b) => statics(b.path) - statics(a.path)).find((r) => re(r.path).test(pathname))
}

describe('matchRoute (the layout loader asks it on every console page)', () => {
  it('finds the same entry as trying every pattern, for every route, with and without a trailing slash', () => {
    const paths = ROUTES.flatMap((r) => {
      const concrete = r.path.replace(/:[A-Za-z_]+/g, 'create')
      return [concrete, `${concrete}/`, r.path.replace(/:[A-Za-z_]+/g, 'ana'), `${concrete}/extra`, concrete.toUpperCase()]
    })
    paths.push('/', '', '//', '/nope', '/user//', '/user/edit')
    for (const path of paths) expect(matchRoute(path)?.id, path).toBe(byPatterns(path)?.id)
  })

  it('finds a route without parameters by its path', () => {
    const home = ROUTES.find((r) => r.path === '/')!
    expect(matchRoute('/')).toBe(home)
    const user = ROUTES.find((r) => r.path === '/user')!
    expect(matchRoute('/user/')).toBe(user)
  })
})
