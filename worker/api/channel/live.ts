import { Hono } from 'hono'
import { GuestJoin, LiveMemberChange, LiveSessionEnd } from '#shared/schemas/channel-live'
import { signTicket } from '../../../party/ticket'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { insertLiveSessionStatement, listChatMessages, listLiveSessions, liveChannelState } from '../../db/channel-live'
import { liveSessionHandOverStatements } from '../../db/csm-recording'
import { findChannel, insertMemberStatement, memberPermission, resolveNicks, updateMemberStatement } from '../../db/channels'
import { checkWordFilter } from '../../db/word-filter'
import { randomToken } from '../../lib/crypto'
import { apiError } from '../../lib/errors'
import { liveIceServers } from '../../lib/live-ice'
import { guarded, guardedJson } from '../../lib/guard'
import { admitLive } from '../../lib/live-capacity'
import { type AppEnv, parse, pathParam, requestRealm } from '../context'
import { HistoryQuery, modeOn, partyCaller, partyChatRoutes, partySecret as secret } from '../live-party'

/**
 * /channel/live: the channel party's side of the realm API (issue 13 "Live: the channel party").
 * - Tickets: `POST /{id}/ticket` for a signed-in user (the ticket carries the member's permission; `participant` for
 *   a non-member of a channel that is neither private nor invite-only; `admin` for staff who edit channels), and
 *   `POST /{id}/guest` (public) for a guest with a name, on a public channel only (not private, invite-only or secret).
 * - Party calls, authenticated by a service ticket (`x-party-ticket`: party `channel-api`, room = the channel, signed
 *   with the PARTY_SECRET the Worker and the parties share, 60 s): the channel's state, chat batches (idempotent by
 *   (channel, seq)), history, bans and promotions, the ended session with its metrics, and presence (the leases of
 *   the realm's users per environment: renewed for who is present, freed on leave).
 * - Both tickets take the user's place in the realm's live environment first (`admitLive`: 422 `limit` when the
 *   realm's `max_users_per_environment` is reached, nothing minted).
 * - `GET /{id}/session`: the channel's ended live sessions with their metrics; `GET /{id}/history`: its stored chat
 *   (console, `sns_channel_get` or `sns_channel_edit`).
 */
export const PARTY_API = 'channel-api'
const CHANNEL_PARTY = 'channel'
const READ = { any: ['sns_channel_get', 'sns_channel_edit'] }

async function requireChannel(db: D1Database, realm: string, id: string) {
  if (!(await findChannel(db, realm, id))) throw apiError(404, 'not_found', 'channel.not_found', 'id', id)
}

async function requireLiveChannel(db: D1Database, realm: string, id: string) {
  const state = await liveChannelState(db, realm, id)
  if (!state) throw apiError(404, 'not_found', 'channel.not_found', 'id', id)
  return state
}

