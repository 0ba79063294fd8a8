import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { REMEMBERED_ROUTES_MAX, RememberingRouter } from '../../worker/lib/remembering-router'

/** A table like the API's: static paths registered after parameter paths at the same place (RegExpRouter refuses it). */
function table(app: Hono) {
  return app
    .use('*', async (c, next) => {
      await next()
      c.res.headers.set('x-seen', '1')
    })
    .get('/mas/realm/:code', (c) => c.text(`realm ${c.req.param('code')}`))
    .get('/mas/realm/defaults', (c) => c.text('defaults'))
    .get('/mas/user/:nick', (c) => c.text(`user ${c.req.param('nick')}`))
    .get('/mas/user/roles', (c) => c.text('roles'))
    .post('/mas/user/:nick/role/:role', (c) => c.text(`${c.req.param('nick')} gets ${c.req.param('role')}`))
    .get('/files/*', (c) => c.text(`file ${c.req.path}`))
}

async function answers(app: Hono, requests: [string, string][]) {
  const out: string[] = []
  for (const [method, path] of requests) {
    const res = await app.request(path, { method })
    out.push(`${res.status} ${res.headers.get('x-seen')} ${await res.text()}`)
  }
  return out
}

describe("the Worker's router remembers its answer per method and path (worker/lib/remembering-router.ts)", () => {
  const requests: [string, string][] = [
    ['GET', '/mas/realm/demo'],
    ['GET', '/mas/realm/escola'],
    ['GET', '/mas/realm/defaults'],
    ['GET', '/mas/user/ana'],
    ['GET', '/mas/user/roles'],
    ['POST', '/mas/user/ana/role/teacher'],
    ['POST', '/mas/user/bia/role/root'],
    ['GET', '/mas/user/ana/role/teacher'],
    ['DELETE', '/mas/realm/demo'],
    ['GET', '/files/a/b.png'],
    ['GET', '/nowhere'],
  ]

  it("answers every request as Hono's default router does, the first time and every time after", async () => {
    const expected = await answers(table(new Hono()), requests)
    const app = table(new Hono({ router: new RememberingRouter() }))
    for (let round = 0; round < 3; round++) expect(await answers(app, requests)).toEqual(expected)
    expect(expected[1]).toBe('200 1 realm escola')
    expect(expected[6]).toBe('200 1 bia gets root')
  })

  it('refuses a route added after the first match, as the default router does (so no answer goes stale)', () => {
    const router = new RememberingRouter<string>()
    router.add('GET', '/a/:id', 'param')
    expect(router.match('GET', '/a/new')[0].map(([h]) => h)).toEqual(['param'])
    expect(() => router.add('GET', '/a/new', 'static')).toThrow(/already built/)
    expect(router.match('GET', '/a/new')[0].map(([h]) => h)).toEqual(['param'])
  })

  it('holds a bounded number of answers (paths with ids make new keys without end)', () => {
    const router = new RememberingRouter<string>()
    router.add('GET', '/user/:nick', 'user')
    const first = router.match('GET', '/user/u0')
    expect(router.match('GET', '/user/u0')).toBe(first)
    for (let i = 1; i <= REMEMBERED_ROUTES_MAX; i++) router.match('GET', `/user/u${i}`)
    // The map was emptied when full, so the first answer is computed again (equal, but a new object).
    const again = router.match('GET', '/user/u0')
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
