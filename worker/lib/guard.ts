import type { Handler } from 'hono'
import type { Access } from '#shared/access'
import type { AppEnv, Ctx } from '../api/context'
import { requireAccess } from '../api/context'
import type { Auth } from '../db/sessions'
import { apiError } from './errors'

/** What an endpoint requires: a permission expression (`{}` = any signed-in user), or `public` (no session). */
export type EndpointAccess = Access | 'public'

const declared = new WeakMap<object, EndpointAccess>()

type Guarded<A extends EndpointAccess> = (c: Ctx, auth: A extends 'public' ? null : Auth) => Response | Promise<Response>

/**
 * Every API handler is declared through `guarded`: the requirement is checked before the handler runs (403 with
 * the envelope when it fails) and recorded, so tests can enumerate every endpoint with its requirement.
 * `exists`, when given, says whether the endpoint exists at all for this Worker (e.g. only in development mode):
 * when it does not, the answer is the 404 of an unknown path, before any session check, so nothing is advertised.
 */
export function guarded<A extends EndpointAccess>(access: A, handler: Guarded<A>, exists?: (env: Env) => boolean): Handler<AppEnv> {
  const h: Handler<AppEnv> = async (c) => {
    if (exists && !exists(c.env)) throw apiError(404, 'not_found', 'No such API endpoint.', 'path', `${c.req.method} ${c.req.path}`)
    const auth = access === 'public' ? null : await requireAccess(c, access as Access)
    return handler(c, auth as A extends 'public' ? null : Auth)
  }
  declared.set(h, access)
  return h
}

/** The requirement an API handler declared, or undefined when it was not declared through `guarded`. */
export function endpointAccess(handler: unknown): EndpointAccess | undefined {
  return typeof handler === 'function' ? declared.get(handler) : undefined
}
