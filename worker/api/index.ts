import { Hono, type MiddlewareHandler } from 'hono'
import { ApiError } from '../lib/errors'
import { guarded } from '../lib/guard'
import type { AppEnv } from './context'
import { device } from './device'
import { file } from './file'
import { permission } from './permission'
import { realm } from './realm'
import { session } from './session'
import { room, roomGroup } from './room'
import { bank } from './tms-bank'
import { model } from './tms-model'
import { assessedSkill, category, genre } from './tms-taxonomy'
import { task } from './tms-task'
import { token } from './tms-token'

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
  api.route('/tms/model', model)
  api.route('/tms/task', task)
  api.route('/tms/question_bank', bank)
  api.route('/tms/category', category)
  api.route('/tms/assessed_skill', assessedSkill)
  api.route('/tms/genre', genre)
  api.route('/tms/token', token)
  api.route('/room/room', room)
  api.route('/room/group', roomGroup)

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
