import { Hono } from 'hono'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import { studentTracks, trackExists, trackRoomsProgress } from '../../db/track-progress'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { type AppEnv, parse, pathParam } from '../context'

const ProgressQuery = v.object({ room: v.optional(Id) })

/**
 * Rooms following a track (issue 19; README "Rooms follow a track"). Mounted before the declared entities so that
 * `/achievement/track/{id}` stays the generic CRUD.
 */
export const achievementTrack = new Hono<AppEnv>()
  /** GET /achievement/track/mine: the tracks of the signed-in student's own open rooms, with their progress. */
  .get(
    '/mine',
    guarded({}, async (c, auth) => c.json({ items: await studentTracks(c.env.DB, auth.realm, auth.nick) })),
  )
  /**
   * GET /achievement/track/{id}/progress?room=: the rooms following the track and, for `room` (one of them), each
   * item in order with its publications reaching the room and how many members completed one (one statement).
   */
  .get(
    '/:id/progress',
    guarded({ any: ['achievement_track_get', 'achievement_track_edit'] }, async (c, auth) => {
      const id = parse(Id, pathParam(c, 'id'))
      const q = parse(ProgressQuery, c.req.query())
      if (!(await trackExists(c.env.DB, auth.realm, id))) throw apiError(404, 'not_found', `Track ${id} was not found.`, 'id', id)
      const { rooms, items } = await trackRoomsProgress(c.env.DB, auth.realm, id, q.room ?? null)
      if (q.room && items === null) throw apiError(422, 'not_found', 'achievement.track_room_not_following', 'room', q.room)
      return c.json({ rooms, room: q.room ?? null, items: items ?? [] })
    }),
  )
