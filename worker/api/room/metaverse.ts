import { Hono } from 'hono'
import { realmMetaverseSettings } from '../../db/realms'
import { MetaverseTokenRequest, type MetaverseToken } from '#shared/schemas/metaverse'
import { auditStatement } from '../../db/audit'
import { apiError } from '../../lib/errors'
import { guardedJson } from '../../lib/guard'
import { signMetaverseToken } from '../../lib/metaverse-token'
import type { AppEnv } from '../context'

export const metaverse = new Hono<AppEnv>()
  /**
   * PUT /room/metaverse/token/generate: a signed token that lets `email` into the metaverse server at `host`, valid
   * for the realm's metaverse_max_session_minutes. Signed with the realm's metaverse API token, which the metaverse
   * server shares; without it the realm is not configured for the metaverse (409).
   */
  .put(
    '/token/generate',
    guardedJson({ all: ['room_metaverse_token_generate'] }, MetaverseTokenRequest, async (c, auth, body) => {
      const realm = await realmMetaverseSettings(c.env.DB, auth.realm)
      if (!realm?.metaverse_api_token) throw apiError(409, 'not_configured', 'metaverse.not_configured', 'metaverse_api_token', null)
      const iat = Math.floor(Date.now() / 1000)
      const exp = iat + realm.metaverse_max_session_minutes * 60
      const token = await signMetaverseToken(realm.metaverse_api_token, { realm: auth.realm, sub: auth.nick, email: body.email, host: body.host, iat, exp })
      await auditStatement(c.env.DB, {
        realm: auth.realm,
        actor: auth.nick,
        action: 'generate',
        entity: 'metaverse_token',
        entityId: body.host,
        after: { host: body.host, email: body.email, expires_at: new Date(exp * 1000).toISOString() },
        requestId: c.get('requestId'),
      }).run()
      return c.json({ token, expires_at: new Date(exp * 1000).toISOString(), host: body.host, email: body.email } satisfies MetaverseToken)
    }),
  )
