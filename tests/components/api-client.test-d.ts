import { describe, expectTypeOf, it } from 'vitest'
import { apiData, type RealmApi } from '~/server/api.server'
import type { User } from '#shared/schemas/user'
import type { ListPage } from '#shared/schemas/common'
import type { Model } from '#shared/schemas/tms/model'

/**
 * The console's realm-API client is typed from the Hono app's own routes (`ApiType`, worker/api/index.ts): a route
 * that loses its types (a sub-app built statement by statement, a handler annotated `Promise<Response>`, guarded()
 * dropping the answer's type) or a call the API does not serve fails here. Run by `vitest --typecheck` (components).
 */
declare const api: RealmApi

describe('the typed realm API client', () => {
  it("answers each route's own type", () => {
    expectTypeOf(apiData(api.version.$get())).resolves.toEqualTypeOf<{ version: string }>()
    expectTypeOf(apiData(api.mas.user.$get({ query: { limit: 25 } })))
      .resolves.toHaveProperty('items')
      .toMatchTypeOf<(Pick<User, 'nick' | 'name' | 'email'> & { roles: string[] })[]>()
    expectTypeOf(apiData(api.mas.user[':nick'].$get({ param: { nick: 'ana' } }))).resolves.toHaveProperty('ceiling')
    expectTypeOf(apiData(api.tms.model[':id'].$get({ param: { id: 'm1' } })))
      .resolves.toHaveProperty('published_count')
      .toEqualTypeOf<number>()
    expectTypeOf(apiData(api.tms.token.$get())).resolves.toHaveProperty('items')
    expectTypeOf(apiData(api.tms.model.$post({ json: {} }))).resolves.toMatchTypeOf<Pick<Model, 'id' | 'title'>>()
    expectTypeOf(api.mas.password.reset.$post).parameter(0).toMatchTypeOf<{ json: { password: string; confirm: string } }>()
    // A plain entity is typed by its declaration's row.
    expectTypeOf(apiData(api.entity<{ id: string }>('tms/genre').index.$get())).resolves.toEqualTypeOf<ListPage<{ id: string }>>()
  })

  it('refuses calls the API does not serve', () => {
    // @ts-expect-error: no such path
    void api.mas.nothing_here.$get()
    // @ts-expect-error: the user route has no POST on a nick
    void api.mas.user[':nick'].$post({ param: { nick: 'ana' } })
    // @ts-expect-error: the path parameter is required
    void api.tms.model[':id'].$get()
    // @ts-expect-error: and named as the route names it
    void api.tms.model[':id'].$get({ param: { nick: 'ana' } })
    // @ts-expect-error: a body the endpoint states (takesJson) is its schema's input
    void api.mas.password.reset.$post({ json: { password: 'secret' } })
    // @ts-expect-error: an endpoint declared with guardedJson states its body once, for the handler and the client
    void api.mas.user.$post({ json: { name: 'Ana' } })
    // @ts-expect-error: and its fields' types
    void api.room.room[':id'].member.$post({ param: { id: 'r1' }, json: { nick: 42 } })
    // @ts-expect-error: the answer has no such field
    void apiData(api.version.$get()).then((v) => v.nope)
  })
})
