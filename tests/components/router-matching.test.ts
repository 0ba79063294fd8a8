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
      expect(text, file).toContain('let branches = rankedBranches(routes);')
      expect(text, file).toContain('const compiledPaths = new Map();')
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
})
