import { Hono, type MiddlewareHandler } from 'hono'
import { guarded } from '../lib/guard'
import { asset } from './asset'
import { captcha } from './captcha'
import type { AppEnv } from './context'
import { outbox } from './dev/outbox'
import { device } from './device'
import { content } from './ledger/content'
import { packages } from './ledger/package'
import { report as ledgerReport } from './ledger/report'
import { sandbox } from './ledger/sandbox'
import { transaction } from './ledger/transaction'
import { wallet } from './ledger/wallet'
import { webhook } from './ledger/webhook'
import { auditLog } from './mas/audit_log'
import { config } from './mas/config'
import { errorLog, handleApiError } from './mas/error_log'
import { extraField } from './mas/extra_field'
import { file } from './mas/file'
import { oauth2 } from './mas/oauth2'
import { password } from './mas/password'
import { permission } from './mas/permission'
import { realm, realmSettings } from './mas/realm'
import { masRegistration } from './mas/registration'
import { report } from './mas/report'
import { session } from './mas/session'
import { user } from './mas/user'
import { registration } from './registration'
import { category as roomCategory } from './room/category'
import { roomGroup } from './room/group'
import { metaverse } from './room/metaverse'
import { room } from './room/room'
import { category as tmsCategory } from './tms/category'
import { model } from './tms/model'
import { bank } from './tms/question_bank'
import { task } from './tms/task'
import { token } from './tms/token'
import { mountEntities } from './entities'

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
  // One module per URL: `/api/<path>` lives in `worker/api/<path>.ts`. The order is the registration order, which the
  // router follows and the endpoint table (PERMISSIONS.md) lists; `/mas/realm` is mounted twice (its own calls first,
  // its per-realm settings after the ledger), as it always was.
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
  api.route('/ledger/content', content)
  api.route('/ledger/package', packages)
  api.route('/ledger/transaction', transaction)
  api.route('/ledger/wallet', wallet)
  api.route('/ledger/webhook', webhook)
  api.route('/ledger/sandbox', sandbox)
  api.route('/ledger/report', ledgerReport)
  api.route('/mas/realm', realmSettings)
  api.route('/mas/config', config)
  api.route('/mas/user', user)
  api.route('/mas/report', report)
  api.route('/mas/extra_field', extraField)
  api.route('/mas/audit_log', auditLog)
  api.route('/mas/error_log', errorLog)
  api.route('/room/category', roomCategory)
  api.route('/room/metaverse', metaverse)
  api.route('/asset', asset)
  api.route('/tms/model', model)
  api.route('/tms/task', task)
  api.route('/tms/question_bank', bank)
  api.route('/tms/category', tmsCategory)
  mountEntities(api)
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