export const live = new Hono<AppEnv>()
  /** POST /channel/live/{id}/ticket: a 60 s ticket to join the channel's party, with the caller's role in it. */
  .post(
    '/:id/ticket',
    guarded({}, async (c, auth) => {
      const db = c.env.DB
      const state = await requireLiveChannel(db, auth.realm, pathParam(c, 'id'))
      const permission = state.members[auth.nick]
      if (permission === 'banned') throw apiError(403, 'banned', 'live.cause.banned', 'id', state.channel.id)
      const staff = auth.permissions.has('sns_channel_edit')
      const closed = modeOn(state.channel.modes, 'private') || modeOn(state.channel.modes, 'invite_only')
      if (!permission && !staff && closed) throw apiError(403, 'members_only', 'live.cause.members_only', 'id', state.channel.id)
      const role = permission ?? (staff ? 'admin' : 'participant')
      // The realm's users per environment, before anything is minted; owner and admins pass (and count), as the party
      // lets them past its user limit. The per-room limit stays the party's (a channel's `user_limit` overrides it).
      await admitLive(db, auth.realm, {
        party: CHANNEL_PARTY,
        room: state.channel.id,
        nick: auth.nick,
        perRoom: false,
        exempt: role === 'owner' || role === 'admin',
      })
      const ticket = await signTicket(secret(c), { party: CHANNEL_PARTY, room: state.channel.id, realm: auth.realm, nick: auth.nick, name: auth.name, role })
      return c.json({
        ticket,
        host: c.env.PARTYKIT_HOST,
        party: CHANNEL_PARTY,
        room: state.channel.id,
        role,
        ice_servers: await liveIceServers(c.env.DB, auth.realm),
      })
    }),
  )
  /** POST /channel/live/{id}/guest: a guest's ticket on a public channel (the realm is the host's, or `x-api-realm`). */
  .post(
    '/:id/guest',
    guardedJson('public', GuestJoin, async (c, _auth, body) => {
      const realm = requestRealm(c)
      const id = pathParam(c, 'id')
      if (!realm) throw apiError(404, 'not_found', 'channel.not_found', 'id', id)
      const state = await requireLiveChannel(c.env.DB, realm, id)
      const m = state.channel.modes
      if (modeOn(m, 'private') || modeOn(m, 'invite_only') || modeOn(m, 'secret')) throw apiError(403, 'members_only', 'live.cause.members_only', 'id', id)
      const named = await checkWordFilter(c.env.DB, realm, body.name)
      if (named.matches.length) throw apiError(422, 'word_filter', 'validation.word_filter', 'name', named.matches)
      const nick = `guest:${randomToken(6)}`
      await admitLive(c.env.DB, realm, { party: CHANNEL_PARTY, room: id, nick, perRoom: false })
      const ticket = await signTicket(secret(c), { party: CHANNEL_PARTY, room: id, realm, nick, name: body.name, role: 'guest' })
      return c.json({
        ticket,
        host: c.env.PARTYKIT_HOST,
        party: CHANNEL_PARTY,
        room: id,
        role: 'guest',
        nick,
        ice_servers: await liveIceServers(c.env.DB, realm),
      })
    }),
  )
  /** GET /channel/live/{id}/session: the channel's ended live sessions with their metrics, newest first. */
  .get(
    '/:id/session',
    guarded(READ, async (c, auth) => {
      const id = pathParam(c, 'id')
      await requireChannel(c.env.DB, auth.realm, id)
      const items = await listLiveSessions(c.env.DB, auth.realm, id)
      return c.json({ items, total: items.length })
    }),
  )
  /** GET /channel/live/{id}/history?after=&limit=: the channel's stored chat (console), oldest first; the last `limit` without `after`. */
  .get(
    '/:id/history',
    guarded(READ, async (c, auth) => {
      const id = pathParam(c, 'id')
      await requireChannel(c.env.DB, auth.realm, id)
      const q = parse(HistoryQuery, c.req.query())
      const items = await listChatMessages(c.env.DB, auth.realm, id, q.after ?? null, q.limit)
      return c.json({ items })
    }),
  )
  /** GET /channel/live/{id}/state (party): the channel, its members' permissions, the realm's limits and word filter. */
  .get(
    '/:id/state',
    guarded('public', async (c) => {
      const { realm, id: channelId } = await partyCaller(c, PARTY_API)
      return c.json(await requireLiveChannel(c.env.DB, realm, channelId))
    }),
  )
  /** PUT /channel/live/{id}/member/{nick} (party): a moderator's ban or promotion to operator, audited as theirs. */
  .put(
    '/:id/member/:nick',
    guardedJson('public', LiveMemberChange, async (c, _auth, body) => {
      const { realm, id: channelId } = await partyCaller(c, PARTY_API)
      const db = c.env.DB
      const channel = await findChannel(db, realm, channelId)
      if (!channel) throw apiError(404, 'not_found', 'channel.not_found', 'id', channelId)
      const nick = (await resolveNicks(db, realm, [pathParam(c, 'nick')])).get(pathParam(c, 'nick'))
      if (!nick) throw apiError(422, 'member_not_found', 'validation.channel.member_not_found', 'nick', pathParam(c, 'nick'))
      const current = await memberPermission(db, realm, channelId, nick)
      if (current === 'owner') throw apiError(422, 'no_owner', 'validation.channel.no_owner', 'nick', nick)
      if (current !== body.permission)
        await runBatch(db, [
          current
            ? updateMemberStatement(db, realm, channelId, nick, body.permission)
            : insertMemberStatement(db, realm, channelId, nick, body.permission, body.by),
          auditStatement(db, {
            realm,
            actor: body.by,
            action: body.permission === 'banned' ? 'live_ban' : 'live_promote',
            entity: 'channel',
            entityId: channelId,
            before: current ? { member: nick, permission: current } : null,
            after: { member: nick, permission: body.permission },
            requestId: c.get('requestId'),
          }),
        ])
      return c.json({ channel_id: channelId, nick, permission: body.permission })
    }),
  )
  /**
   * POST /channel/live/{id}/session (party): an ended live session with its metrics; the same id counts once. When the
   * channel recorded during it, each recording's session receives the metrics instead of a new row.
   */
  .post(
    '/:id/session',
    guardedJson('public', LiveSessionEnd, async (c, _auth, body) => {
      const { realm, id: channelId } = await partyCaller(c, PARTY_API)
      const state = await requireLiveChannel(c.env.DB, realm, channelId)
      // The channel's recordings made during the session take its metrics first (issue 20 recording); else it is stored as it is.
      const results = await runBatch(c.env.DB, [
        ...liveSessionHandOverStatements(c.env.DB, realm, 'channel', channelId, body),
        insertLiveSessionStatement(c.env.DB, realm, state.channel, body),
      ])
      const recorded = results[0].meta.changes ?? 0
      return c.json({ id: body.id, stored: recorded + (results[2].meta.changes ?? 0) > 0 }, 201)
    }),
  )
  /** POST|GET /channel/live/{id}/messages, POST …/presence and …/tx (party): the chat, presence and transmission calls. */
  .route('/', partyChatRoutes({ party: CHANNEL_PARTY, api: PARTY_API, target: 'channel', requireTarget: requireChannel }))
