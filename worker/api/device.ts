import { Hono } from 'hono'
import * as v from 'valibot'
import { UsernameSignin } from '../../app/schemas/auth'
import { RealmCode } from '../../app/schemas/common'
import { getRealmRow, realmConfig } from '../db/realms'
import { createSession, revokeSession } from '../db/sessions'
import { findUserForSignin, setPasswordHash } from '../db/users'
import { apiError } from '../lib/errors'
import { hashPassword, needsRehash, verifyPassword } from '../lib/password'
import { guarded } from '../lib/guard'
import { type AppEnv, origin, readJson } from './context'

/** Username sign-in (seed 000 §5): username and password each longer than 1 character. */
export const DeviceSignin = v.object({
  realm: RealmCode,
  ...UsernameSignin.entries,
  fields: v.optional(v.unknown()),
  platform: v.optional(v.picklist(['dashboard', 'mobile', 'web'], 'validation.picklist'), 'dashboard'),
})

/** The realm's nick suffix is appended to a nick that does not already end with it. */
export function withNickSuffix(nick: string, suffix: string): string {
  return suffix && !nick.endsWith(suffix) ? `${nick}${suffix}` : nick
}

export const device = new Hono<AppEnv>()

/** POST /device: sign in with nick and password; answers a new session token (never a stored password). */
device.post(
  '/',
  guarded('public', async (c) => {
  const body = await readJson(c, DeviceSignin)
  const hostRealm = c.get('hostRealm')
  if (hostRealm && hostRealm !== body.realm) {
    throw apiError(400, 'realm', `This host serves realm ${hostRealm}.`, 'realm', body.realm)
  }
  const realm = await getRealmRow(c.env.DB, body.realm)
  if (!realm) throw apiError(404, 'not_found', `Realm ${body.realm} was not found.`, 'realm', body.realm)
  const nick = withNickSuffix(body.nick, String(realm.nick_suffix ?? ''))
  const user = await findUserForSignin(c.env.DB, body.realm, nick)
  const valid = await verifyPassword(body.password, user && !user.disabled ? user.password_hash : '')
  if (!user || !valid) throw apiError(401, 'credentials', 'Incorrect login or password.', 'nick', nick)
  if (needsRehash(user.password_hash)) await setPasswordHash(c.env.DB, body.realm, nick, await hashPassword(body.password))
  const session = await createSession(c.env.DB, body.realm, nick, { platform: body.platform, userAgent: c.req.header('user-agent') })
  const config = realmConfig(realm, origin(c), !hostRealm)
  return c.json({
    device_id: session.deviceId,
    auth_token: session.token,
    realm: body.realm,
    nick,
    name: user.name,
    avatar_url: user.avatar_url,
    files_base_url: config.files_base_url,
    role: user.roles[0] ?? '',
    roles: user.roles,
    origin_realm: user.origin_realm,
    expires_at: session.expiresAt,
  })
  }),
)

/** DELETE /device: sign out; revokes the calling token. */
device.delete(
  '/',
  guarded({}, async (c, auth) => {
    await revokeSession(c.env.DB, auth.tokenHash)
    return c.body(null, 204)
  }),
)
