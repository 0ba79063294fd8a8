import type * as Party from 'partykit/server'
import { admitTicket, LiveParty, type LiveKind } from './channel'

/**
 * Party `room` (issue 13 "rooms go live"): one room per console room or breakout, on the channel party's machinery
 * (party/channel.ts `LiveParty`, protocol party/channel-protocol.ts) — presence, chat with sequence numbers and
 * replay, hands, topic, moderation, message limits, lease renewal, session metrics — nothing copied. What differs is
 * the realm API it reads and writes (`/api/room/live/{id}/…`, service tickets of party `room-api`): the room's
 * members join as `participant`, staff holding `room_room_edit` as `admin`; the realm's room messaging settings are
 * the chat limits; a closed room (or one outside its window) refuses joins and its live session ends; bans and
 * promotions hold for the live session (rooms store no member permissions); a recorded room's ended session becomes
 * a `csm_session` (recorded_in `room`).
 */
export const ROOM_KIND: LiveKind = { party: 'room', api: 'room/live', service: 'room-api', persistRoles: false }

export default class Room extends LiveParty {
  constructor(room: Party.Room) {
    super(room, ROOM_KIND)
  }

  static onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    return admitTicket(request, lobby, 'room')
  }
}

Room satisfies Party.Worker
