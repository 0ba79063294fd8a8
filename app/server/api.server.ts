import type { AppLoadContext } from '@remix-run/cloudflare'
import { hc, type ClientResponse } from 'hono/client'
import type { SuccessStatusCode } from 'hono/utils/http-status'
import type { ApiType } from '../../worker/api/index'
import type { CrudApi } from '../../worker/lib/entity'
import * as v from 'valibot'
import { isErrorEnvelope, issuesToErrors, type ErrorItem } from '#shared/schemas/error'
import { forgetRequest } from './memo.server'

export const DASH_VERSION_HEADER = 'x-dash-version'

/** A failed realm-API call, carrying the envelope's items. */
export class RealmApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
  ) {
    super(errors.map((e) => `${e.cause}: ${e.message}`).join('; ') || `HTTP ${status}`)
  }
  /** True when some item has this cause. */
  has(cause: string): boolean {
    return this.errors.some((e) => e.cause === cause)
  }
}

/**
 * The answer of a call, or null when the API answers one of `statuses` (404 by default: no such record, or one the
 * caller may not see, which the API answers alike); any other refusal rejects as before.
 */
export async function orNull<T>(call: Promise<T>, statuses: readonly number[] = [404]): Promise<T | null> {
  try {
    return await call
  } catch (err) {
    if (err instanceof RealmApiError && statuses.includes(err.status)) return null
    throw err
  }
}

/** Turns a failed API call into the Response a route error boundary shows (status and envelope kept). */
export async function orErrorResponse<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (err) {
    if (err instanceof RealmApiError) throw Response.json({ errors: err.errors }, { status: err.status })
    throw err
  }
}

export interface RealmApiOptions {
  /** The realm's api_endpoint; defaults to this Worker's `/api/`. */
  endpoint?: string
  /** Auth token sent as `x-api-key`. */
  token?: string
  /** Realm sent as `x-api-realm` (needed on multi-realm hosts). */
  realm?: string
}

type QueryValue = string | number | boolean | null | undefined

/** Query values in the URL: `null`, `undefined` and `''` are left out (an empty filter is no filter). */
function searchParams(query: Record<string, QueryValue | QueryValue[]>): URLSearchParams {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined && one !== null && one !== '') params.append(k, String(one))
  }
  return params
}

/** Path parameters are percent-encoded (hono/client puts them in the path as given). */
function encodeParams<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof key !== 'string' || (typeof value !== 'function' && (typeof value !== 'object' || value === null))) return value
      if (!key.startsWith('$')) return encodeParams(value as object)
      return (args?: { param?: Record<string, unknown> }, ...rest: unknown[]) =>
        (value as (...a: unknown[]) => unknown)(
          args?.param ? { ...args, param: Object.fromEntries(Object.entries(args.param).map(([k, v]) => [k, encodeURIComponent(String(v))])) } : args,
          ...rest,
        )
    },
  })
}

/**
 * The one client loaders and actions use to reach the realm API, typed from the API's own routes (`ApiType`,
 * hono/client): `await apiData(api.mas.user[':nick'].$get({ param: { nick } }))`. When the endpoint is this same Worker
 * the request is dispatched in-process (no network hop); otherwise it goes over HTTP to the external realm API. A
 * failed call rejects with a RealmApiError carrying the envelope's items (503 `network`, 504 `timeout`).
 */
