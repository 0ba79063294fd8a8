import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { setPasswordHashStatement } from '../../db/users'
import { auditStatement } from '../../db/audit'
import { guardedJson } from '../../lib/guard'
import * as v from 'valibot'
import { PasswordReset, RecoverRequest, ResetKey } from '#shared/schemas/password'
import { createResetKey, RESET_KEY_TTL_MS, resetKeyRealm, useResetKey } from '../../db/password-reset'
import { revokeUserSessionsStatement } from '../../db/sessions'
import { clearAccountFailures } from '../../db/throttle'
import { realmHomeUrl, resolveHost } from '../../db/realms'
import { findUserByEmail, findUserForSignin } from '../../db/users'
import { apiError } from '../../lib/errors'
import { emailSender, recoveryMail } from '../../lib/mail'
import { hashPassword } from '../../lib/password'
import { type AppEnv, requestRealm } from '../context'
import { withNickSuffix } from '../device'
import { signinRealm } from '../signin'

export const password = new Hono<AppEnv>()
  /**
   * POST /mas/password/recover (public): e-mails a single-use reset link to the account with this nick or e-mail.
   * The answer is the same whether or not the account exists, so it cannot be used to discover accounts.
   */
  .post(
    '/recover',
    guardedJson('public', RecoverRequest, async (c, _auth, body) => {
      const realm = await signinRealm(c, body.realm)
      const user =
        (await findUserForSignin(c.env.DB, realm.code, withNickSuffix(body.login, String(realm.nick_suffix ?? '')))) ??
        (body.login.includes('@') ? await findUserByEmail(c.env.DB, realm.code, body.login) : null)
      // The link points at the realm's own console address, never at the request's Host header: whoever asks for a
      // reset must not be able to send the account holder a link to a host of their choosing.
      const home = user && !user.disabled && user.email ? await realmHomeUrl(c.env.DB, realm, c.req.url) : null
      if (user && !user.disabled && user.email && !home) {
        console.error(`[recover] ${realm.code}: the realm has no console address (dashboard_url or host); no reset e-mail was sent.`)
      }
      if (user && !user.disabled && user.email && home) {
        const issued = await createResetKey(c.env.DB, realm.code, user.nick)
        if (issued) {
          const link = new URL('/authentication/recover', home)
          link.searchParams.set('key', issued.key)
          // A console address that is not one of the realm's own hosts serves every realm: the link names it.
          if ((await resolveHost(c.env.DB, link.hostname))?.realm !== realm.code) link.searchParams.set('realm', realm.code)
          const mail = recoveryMail(body.lang, {
            realm: realm.code,
            realmName: String(realm.name),
            to: user.email,
            name: user.name || user.nick,
            link: link.toString(),
            minutes: RESET_KEY_TTL_MS / 60_000,
          })
          try {
            await emailSender(c.env).send(mail)
          } catch (err) {
            // The answer stays neutral (it must not tell which accounts exist); the failure is for the operators.
            console.error(`[recover] ${realm.code}: the reset e-mail could not be sent:`, err)
          }
        }
      }
      return c.json({ sent: true }, 202)
    }),
  )
  /** POST /mas/password/reset (public, header x-reset-key): sets the new password, ends every session of the account. */
  .post(
    '/reset',
    guardedJson('public', PasswordReset, async (c, _auth, body) => {
      const header = v.safeParse(ResetKey, c.req.header('x-reset-key'))
      if (!header.success) throw apiError(400, 'reset_key_invalid', 'The reset key is not valid.', 'x-reset-key')
      const key = header.output
      const realm = requestRealm(c)
      const keyRealm = await resetKeyRealm(c.env.DB, key)
      if (keyRealm && realm && keyRealm !== realm) throw apiError(404, 'reset_key_not_found', 'The reset key was not found.', 'x-reset-key')
      const used = await useResetKey(c.env.DB, key)
      if (used.status !== 'ok') {
        if (used.status === 'expired') throw apiError(410, 'reset_key_expired', 'The reset key has expired.', 'x-reset-key')
        if (used.status === 'used') throw apiError(409, 'reset_key_used', 'The reset key was already used.', 'x-reset-key')
        throw apiError(404, 'reset_key_not_found', 'The reset key was not found.', 'x-reset-key')
      }
      await runBatch(c.env.DB, [
        setPasswordHashStatement(c.env.DB, used.realm, used.nick, await hashPassword(body.password)),
        revokeUserSessionsStatement(c.env.DB, used.realm, used.nick),
        // The account holder acts through the mailed key; the record shows the change, never the password.
        auditStatement(c.env.DB, {
          realm: used.realm,
          actor: used.nick,
          action: 'password_reset',
          entity: 'user',
          entityId: used.nick,
          before: { password: 'set' },
          after: { password: 'reset' },
          requestId: c.get('requestId'),
        }),
      ])
      await clearAccountFailures(c.env.DB, used.realm, used.nick)
      return c.json({ realm: used.realm, nick: used.nick })
    }),
  )
