import { Hono } from 'hono'
import * as v from 'valibot'
import { resolveCardUrl } from '#shared/entities/room-card'
import { Id } from '#shared/schemas/tms/common'
import { findCard, isRoomMember, roomForOpen } from '../../db/rooms'
import { apiError } from '../../lib/errors'
import { accepts, guarded } from '../../lib/guard'
import { type AppEnv, parse, pathParam } from '../context'

const OpenQuery = v.object({
  room: v.optional(Id),
  lang: v.optional(v.picklist(['pt-BR', 'en-US', 'es-ES'], 'validation.picklist'), 'pt-BR'),
})

/**
 * /room/card/{id}/open: the card's URL with its placeholders filled for the signed-in user (the cards' list and
 * editor are the plain entity `room_card`, app/shared/entities/room-card.ts, mounted after this).
 */
export const cardOpen = new Hono<AppEnv>()
  /**
   * GET /room/card/{id}/open?room=&lang=: `{ url }`. Opened in a room (`room`), the card must be one of the room's
   * cards and the caller a member of the room or a holder of room_room_get / room_room_edit; opened without a room
   * (the card editor's preview), the caller needs room_card_get or room_card_edit, and a URL naming `{room}` or
   * `{room_name}` answers 422 `room_required`.
   */
  .get(
    '/:id/open',
    accepts<{ query: { room?: string; lang?: string } }>()(
      guarded({}, async (c, auth) => {
        const db = c.env.DB
        const id = parse(Id, pathParam(c, 'id'))
        const q = parse(OpenQuery, c.req.query())
        const staff = (...names: string[]) => names.some((n) => auth.permissions.has(n))
        const card = await findCard(db, auth.realm, id)
        let room: { id: string; name: string } | null = null
        if (q.room !== undefined) {
          const found = await roomForOpen(db, auth.realm, q.room)
          if (!found) throw apiError(404, 'not_found', `Room ${q.room} was not found.`, 'room', q.room)
          if (!staff('room_room_get', 'room_room_edit') && !(await isRoomMember(db, auth.realm, found.id, auth.nick)))
            throw apiError(403, 'forbidden', 'errors.forbidden', 'room', q.room)
          if (!card || !(JSON.parse(found.cards) as string[]).includes(card.id))
            throw apiError(404, 'not_found', `Card ${id} is not a card of the room.`, 'id', id)
          room = found
        } else {
          if (!card) throw apiError(404, 'not_found', `Card ${id} was not found.`, 'id', id)
          if (!staff('room_card_get', 'room_card_edit')) throw apiError(403, 'forbidden', 'errors.forbidden', 'id', id)
          if (/\{room(_name)?\}/.test(card.url)) throw apiError(422, 'room_required', 'validation.card.room_required', 'room', null)
        }
        const url = resolveCardUrl(card.url, {
          nick: auth.nick,
          name: auth.name,
          room: room?.id ?? '',
          room_name: room?.name ?? '',
          realm: auth.realm,
          lang: q.lang,
        })
        return c.json({ id: card.id, type: card.type, url })
      }),
    ),
  )
