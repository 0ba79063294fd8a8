import { Hono } from 'hono'
import type { EntityDescriptor } from '#shared/schemas/entity'
import {
  PUBLISHABLE_VIDEO,
  SESSION_MOVES,
  SessionEdit,
  SessionListFilter,
  SessionRerecord,
  sessionEntity,
  sessionMoveAllowed,
  type Session,
  type SessionDetail,
  type SessionMove,
} from '#shared/schemas/session'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { knownSessionCategories } from '../../db/csm-recording'
import { SESSION_LIST_COMPUTED, deleteSessionRecords, sessionDetailExtras, sessionListScope, sessionMoveStatement } from '../../db/csm-session'
import type { Auth } from '../../db/sessions'
import { crud, decodeRow, getRawRow, realmScope } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { checkExtraFields } from '../../lib/extra-fields'
import { guarded, guardedJson } from '../../lib/guard'

/**
 * Sessions (issue 15, seed 002 §2 `session`): the realm's `csm_session` rows. `GET /` lists with the descriptor's
 * filters plus room, category and reference dates; `GET /:id` answers one with its channel's and room's names, its
 * categories' names and its recording's video; `PUT /:id` edits its title, categories, reference date and extra
 * fields (`csm_session_edit`). Sessions are created by the live tier and the recording path, never here (a POST or
 * DELETE answers 404). The lifecycle moves (seed 002 §3–§4, `SESSION_MOVES`): `POST /:id/publish`,
 * `POST /:id/unpublish` (`csm_session_edit`) and `POST /:id/rerecord` with a justification (`csm_session_rerecord`),
 * which deletes the session's records and keeps the justification in the audit record.
 */
const sessionCrud = crud<SessionDetail, never, typeof SessionEdit>(sessionEntity as unknown as EntityDescriptor<SessionDetail>, {
  permissions: { list: 'csm_session_list', get: ['csm_session_get', 'csm_session_edit'], edit: 'csm_session_edit' },
  computed: SESSION_LIST_COMPUTED,
  // The detail (`GET /:id`): names, categories and the recording's video (worker/db/csm-session.ts).
  expand: async (c, row) => ({ ...row, ...(await sessionDetailExtras(c.env.DB, String(row.realm), row as Session)) }),
  listScope: (c, auth) => sessionListScope(auth.realm, parse(SessionListFilter, c.req.query())),
  update: SessionEdit,
  // Categories and extra fields are checked as session/create checks them; only the fields sent change.
  beforeUpdate: async (c, auth, body) => {
    const db = c.env.DB
    if (body.category_ids?.length) {
      const known = await knownSessionCategories(db, auth.realm, body.category_ids)
      const unknown = body.category_ids.filter((id) => !known.has(id))
      if (unknown.length) throw apiError(422, 'category_not_found', 'No such session category.', 'category_ids', unknown)
    }
    if (body.extra) {
      const extraErrors = await checkExtraFields(db, auth.realm, 'session', body.extra)
      if (extraErrors.length) throw new ApiError(422, extraErrors)
    }
    const { extra, ...rest } = body
    return Object.fromEntries(Object.entries({ ...rest, extras: extra }).filter(([, value]) => value !== undefined))
  },
})

/** The session of the caller's realm named by the path, or 404. */
async function realmSession(c: Ctx, auth: Auth): Promise<Session> {
  const id = pathParam(c, 'id')
  const raw = await getRawRow(c.env.DB, sessionEntity, realmScope(sessionEntity, auth), id)
  if (!raw) throw apiError(404, 'not_found', `csm_session ${id} was not found.`, 'id', id)
  return decodeRow(sessionEntity, raw) as Session
}

/** A move the session's status does not allow: 422 naming the status (or the missing video, to publish). */
function refusedMove(move: SessionMove, s: Pick<Session, 'status' | 'video_status'>): ApiError {
  if (move === 'publish' && (SESSION_MOVES.publish as readonly string[]).includes(s.status))
    return apiError(422, 'session_no_video', 'The session has no video to publish.', 'video_status', s.video_status)
  return apiError(422, 'invalid_transition', `A ${s.status} session cannot be ${move === 'rerecord' ? 'recorded again' : `${move}ed`}.`, 'status', s.status)
}

/** The status a move leads to. */
const TARGET: Record<SessionMove, Session['status']> = { publish: 'published', unpublish: 'unpublished', rerecord: 'rerecord' }

/** publish / unpublish: the conditional status change and its audit record, in one batch. */
function statusMove(move: 'publish' | 'unpublish') {
  return guarded({ all: ['csm_session_edit'] }, async (c, auth) => {
    const db = c.env.DB
    const s = await realmSession(c, auth)
    if (!sessionMoveAllowed(move, s)) throw refusedMove(move, s)
    const to = TARGET[move]
    const [res] = await runBatch(db, [
      sessionMoveStatement(db, auth.realm, s.id, to, SESSION_MOVES[move], move === 'publish' ? PUBLISHABLE_VIDEO : null),
      auditStatement(
        db,
        {
          realm: auth.realm,
          actor: auth.nick,
          action: move,
          entity: 'csm_session',
          entityId: s.id,
          before: { status: s.status },
          after: { status: to },
          requestId: c.get('requestId'),
        },
        { afterChange: true },
      ),
    ])
    // Another request moved it in between: answer from what it is now.
    if (!res.meta.changes) throw refusedMove(move, await realmSession(c, auth))
    return c.json({ id: s.id, status: to, video_status: s.video_status })
  })
}

export const session = new Hono<AppEnv>()
  /** POST /csm/session/{id}/publish: pending, unpublished or finished with its video → published. */
  .post('/:id/publish', statusMove('publish'))
  /** POST /csm/session/{id}/unpublish: published → unpublished. */
  .post('/:id/unpublish', statusMove('unpublish'))
  /**
   * POST /csm/session/{id}/rerecord `{ justification }`: schedules the re-recording (status rerecord, no video),
   * deletes the current records (files and rows, worker/db/csm-session.ts `deleteSessionRecords`) and writes the audit
   * record with the justification and who asked.
   */
  .post(
    '/:id/rerecord',
    guardedJson({ all: ['csm_session_rerecord'] }, SessionRerecord, async (c, auth, body) => {
      const db = c.env.DB
      const s = await realmSession(c, auth)
      if (!sessionMoveAllowed('rerecord', s)) throw refusedMove('rerecord', s)
      const [res] = await deleteSessionRecords(c.env, auth.realm, s.id, [
        sessionMoveStatement(db, auth.realm, s.id, 'rerecord', SESSION_MOVES.rerecord, null, true),
        auditStatement(
          db,
          {
            realm: auth.realm,
            actor: auth.nick,
            action: 'rerecord',
            entity: 'csm_session',
            entityId: s.id,
            before: { status: s.status, video_status: s.video_status },
            after: { status: 'rerecord', video_status: 'no_video', justification: body.justification },
            requestId: c.get('requestId'),
          },
          { afterChange: true },
        ),
      ])
      if (!res.meta.changes) throw refusedMove('rerecord', await realmSession(c, auth))
      return c.json({ id: s.id, status: 'rerecord' as const, video_status: 'no_video' as const })
    }),
  )
  .route('/', sessionCrud)
