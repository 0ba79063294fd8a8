import { achievementGoal, achievementMine, achievementOptions } from './achievement/goal'
import { achievementTrack } from './achievement/track'
import { lessonLesson } from './lesson/lesson'
import { lessonModel } from './lesson/model'
import { lessonMedia } from './lesson/media'
import { lessonStudent } from './lesson/student'
import { surveyModel } from './survey/model'
import { surveyStudent } from './survey/student'
import { surveySurvey } from './survey/survey'
import { Hono, type MiddlewareHandler } from 'hono'
import { guarded } from '../lib/guard'
import { settings as aiSettings } from './ai/settings'
import { speech as aiSpeech } from './ai/speech'
import { status as aiStatus } from './ai/status'
import { asset } from './asset'
import { captcha } from './captcha'
import { channel } from './channel/channel'
import { live as channelLive } from './channel/live'
import { recording as csmRecording } from './csm/recording'
import { session as csmSession } from './csm/session'
import { watch as csmWatch } from './csm/watch'
import type { AppEnv } from './context'
import { outbox } from './dev/outbox'
import { chat as personaChat } from './personai/chat'
import { assistant } from './personai/assistant'
import { persona } from './personai/persona'
import { retention as personaChatRetention } from './personai/retention'
import { dialog as personaDialog } from './personai/persona/dialog'
import { knowledge as personaKnowledge } from './personai/persona/knowledge'
import { media as personaMedia } from './personai/persona/media'
import { transcript as personaTranscript } from './personai/persona/transcript'
import { deeplink } from './deeplink'
import { device } from './device'
import { content } from './ledger/content'
import { packages } from './ledger/package'
import { report as ledgerReport } from './ledger/report'
import { analytics } from './analytics'
import { analyticsRealms } from './analytics/realms'
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
import { cardOpen } from './room/card'
import { category as roomCategory } from './room/category'
import { roomGroup } from './room/group'
import { metaverse } from './room/metaverse'
import { roomLive } from './room/live'
import { room } from './room/room'
import { answer } from './tms/answer'
import { answerStudent } from './tms/answer-student'
import { model } from './tms/model'
import { bank } from './tms/question_bank'
import { task } from './tms/task'
import { token } from './tms/token'
import { entityRoutes } from './entities'
import { mine as feedMine } from './feed/mine'
import { post as feedPost } from './feed/post'
import { live as pollLive } from './poll/live'
import { poll } from './poll/poll'
import { live as quizLive } from './quiz/live'
import { quiz } from './quiz/quiz'
import { contentConfig, settings as cgsSettings } from './cgs/content-config'
import { genesis } from './genesis/job'

/** Every API answer carries the built version (seed 000 §7). */
export const versionHeader: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('requestId', c.req.header('cf-ray') ?? crypto.randomUUID())
  await next()
  c.res.headers.set('x-dash-version', c.env.DASH_VERSION)
  c.res.headers.set('x-request-id', c.get('requestId'))
}

/** The realm API, mounted under `/api` by the Worker entry; paths follow seed 000 §7. */
export function createApi() {
  const api = new Hono<AppEnv>()
    .use('*', versionHeader)

    .get(
      '/version',
      guarded('public', (c) => c.json({ version: c.env.DASH_VERSION })),
    )
    // One module per URL: `/api/<path>` lives in `worker/api/<path>.ts`. The order is the registration order, which the
    // router follows and the endpoint table (PERMISSIONS.md) lists; `/mas/realm` is mounted twice (its own calls first,
    // its per-realm settings after the ledger), as it always was.
    .route('/device', device)
    .route('/mas/session', session)
    .route('/mas/permission', permission)
    .route('/mas/realm', realm)
    .route('/mas/file', file)
    .route('/registration', registration)
    .route('/mas/registration', masRegistration)
    .route('/captcha', captcha)
    .route('/mas/password', password)
    .route('/dev/outbox', outbox)
    .route('/mas/oauth2', oauth2)
    .route('/ledger/content', content)
    .route('/ledger/package', packages)
    .route('/ledger/transaction', transaction)
    .route('/ledger/wallet', wallet)
    .route('/ledger/webhook', webhook)
    .route('/ledger/sandbox', sandbox)
    .route('/ledger/report', ledgerReport)
    .route('/analytics', analytics)
    .route('/analytics/realms', analyticsRealms)
    .route('/mas/realm', realmSettings)
    .route('/mas/config', config)
    .route('/mas/user', user)
    .route('/mas/report', report)
    .route('/mas/extra_field', extraField)
    .route('/mas/audit_log', auditLog)
    .route('/mas/error_log', errorLog)
    .route('/room/category', roomCategory)
    .route('/room/metaverse', metaverse)
    // Before the entities: the declared cards' API (`/room/card`) has no `/{id}/open`.
    .route('/room/card', cardOpen)
    .route('/asset', asset)
    .route('/tms/model', model)
    .route('/tms/task', task)
    .route('/tms/question_bank', bank)
    .route('/lesson/model', lessonMedia)
    .route('/lesson/model', lessonModel)
    .route('/lesson/lesson', lessonLesson)
    .route('/lesson/student', lessonStudent)
    .route('/achievement/goal', achievementGoal)
    .route('/achievement/options', achievementOptions)
    .route('/achievement/mine', achievementMine)
    .route('/achievement/track', achievementTrack)
    .route('/survey/model', surveyModel)
    .route('/survey/survey', surveySurvey)
    .route('/survey/student', surveyStudent)
    .route('/', entityRoutes())
    // After the entities: `/channel/category` is the channel categories' declared API.
    .route('/channel/live', channelLive)
    .route('/csm/recording', csmRecording)
    // Watching (issue 15): /watchable and /{id}/player|video|watch|watchers, before the sessions' crud.
    .route('/csm/session', csmWatch)
    .route('/csm/session', csmSession)
    .route('/channel', channel)
    .route('/tms/token', token)
    .route('/tms/answer', answer)
    .route('/tms/answer-student', answerStudent)
    .route('/room/room', room)
    .route('/room/live', roomLive)
    .route('/room/group', roomGroup)
    .route('/ai/status', aiStatus)
    .route('/ai/settings', aiSettings)
    .route('/ai/speech', aiSpeech)
    .route('/cgs/content_config', contentConfig)
    .route('/cgs/settings', cgsSettings)
    .route('/genesis', genesis)
    .route('/personai/persona/:personaId/dialog', personaDialog)
    .route('/personai/persona/:personaId/knowledge', personaKnowledge)
    .route('/personai/persona/:personaId/transcript', personaTranscript)
    .route('/personai/persona/:personaId', personaMedia)
    .route('/personai/persona', persona)
    .route('/personai/chat', personaChat)
    .route('/personai/retention', personaChatRetention)
    .route('/personai/assistant', assistant)
    .route('/deeplink', deeplink)
    .route('/feed/post', feedPost)
    .route('/feed/mine', feedMine)
    .route('/quiz/live', quizLive)
    .route('/quiz', quiz)
    .route('/poll/live', pollLive)
    .route('/poll', poll)

    // Registered last: any other /api path answers the envelope instead of falling through to the console.
    .all(
      '*',
      guarded('public', (c) =>
        c.json({ errors: [{ field: 'path', cause: 'not_found', value: `${c.req.method} ${c.req.path}`, message: 'No such API endpoint.' }] }, 404),
      ),
    )
  // Unexpected errors are also stored with their request id for technical/logs.
  api.onError(handleApiError)
  return api
}

/** The realm API's routes with each one's input and answer: what the console's typed client (`hono/client`) reads. */
export type ApiType = ReturnType<typeof createApi>
