import { Hono } from 'hono'
import * as v from 'valibot'
import { UsernameSignin } from '#shared/schemas/auth'
import { RealmCode } from '#shared/schemas/common'
import { revokeUserSessions } from '../db/sessions'
import { findUserForSignin, setPasswordHash } from '../db/users'
import { apiError } from '../lib/errors'
import { hashPassword, needsRehash, verifyPassword } from '../lib/password'
import { guarded, guardedJson } from '../lib/guard'
import { type AppEnv } from './context'
import { beginSignin, issueSession, Platform, signinFailed, signinRealm } from './signin'

/** Username sign-in (seed 000 §5): username and password each longer than 1 character. */
export const DeviceSignin = v.object({
  realm: RealmCode,
  ...UsernameSignin.entries,
  fields: v.optional(v.unknown()),
  platform: Platform,
})

/** The realm's nick suffix is appended to a nick that does not already end with it. */
export function withNickSuffix(nick: string, suffix: string): string {
  return suffix && !nick.endsWith(suffix) ? `${nick}${suffix}` : nick
}

export const device = new Hono<AppEnv>()
  /** POST /device: sign in with nick and password; answers a new session token (never a stored password). */
  .post(
    '/',
    guardedJson('public', DeviceSignin, async (c, _auth, body) => {
      const realm = await signinRealm(c, body.realm)
      const nick = withNickSuffix(body.nick, String(realm.nick_suffix ?? ''))
      const attempt = await beginSignin(c, realm, nick)
      const user = await findUserForSignin(c.env.DB, body.realm, nick)
      const valid = await verifyPassword(body.password, user && !user.disabled ? user.password_hash : '')
      if (!user || !valid) return signinFailed(c, attempt, apiError(401, 'credentials', 'Incorrect login or password.', 'nick', nick))
      if (needsRehash(user.password_hash)) await setPasswordHash(c.env.DB, body.realm, nick, await hashPassword(body.password))
      return c.json(await issueSession(c, attempt, user, body.platform, nick))
    }),
  )
  /** DELETE /device: sign out; ends every session of the user (all devices, and switched realms). */
  .delete(
    '/',
    guarded({}, async (c, auth) => {
      await revokeUserSessions(c.env.DB, auth.home_realm, auth.nick)
      return c.body(null, 204)
    }),
  )
