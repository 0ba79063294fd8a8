import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { BankClassify } from '#shared/schemas/tms/bank'
import { ModelInput } from '#shared/schemas/tms/model'
import { issuesToErrors } from '#shared/schemas/error'
import { RealmApiError, orNull, validBody } from '~/server/api.server'
import { rowResult } from '~/server/entity-form.server'
import { CategoryNodes, parentOptions } from '~/routes/_console+/room+/__category.server'

/** What a rejected call carries, for the assertions below. */
function refusal(run: () => unknown): RealmApiError {
  try {
    run()
  } catch (err) {
    if (err instanceof RealmApiError) return err
    throw err
  }
  throw new Error('expected a RealmApiError')
}

describe('validBody: a forwarded document checked with the endpoint’s own schema', () => {
  it('passes a valid document through unchanged, typed as the body', () => {
    const doc: unknown = JSON.parse('{"title":"Prova de frações","questions":[]}')
    expect(validBody(ModelInput, doc)).toBe(doc)
  })

  it('refuses an invalid one with the envelope the Worker answers (400, one item per failed rule, same fields)', () => {
    const doc = { title: 'ab', questions: 'none' }
    const err = refusal(() => validBody(ModelInput, doc))
    expect(err.status).toBe(400)
    // The Worker answers issuesToErrors of the same schema's issues: the console shows the same field errors.
    expect(err.errors).toEqual(issuesToErrors(v.safeParse(ModelInput, doc).issues ?? []))
    expect(err.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['title', 'questions']))
    expect(err.errors.find((e) => e.field === 'title')?.message).toBe('validation.tms.title_min')
  })

  it('names a missing field as required, as the Worker does', () => {
    const err = refusal(() => validBody(BankClassify, { types: ['single'], ids: [] }))
    expect(err.errors.find((e) => e.field === 'grade_id')).toMatchObject({ cause: 'required', message: 'validation.required' })
  })
})

describe('orNull and rowResult', () => {
  const refused = (status: number) => Promise.reject(new RealmApiError(status, [{ field: 'id', cause: 'not_found', value: 'x', message: 'm' }]))

  it('orNull answers null only for the statuses given (404 by default), and rejects on any other', async () => {
    expect(await orNull(Promise.resolve({ a: 1 }))).toEqual({ a: 1 })
    expect(await orNull(refused(404))).toBeNull()
    await expect(orNull(refused(403))).rejects.toBeInstanceOf(RealmApiError)
    expect(await orNull(refused(400), [404, 400])).toBeNull()
    await expect(orNull(Promise.reject(new Error('boom')))).rejects.toThrow('boom')
  })

  it('rowResult answers the fetcher { ok, errors, result }, or the refusal with its status and envelope', async () => {
    expect(await rowResult(Promise.resolve({ billing_key: 'BK1' }))).toEqual({ ok: true, errors: [], result: { billing_key: 'BK1' } })
    const failed = await rowResult(refused(409))
    expect('init' in failed && failed.init?.status).toBe(409)
    expect('data' in failed && failed.data).toEqual({ ok: false, errors: [{ field: 'id', cause: 'not_found', value: 'x', message: 'm' }] })
    await expect(rowResult(Promise.reject(new Error('boom')))).rejects.toThrow('boom')
  })
})

describe('CategoryNodes: the category tree read without asserting its type', () => {
  const node = (id: string, children?: unknown[]) => ({ id, realm: 'demo', name: `Cat ${id}`, parent: null, priority: 0, updated_by: 'root', children })

  it('reads every level of the nested answer (hono types the levels below the first as plain JSON)', () => {
    const tree = v.parse(CategoryNodes, [node('a', [node('b', [node('c')])]), node('d')])
    expect(tree[0].children?.[0].children?.[0]).toEqual({ id: 'c', name: 'Cat c', parent: null, priority: 0 })
    expect(parentOptions(tree).map((o) => o.label)).toEqual(['Cat a', 'Cat a › Cat b', 'Cat a › Cat b › Cat c', 'Cat d'])
  })

  it('refuses an answer whose nested node is not a category', () => {
    expect(v.safeParse(CategoryNodes, [node('a', [{ id: 'b' }])]).success).toBe(false)
  })
})