export function realmApi(request: Request, context: AppLoadContext, opts: RealmApiOptions = {}) {
  const origin = new URL(request.url).origin
  const endpoint = opts.endpoint || `${origin}/api/`
  const base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`
  const inProcess = new URL(endpoint).origin === origin
  const version = context.cloudflare.env.DASH_VERSION

  /** What `fetch` is to hono/client: headers, in-process dispatch, timeout, cache reset after writes, envelope → error. */
  const send = (timeoutMs?: number) =>
    async function send(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
      const method = (init.method ?? 'GET').toUpperCase()
      const h = new Headers({ accept: 'application/json', [DASH_VERSION_HEADER]: version })
      new Headers(init.headers).forEach((value, key) => h.set(key, value))
      if (opts.token) h.set('x-api-key', opts.token)
      if (opts.realm) h.set('x-api-realm', opts.realm)
      const forwarded = request.headers.get('user-agent')
      if (forwarded) h.set('user-agent', forwarded)
      // The browser's address, for per-client throttling of sign-in: Cloudflare's header in-process, X-Forwarded-For out.
      const address = request.headers.get('cf-connecting-ip')
      if (address) h.set(inProcess ? 'cf-connecting-ip' : 'x-forwarded-for', address)
      const body = init.body ?? undefined
      const req = new Request(input, { method, headers: h, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit)
      let res: Response
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        const sent = inProcess ? context.fetchApi(req) : fetch(req)
        res = timeoutMs
          ? await Promise.race([
              sent,
              new Promise<never>((_, reject) => {
                timer = setTimeout(
                  () => reject(new RealmApiError(504, [{ field: '', cause: 'timeout', value: timeoutMs, message: `No answer within ${timeoutMs} ms.` }])),
                  timeoutMs,
                )
              }),
            ])
          : await sent
      } catch (err) {
        if (err instanceof RealmApiError) throw err
        throw new RealmApiError(503, [{ field: '', cause: 'network', value: null, message: String(err) }])
      } finally {
        clearTimeout(timer)
      }
      // A write may change what this request cached (session, realm, permissions): later loaders read afresh.
      if (method !== 'GET') forgetRequest(context)
      if (!res.ok) {
        const answer: unknown = await res.json().catch(() => null)
        throw new RealmApiError(
          res.status,
          isErrorEnvelope(answer) ? answer.errors : [{ field: '', cause: 'internal', value: res.status, message: res.statusText }],
        )
      }
      return res
    }

  const client = (timeoutMs?: number) => encodeParams(hc<ApiType>(base, { fetch: send(timeoutMs), buildSearchParams: searchParams }))
  const extras = {
    /** The same client, giving up after `ms` milliseconds with cause `timeout` (504). */
    withTimeout: (ms: number) => client(ms),
    /**
     * The API of one declared plain entity (`app/shared/entities/`, served by crud() at `/<api>`), whose path comes
     * from its declaration: `api.entity('tms/genre').index.$get({ query })`.
     */
    entity: <Row = Record<string, unknown>>(path: string, timeoutMs?: number) =>
      encodeParams(hc<CrudApi<Row>>(base + path.replace(/^\/|\/$/g, ''), { fetch: send(timeoutMs), buildSearchParams: searchParams })),
  }
  const typed = client()
  return new Proxy(typed, {
    get: (target, key, receiver) =>
      typeof key === 'string' && Object.hasOwn(extras, key) ? extras[key as keyof typeof extras] : Reflect.get(target, key, receiver),
  }) as typeof typed & typeof extras
}

export type RealmApi = ReturnType<typeof realmApi>

/** What a successful call answers (its 2xx outputs; 204 answers null). */
export type ApiData<R> = R extends ClientResponse<infer O, infer S, infer _F> ? (S extends SuccessStatusCode ? O : never) : never

/**
 * A document the console forwards as it came (the model editor's JSON, an imported export), checked against the
 * endpoint's own schema before the call: the value, typed as the endpoint's body, or the RealmApiError (400, one item
 * per failed rule) the Worker would answer — the same envelope, so the screen shows the same field errors.
 */
export function validBody<S extends v.GenericSchema>(schema: S, value: unknown): v.InferInput<S> {
  if (v.is(schema, value)) return value
  throw new RealmApiError(400, issuesToErrors(v.safeParse(schema, value).issues ?? []))
}

/**
 * The answer of a typed client call, parsed: `const page = await apiData(api.mas.user.$get({ query }))`. A refused call
 * has already rejected with a RealmApiError (see realmApi), so this only reads success.
 */
export async function apiData<R extends ClientResponse<unknown, number, 'json' | 'text' | string>>(call: Promise<R>): Promise<ApiData<R>> {
  const res = await call
  if (res.status === 204) return null as ApiData<R>
  return (await res.json().catch(() => null)) as ApiData<R>
}
