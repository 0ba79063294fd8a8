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
    expectTypeOf(apiData(api.tms.model.$post({ json: { title: 'Prova' } }))).resolves.toMatchTypeOf<Pick<Model, 'id' | 'title'>>()
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
    // @ts-expect-error: a body the endpoint states (guardedJson) is its schema's input
    void api.mas.password.reset.$post({ json: { password: 'secret' } })
    // @ts-expect-error: an endpoint declared with guardedJson states its body once, for the handler and the client
    void api.mas.user.$post({ json: { name: 'Ana' } })
    // @ts-expect-error: and its fields' types
    void api.room.room[':id'].member.$post({ param: { id: 'r1' }, json: { nick: 42 } })
    // @ts-expect-error: the answer has no such field
    void apiData(api.version.$get()).then((v) => v.nope)
  })

  it('types the ledger: idempotent movements keep their answer, and their bodies are their schemas', () => {
    const transfer = { targets: ['ana'], points: 5, idempotency_key: 'con-12345678' }
    // A replayed answer is the same JSON, so the idempotency wrapper keeps the handler's answer type.
    expectTypeOf(apiData(api.ledger.transaction.transfer.$post({ json: transfer }))).resolves.toMatchTypeOf<{
      billing_key: string
      total: number
      targets: string[]
    }>()
    expectTypeOf(apiData(api.ledger.transaction.sponsor.$post({ json: { realm: 'demo', points: 5, idempotency_key: 'con-12345678' } })))
      .resolves.toHaveProperty('realm')
      .toEqualTypeOf<string>()
    expectTypeOf(apiData(api.ledger.transaction.reversal.$post({ json: { transaction_id: 't1', idempotency_key: 'con-12345678' } })))
      .resolves.toHaveProperty('reverses')
      .toEqualTypeOf<string>()
    expectTypeOf(apiData(api.ledger.transaction.debit.$post({ json: { contents: ['lesson.summary'], idempotency_key: 'con-12345678' } })))
      .resolves.toHaveProperty('contents')
      .toEqualTypeOf<{ key: string; points: number }[]>()
    expectTypeOf(apiData(api.ledger.transaction.purchase.$post({ json: { provider: 'sandbox', product_id: 'p1', provider_data: { transaction_amount: 10 } } })))
      .resolves.toHaveProperty('checkout_url')
      .toEqualTypeOf<string>()
    // The routes crudWithOwnRoutes merges keep both sets: the package's own delete and crud's read.
    expectTypeOf(api.ledger.package[':id'].$delete).toBeFunction()
    expectTypeOf(apiData(api.ledger.package[':id'].$get({ param: { id: 'p1' } }))).resolves.toHaveProperty('cost')
    expectTypeOf(apiData(api.ledger.wallet[':id'].$get({ param: { id: 'ana' } })))
      .resolves.toHaveProperty('kind')
      .toEqualTypeOf<'user' | 'realm'>()
    // @ts-expect-error: the transfer's points are a number
    void api.ledger.transaction.transfer.$post({ json: { ...transfer, points: '5' } })
    // @ts-expect-error: and its recipients are required
    void api.ledger.transaction.transfer.$post({ json: { points: 5, idempotency_key: 'con-12345678' } })
    // @ts-expect-error: a sponsorship names the realm it funds
    void api.ledger.transaction.sponsor.$post({ json: { points: 5 } })
    // @ts-expect-error: a lost answer type (the wrapper answering a plain Response) would let this through
    void apiData(api.ledger.transaction.transfer.$post({ json: transfer })).then((r) => r.nope)
    // @ts-expect-error: and this
    void apiData(api.ledger.transaction.sponsor.$post({ json: { realm: 'demo', points: 5, idempotency_key: 'con-12345678' } })).then((r) => r.nope)
  })
})
