import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { matchRoutes, type AgnosticRouteObject } from '@remix-run/router'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)

describe('the route matcher compiles the route table once (patches/@remix-run+router+*.patch)', () => {
  it('is patched in both builds of the router the Worker and the console bundle', () => {
    const dist = require.resolve('@remix-run/router').replace(/router\.cjs\.js$|router\.js$/, '')
    for (const file of ['router.js', 'router.cjs.js']) {
      const text = readFileSync(`${dist}${file}`, 'utf8')
      expect(text, file).toContain('let { branches, byId } = rankedBranches(routes);')
      expect(text, file).toContain('const rankedShapeCache = new Map();')
      expect(text, file).toContain('const compiledPaths = new Map();')
      expect(text, file).toContain('const firstBranchCache = new WeakMap();')
    }
  })

  it('matches as before, and sees routes added to the same table later (lazy route discovery)', () => {
    const routes: AgnosticRouteObject[] = [
      {
        id: 'root',
        path: '/',
        children: [
          { id: 'user', path: 'user' },
          { id: 'user.edit', path: 'user/edit/:nick' },
          { id: 'splat', path: '*' },
        ],
      },
    ]
    const ids = (path: string) => matchRoutes(routes, path)?.map((m) => m.route.id)
    expect(ids('/user')).toEqual(['root', 'user'])
    expect(ids('/user/edit/ana')).toEqual(['root', 'user.edit'])
    expect(matchRoutes(routes, '/user/edit/ana')![1].params).toEqual({ nick: 'ana' })
    expect(ids('/tms/model')).toEqual(['root', 'splat'])
    routes[0].children!.push({ id: 'tms.model', path: 'tms/model' })
    expect(ids('/tms/model')).toEqual(['root', 'tms.model'])
    expect(ids('/USER')).toEqual(['root', 'user'])
  })

  it('serves a table Remix rebuilt for this render from the cache, with the route objects of this call', () => {
    // Remix builds new routes arrays with the same ids and paths on every render: the ranked branches are found by
    // the table's shape, and each match must still carry this call's route object (its loader, its module), never
    // the object of the render that filled the cache.
    const table = (tag: string): AgnosticRouteObject[] => [
      {
        id: 'root',
        path: '',
        handle: tag,
        children: [
          { id: 'home', index: true, handle: tag },
          { id: 'user', path: 'user', handle: tag, children: [{ id: 'user.edit', path: 'edit/:nick', handle: tag }] },
        ],
      },
    ]
    for (const tag of ['first', 'second', 'third']) {
      const matches = matchRoutes(table(tag), '/user/edit/bia')!
      expect(matches.map((m) => [m.route.id, m.route.handle])).toEqual([
        ['root', tag],
        ['user', tag],
        ['user.edit', tag],
      ])
      expect(matches[2].params).toEqual({ nick: 'bia' })
      expect(matchRoutes(table(tag), '/')!.map((m) => [m.route.id, m.route.handle])).toEqual([
        ['root', tag],
        ['home', tag],
      ])
    }
    // Same ids, another shape (a path changed, a route added): ranked afresh, never answered from the old table.
    const moved = table('moved')
    moved[0].children![1].path = 'people'
    expect(matchRoutes(moved, '/user/edit/bia')).toBeNull()
    expect(matchRoutes(moved, '/people/edit/bia')!.map((m) => m.route.id)).toEqual(['root', 'user', 'user.edit'])
    const grown = table('grown')
    grown[0].children!.push({ id: 'wallet', path: 'wallet' })
    expect(matchRoutes(grown, '/wallet')!.map((m) => m.route.id)).toEqual(['root', 'wallet'])
    expect(matchRoutes(table('again'), '/wallet')).toBeNull()
  })

  it('keeps matching routes without ids (plain matchRoutes callers) per array', () => {
    const routes: AgnosticRouteObject[] = [{ path: 'a', children: [{ path: ':x' }] }]
    expect(matchRoutes(routes, '/a/1')!.map((m) => m.route)).toEqual([routes[0], routes[0].children![0]])
    routes.push({ path: 'b' })
    expect(matchRoutes(routes, '/b')![0].route).toBe(routes[1])
  })

  it('answers a repeated pathname from the branch it matched first, as a full search would', () => {
    // The first matching branch is remembered per ranked table and pathname: asking again (the server matches a page
    // four times per request) must give the same routes and this pathname's own params, and a pathname no branch
    // matches stays unmatched.
    const table = (): AgnosticRouteObject[] => [
      {
        id: 'root',
        path: '',
        children: [
          { id: 'home', index: true },
          { id: 'user', path: 'user' },
          { id: 'user.edit', path: 'user/edit/:nick' },
          { id: 'user.roles', path: 'user/roles' },
          { id: 'model', path: 'tms/model/:id?' },
        ],
      },
    ]
    const answer = (path: string) => matchRoutes(table(), path)?.map((m) => [m.route.id, m.params, m.pathname]) ?? null
    const paths = ['/', '/user', '/user/edit/ana', '/user/edit/bia', '/user/roles', '/tms/model', '/tms/model/7', '/nowhere', '/user/edit']
    const first = paths.map(answer)
    for (let i = 0; i < 3; i++) expect(paths.map(answer)).toEqual(first)
    expect(first[2]).toEqual([
      ['root', { nick: 'ana' }, '/'],
      ['user.edit', { nick: 'ana' }, '/user/edit/ana'],
    ])
    expect(first[3]![1]).toEqual(['user.edit', { nick: 'bia' }, '/user/edit/bia'])
    expect(first[4]!.map((m) => m[0])).toEqual(['root', 'user.roles'])
    expect(first[7]).toBeNull()
    expect(first[8]).toBeNull()
  })
})
