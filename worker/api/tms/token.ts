import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { findRoomByName } from '../../db/rooms'
import { ListQuery } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import { RoomName } from '#shared/schemas/room'
import { TOKEN_ALPHABET, TOKEN_LENGTH, tokenEntity, type TaskToken } from '#shared/schemas/tms/token'
import { getTask, replaceTokenStatements, taskReachesRoom, taskRoomTokens } from '../../db/tms-task'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { decodeRow, filterScope, listRows, realmScope } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { newId, nowIso, refuse, ruleError } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/** Same requirement as the token screens (seed 000 §2.2). */
const ACCESS = { all: ['tms_token_generate'], any: ['tms_task_list_by_target', 'tms_task_list_others'] }

function randomCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_LENGTH))
  // 256 is not a multiple of the alphabet's length; the slight bias does not matter for a short-lived room code.
  return [...bytes].map((b) => TOKEN_ALPHABET[b % TOKEN_ALPHABET.length]).join('')
}

/** The task and the room (by name) of a token call, both of the caller's realm. */
async function taskAndRoom(c: Ctx, auth: Auth) {
  const taskId = parse(Id, pathParam(c, 'taskId'))
  const roomName = parse(RoomName, pathParam(c, 'roomName'))
  const [task, room] = await Promise.all([getTask(c.env.DB, auth.realm, taskId), findRoomByName(c.env.DB, auth.realm, roomName)])
  if (!task) throw apiError(404, 'not_found', `Task ${taskId} was not found.`, 'task_id', taskId)
  if (!room) throw apiError(404, 'not_found', `Room ${roomName} was not found.`, 'room', roomName)
  return { task, room }
}

async function tokensOf(db: D1Database, realm: string, taskId: string, roomId: string): Promise<TaskToken[]> {
  return (await taskRoomTokens(db, realm, taskId, roomId)).map((r) => decodeRow(tokenEntity, r))
}

/** /tms/token: task tokens (seed 001 §3), the codes students enter to open a task in a room. */
export const token = new Hono<AppEnv>()
  /** GET /tms/token: every token of the realm (limit, offset, like, order; task, room, author, date). */
  .get(
    '/',
    guarded(ACCESS, async (c, auth) => {
      const q = c.req.query()
      return c.json(await listRows(c.env.DB, tokenEntity, realmScope(tokenEntity, auth), parse(ListQuery, q), filterScope(tokenEntity, q)))
    }),
  )
  /** GET /tms/token/task/{taskId}/room/{roomName}: the task, the room and their codes, newest first. */
  .get(
    '/task/:taskId/room/:roomName',
    guarded(ACCESS, async (c, auth) => {
      const { task, room } = await taskAndRoom(c, auth)
      return c.json({
        task: { id: task.id, title: task.title, status: task.status, token: task.token },
        room,
        tokens: await tokensOf(c.env.DB, auth.realm, task.id, room.id),
      })
    }),
  )
  /**
   * POST /tms/token/task/{taskId}/room/{roomName}: a new code for a token task reaching the room; the previous code of
   * that task and room stops being valid (kept, with when it was replaced).
   */
  .post(
    '/task/:taskId/room/:roomName',
    guarded(ACCESS, async (c, auth) => {
      const db = c.env.DB
      const { task, room } = await taskAndRoom(c, auth)
      if (!task.token) refuse([ruleError('task_id', 'validation.tms.token_disabled', task.id)])
      if (!(await taskReachesRoom(db, auth.realm, task.id, room.id))) refuse([ruleError('room', 'validation.tms.room_not_target', room.name)])
      const id = newId()
      const now = nowIso()
      for (let attempt = 0; ; attempt++) {
        const code = randomCode()
        try {
          await runBatch(db, [
            ...replaceTokenStatements(db, auth.realm, { id, taskId: task.id, roomId: room.id, code, by: auth.nick, at: now }),
            auditStatement(db, {
              realm: auth.realm,
              actor: auth.nick,
              action: 'generate',
              entity: 'tms_token',
              entityId: id,
              after: { task_id: task.id, room: room.name, code },
              requestId: c.get('requestId'),
            }),
          ])
          break
        } catch (err) {
          // A code already taken in the realm (UNIQUE): try another one.
          if (attempt >= 4 || !String(err).includes('UNIQUE')) throw err
        }
      }
      return c.json(
        { task: { id: task.id, title: task.title, status: task.status, token: task.token }, room, tokens: await tokensOf(db, auth.realm, task.id, room.id) },
        201,
      )
    }),
  )
