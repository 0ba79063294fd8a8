import { Hono } from 'hono'
import { guardedJson } from '../lib/guard'
import { CaptchaChallengeRequest, CaptchaVerifyRequest, SessionKey } from '#shared/schemas/captcha'
import { createChallenge, realmCaptchaType, verifyChallenge } from '../db/captcha'
import { getRealmRow } from '../db/realms'
import { ApiError, apiError } from '../lib/errors'
import { type AppEnv, type Ctx, readHeader } from './context'

/** The realm named in the body, which must be the host's realm on a realm host. */
async function captchaRealm(c: Ctx, code: string) {
  const hostRealm = c.get('hostRealm')
  if (hostRealm && hostRealm !== code) throw apiError(400, 'realm', `This host serves realm ${hostRealm}.`, 'realm', code)
  const row = await getRealmRow(c.env.DB, code)
  if (!row) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
  return row
}

export const captcha = new Hono<AppEnv>()
  /**
   * POST /captcha/challenge (no auth; header x-session-key): a new challenge of the realm's kind (text, image or proof
   * of work). The realm decides: a `type` the client asks for is ignored, so nobody can pick the easiest kind (a
   * worded sum a machine reads) on a realm set to another.
   */
  .post(
    '/challenge',
    guardedJson('public', CaptchaChallengeRequest, async (c, _auth, body) => {
      const sessionKey = readHeader(c, 'x-session-key', SessionKey)
      const realm = await captchaRealm(c, body.realm)
      const type = realmCaptchaType(realm)
      return c.json(await createChallenge(c.env.DB, body.realm, { type, sessionKey, lang: body.lang, difficulty: Number(realm.captcha_pow_difficulty) }))
    }),
  )
  /** POST /captcha/verify (no auth; header x-session-key): `{ valid: true, token }`, or `valid: false` with the envelope. */
  .post(
    '/verify',
    guardedJson('public', CaptchaVerifyRequest, async (c, _auth, body) => {
      const sessionKey = readHeader(c, 'x-session-key', SessionKey)
      const realm = await captchaRealm(c, body.realm)
      const answer = body.type === 'pow' ? body.payload.solution : body.payload.answer
      if (answer === undefined || answer === '') {
        throw apiError(400, 'required', 'validation.required', body.type === 'pow' ? 'payload.solution' : 'payload.answer')
      }
      try {
        // Only the realm's kind earns a token (a challenge of another kind may have been issued before the realm changed).
        const kind = realmCaptchaType(realm)
        if (body.type !== kind) throw apiError(400, 'captcha_type', `This realm's captcha is ${kind}.`, 'type', kind)
        const result = await verifyChallenge(c.env.DB, body.realm, { type: body.type, sessionKey, challengeId: body.payload.challengeId, answer })
        return c.json({ valid: true, ...result })
      } catch (err) {
        if (err instanceof ApiError) return c.json({ valid: false, errors: err.errors }, err.status)
        throw err
      }
    }),
  )
