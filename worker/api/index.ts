import { Hono, type MiddlewareHandler } from 'hono'
import { guarded } from '../lib/guard'
import { asset } from './asset'
import { category } from './category'
import { config } from './config'
import type { AppEnv } from './context'
import { captcha } from './captcha'
import { device } from './device'
import { extraField } from './extra-field'
import { file } from './file'
import { oauth2 } from './oauth2'
import { outbox, password } from './password'
import { ledger } from './ledger'
import { permission } from './permission'
import { realm } from './realm'
import { masRegistration, registration } from './registration'
import { metaverse } from './metaverse'
import { realmSettings } from './realm-settings'
import { report } from './report'
import { session } from './session'
import { auditLog, errorLog, handleApiError } from './technical'
import { user } from './user'
import { room, roomGroup } from './room'
import { bank } from './tms-bank'
import { model } from './tms-model'
import { assessedSkill, category as tmsCategory, genre } from './tms-taxonomy'
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

  api.get(
    '/version',
    guarded('public', (c) => c.json({ version: c.env.DASH_VERSION })),
  )
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
  api.route('/mas/realm', realmSettings)
  api.route('/mas/config', config)
  api.route('/mas/user', user)
  api.route('/mas/report', report)
  api.route('/mas/extra_field', extraField)
  api.route('/mas/audit_log', auditLog)
  api.route('/mas/error_log', errorLog)
  api.route('/room/category', category)
  api.route('/room/metaverse', metaverse)
  api.route('/asset', asset)
  api.route('/tms/model', model)
  api.route('/tms/task', task)
  api.route('/tms/question_bank', bank)
  api.route('/tms/category', tmsCategory)
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
  // Unexpected errors are also stored with their request id for technical/logs.
  api.onError(handleApiError)
  return api
}
