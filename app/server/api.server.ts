import type { AppLoadContext } from '@remix-run/cloudflare'
import { isErrorEnvelope, type ErrorItem } from '#shared/schemas/error'
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

/** Turns a failed API call into the Response a route error boundary shows (status and envelope kept). */
export async function orErrorResponse<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (err) {
    if (err instanceof RealmApiError) throw Response.json({ errors: err.errors }, { status: err.status })
    throw err
  }
}

type Query = Record<string, string | number | boolean | null | undefined>
interface CallOptions {
  query?: Query
  body?: unknown
  headers?: Record<string, string>
  /** Gives up after this many milliseconds with cause `timeout` (504). */
  timeoutMs?: number
}

export interface RealmApiOptions {
  /** The realm's api_endpoint; defaults to this Worker's `/api/`. */
  endpoint?: string
  /** Auth token sent as `x-api-key`. */
  token?: string
  /** Realm sent as `x-api-realm` (needed on multi-realm hosts). */
  realm?: string
}

/**
 * The one client loaders and actions use to reach the realm API. When the endpoint is this same Worker the
 * request is dispatched in-process (no network hop); otherwise it goes over HTTP to the external realm API.
 */
export function realmApi(request: Request, context: AppLoadContext, opts: RealmApiOptions = {}) {
  const origin = new URL(request.url).origin
  const endpoint = opts.endpoint || `${origin}/api/`
  const inProcess = new URL(endpoint).origin === origin
  const version = context.cloudflare.env.DASH_VERSION

  async function call<T>(method: string, path: string, { query, body, headers, timeoutMs }: CallOptions = {}): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), endpoint.endsWith('/') ? endpoint : `${endpoint}/`)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v))
    const h = new Headers({ accept: 'application/json', [DASH_VERSION_HEADER]: version, ...headers })
    if (opts.token) h.set('x-api-key', opts.token)
    if (opts.realm) h.set('x-api-realm', opts.realm)
    const forwarded = request.headers.get('user-agent')
    if (forwarded) h.set('user-agent', forwarded)
    // The browser's address, for per-client throttling of sign-in: Cloudflare's header in-process, X-Forwarded-For out.
    const address = request.headers.get('cf-connecting-ip')
    if (address) h.set(inProcess ? 'cf-connecting-ip' : 'x-forwarded-for', address)
    let payload: BodyInit | undefined
    if (body instanceof FormData || body instanceof ReadableStream) payload = body
    else if (body !== undefined) {
      payload = JSON.stringify(body)
      h.set('content-type', 'application/json')
    }
    const req = new Request(url, { method, headers: h, body: payload, ...(payload instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit)
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
    if (res.status === 204) return undefined as T
    const data: unknown = await res.json().catch(() => null)
    if (!res.ok) {
      throw new RealmApiError(res.status, isErrorEnvelope(data) ? data.errors : [{ field: '', cause: 'internal', value: res.status, message: res.statusText }])
    }
    return data as T
  }

  return {
    get: <T>(path: string, query?: Query, opts: Pick<CallOptions, 'timeoutMs'> = {}) => call<T>('GET', path, { query, ...opts }),
    post: <T>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, { body, headers }),
    /** Streams a request body (e.g. a multipart upload) to the API without buffering it. */
    stream: <T>(path: string, body: ReadableStream, contentType: string) => call<T>('POST', path, { body, headers: { 'content-type': contentType } }),
    put: <T>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', path, { body, headers }),
    /** A delete, with a JSON body when the API asks for one (e.g. a realm's typed confirmation). */
    delete: <T = void>(path: string, body?: unknown) => call<T>('DELETE', path, { body }),
  }
}
export type RealmApi = ReturnType<typeof realmApi>
