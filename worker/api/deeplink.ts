import { Hono } from 'hono'
import { deeplinkLinks, type DeeplinkLinks } from '#shared/deeplink'
import { RealmCode } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import { deeplinkRoomTarget, deeplinkTarget } from '../db/deeplink'
import { apiError } from '../lib/errors'
import { guarded } from '../lib/guard'
import { parse, pathParam, requestRealm, type AppEnv } from './context'

export interface DeeplinkAnswer {
  /** What the link opens: a channel, or a console room (issue 20; then `channel` names the room, without an avatar). */
  kind: 'channel' | 'room'
  realm: { code: string; name: string; logo_url: string }
  channel: { id: string; name: string; avatar_url: string }
  links: DeeplinkLinks
  /** The channel's running quizzes and poll, each with its public player page (`/play/quiz|poll/{id}`; issue 14). */
  live: { kind: 'quiz' | 'poll'; id: string; name: string; url: string }[]
}

/**
 * GET /deeplink/channel/{id} (public): what the conference deep-link page shows for a channel of the request's realm
 * (the host's, or `x-api-realm` on a multi-realm host): its name and avatar, the realm's name and logo, and the three
 * ways in (app, stores, browser), and the quizzes and poll running on it (their player pages). 404 `not_found` for a channel the realm does not have.
 */
export const deeplink = new Hono<AppEnv>()
  .get(
    '/channel/:id',
    guarded('public', async (c) => {
      const id = parse(Id, pathParam(c, 'id'))
      const code = requestRealm(c)
      if (!code) throw apiError(404, 'not_found', 'deeplink.error.realm', 'realm', null)
      const { realm, channel, live } = await deeplinkTarget(c.env.DB, parse(RealmCode, code), id)
      if (!realm) throw apiError(404, 'not_found', 'deeplink.error.realm', 'realm', code)
      if (!channel) throw apiError(404, 'not_found', 'deeplink.error.channel', 'id', id)
      const answer: DeeplinkAnswer = {
        kind: 'channel',
        realm: { code: realm.code, name: realm.name, logo_url: realm.logo_url },
        channel,
        links: deeplinkLinks(realm, channel.id),
        live: live.map((g) => ({ ...g, url: `/play/${g.kind}/${encodeURIComponent(g.id)}` })),
      }
      return c.json(answer)
    }),
  )
  /**
   * GET /deeplink/room/{id} (public; issue 20): the same for a console room of the request's realm — its name only,
   * the realm's branding and the ways in (`deeplinkLinks(…, 'room')`: the browser goes to the room's participant view,
   * where its members sign in). 404 `not_found` for a room the realm does not have.
   */
  .get(
    '/room/:id',
    guarded('public', async (c) => {
      const id = parse(Id, pathParam(c, 'id'))
      const code = requestRealm(c)
      if (!code) throw apiError(404, 'not_found', 'deeplink.error.realm', 'realm', null)
      const { realm, room } = await deeplinkRoomTarget(c.env.DB, parse(RealmCode, code), id)
      if (!realm) throw apiError(404, 'not_found', 'deeplink.error.realm', 'realm', code)
      if (!room) throw apiError(404, 'not_found', 'deeplink.error.room', 'id', id)
      const answer: DeeplinkAnswer = {
        kind: 'room',
        realm: { code: realm.code, name: realm.name, logo_url: realm.logo_url },
        channel: { id: room.id, name: room.name, avatar_url: '' },
        links: deeplinkLinks(realm, room.id, 'room'),
        live: [],
      }
      return c.json(answer)
    }),
  )
