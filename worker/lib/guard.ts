import type { Handler } from 'hono'
import type * as v from 'valibot'
import type { HandlerResponse } from 'hono/types'
import type { Access } from '#shared/access'
import type { AppEnv, Ctx } from '../api/context'
import { readJson, requireAccess } from '../api/context'
import type { Auth } from '../db/sessions'
import { apiError } from './errors'

/** What an endpoint requires: a permission expression (`{}` = any signed-in user), or `public` (no session). */
export type EndpointAccess = Access | 'public'

const declared = new WeakMap<object, EndpointAccess>()

type Guarded<A extends EndpointAccess, R> = (c: Ctx, auth: A extends 'public' ? null : Auth) => R

/** A query value the console's client may send (`null`, `undefined` and `''` are left out of the URL). */
export type QueryValue = string | number | boolean | null | undefined

/**
 * What a caller may send to an endpoint, as the typed client (`hono/client`, `ApiType`) sees it. Handlers validate
 * their own input with valibot (guardedJson, parse) and answer the envelope on bad input; this is only the client's
 * view. An endpoint states its body with `guardedJson` and its query with `accepts<…>()`; the rest take any query
 * and any JSON body.
 */
export type ApiInput = { query?: Record<string, QueryValue | QueryValue[]>; json?: unknown }
type LooseInput = { in: ApiInput; out: ApiInput }

/**
 * Every API handler is declared through `guarded`: the requirement is checked before the handler runs (403 with
 * the envelope when it fails) and recorded, so tests can enumerate every endpoint with its requirement.
 * `exists`, when given, says whether the endpoint exists at all for this Worker (e.g. only in development mode):
 * when it does not, the answer is the 404 of an unknown path, before any session check, so nothing is advertised.
 */
export function guarded<A extends EndpointAccess, R extends HandlerResponse<unknown>>(
  access: A,
  handler: Guarded<A, R>,
  exists?: (env: Env) => boolean,
): Handler<AppEnv, string, LooseInput, R> {
  const h = (async (c: Ctx) => {
    if (exists && !exists(c.env)) throw apiError(404, 'not_found', 'No such API endpoint.', 'path', `${c.req.method} ${c.req.path}`)
    const auth = access === 'public' ? null : await requireAccess(c, access as Access)
    return handler(c, auth as A extends 'public' ? null : Auth)
  }) as unknown as Handler<AppEnv, string, LooseInput, R>
  declared.set(h, access)
  return h
}

/** The requirement an API handler declared, or undefined when it was not declared through `guarded`. */
export function endpointAccess(handler: unknown): EndpointAccess | undefined {
  return typeof handler === 'function' ? declared.get(handler) : undefined
}

/**
 * States an endpoint's input for the typed client (the same function comes back; nothing changes at run time):
 * `.get('/', accepts<{ query: { like?: string } }>()(guarded(…)))` makes a call with another query fail to compile.
 */
export function accepts<I extends ApiInput>() {
  return <R extends HandlerResponse<unknown>>(handler: Handler<AppEnv, string, LooseInput, R>) =>
    handler as unknown as Handler<AppEnv, string, { in: I; out: I }, R>
}

type JsonInput<S extends v.GenericSchema> = {
  in: { json: v.InferInput<S>; query?: ApiInput['query'] }
  out: { json: v.InferInput<S>; query?: ApiInput['query'] }
}

/**
 * An endpoint that reads a JSON body, stated once: the requirement is checked, then the body is read and validated
 * with `schema` (400 with the envelope on bad input, before the handler runs and changes anything), and the typed
 * client sees the schema's input as the call's `json`:
 * `.post('/', guardedJson({ all: ['mas_user_create'] }, UserCreate, async (c, auth, body) => …))`.
 */
export function guardedJson<A extends EndpointAccess, S extends v.GenericSchema, R extends HandlerResponse<unknown>>(
  access: A,
  schema: S,
  handler: (c: Ctx, auth: A extends 'public' ? null : Auth, body: v.InferOutput<S>) => R,
  exists?: (env: Env) => boolean,
): Handler<AppEnv, string, JsonInput<S>, R> {
  const read = (async (c: Ctx, auth: A extends 'public' ? null : Auth) => handler(c, auth, await readJson(c, schema))) as unknown as Guarded<A, R>
  return guarded(access, read, exists) as unknown as Handler<AppEnv, string, JsonInput<S>, R>
}
