import { Hono, type MiddlewareHandler } from 'hono'
import { ApiError } from '../lib/errors'
import { guarded } from '../lib/guard'
import type { AppEnv } from './context'
import { captcha } from './captcha'
import { device } from './device'
import { file } from './file'
import { oauth2 } from './oauth2'
import { outbox, password } from './password'
import { ledger } from './ledger'
import { permission } from './permission'
import { realm } from './realm'
import { masRegistration, registration } from './registration'
import { session } from './session'

/** Every API answer carries the built version (seed 000 §7). */
export const versionHeader: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('requestId', c.req.header('cf-ray') ?? crypto.randomUUID())
  await next()
  c.res.headers.set('x-dash-version', c.env.DASH_VERSION)
  c.res.headers.set('x-request-id', c.get('requestId'))
}

/** The realm API, mounted under `/api` by the Worker entry; paths follow seed 000 §7. */
export function createApi(): Hono<AppEnv> {
  const api = new Hono<AppEnv>()

  api.use('*', versionHeader)

  api.get('/version', guarded('public', (c) => c.json({ version: c.env.DASH_VERSION })))
  api.route('/device', device)
  api.route('/mas/session', session)
  api.route('/mas/permission', permission)
  api.route('/mas/realm', realm)
  api.route('/mas/file', file)
  api.route('/registration', registration)
  api.route('/mas/registration', masRegistration)
  api.route('/captcha', captcha)
  api.route('/mas/password', password)
  api.route('/dev/outbox', outbox)
  api.route('/mas/oauth2', oauth2)
  api.route('/ledger', ledger)

  // Registered last: any other /api path answers the envelope instead of falling through to the console.
  api.all(
    '*',
    guarded('public', (c) =>
      c.json({ errors: [{ field: 'path', cause: 'not_found', value: `${c.req.method} ${c.req.path}`, message: 'No such API endpoint.' }] }, 404),
    ),
  )
  api.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ errors: err.errors }, err.status)
    const requestId = c.get('requestId') ?? crypto.randomUUID()
    console.error(`[${requestId}] ${c.req.method} ${c.req.path}:`, err)
    return c.json({ errors: [{ field: '', cause: 'internal', value: requestId, message: 'Unexpected server error.' }] }, 500)
  })
  return api
}
