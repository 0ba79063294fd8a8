import { Hono } from 'hono'
import { deeplinkLinks, type DeeplinkLinks } from '#shared/deeplink'
import { RealmCode } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import { deeplinkTarget } from '../db/deeplink'
import { apiError } from '../lib/errors'
import { guarded } from '../lib/guard'
import { parse, pathParam, requestRealm, type AppEnv } from './context'

export interface DeeplinkAnswer {
  realm: { code: string; name: string; logo_url: string }
  channel: { id: string; name: string; avatar_url: string }
  links: DeeplinkLinks
}

/**
 * GET /deeplink/channel/{id} (public): what the conference deep-link page shows for a channel of the request's realm
 * (the host's, or `x-api-realm` on a multi-realm host): its name and avatar, the realm's name and logo, and the three
 * ways in (app, stores, browser). 404 `not_found` for a channel the realm does not have.
 */
export const deeplink = new Hono<AppEnv>().get(
  '/channel/:id',
  guarded('public', async (c) => {
    const id = parse(Id, pathParam(c, 'id'))
    const code = requestRealm(c)
    if (!code) throw apiError(404, 'not_found', 'deeplink.error.realm', 'realm', null)
    const { realm, channel } = await deeplinkTarget(c.env.DB, parse(RealmCode, code), id)
    if (!realm) throw apiError(404, 'not_found', 'deeplink.error.realm', 'realm', code)
    if (!channel) throw apiError(404, 'not_found', 'deeplink.error.channel', 'id', id)
    const answer: DeeplinkAnswer = {
      realm: { code: realm.code, name: realm.name, logo_url: realm.logo_url },
      channel,
      links: deeplinkLinks(realm, channel.id),
    }
    return c.json(answer)
  }),
)
