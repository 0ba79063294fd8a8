import type { EntityDescriptor } from '#shared/schemas/entity'
import { sessionEntity, SessionListFilter, type Session, type SessionDetail } from '#shared/schemas/session'
import { parse } from '../context'
import { SESSION_LIST_COMPUTED, sessionDetailExtras, sessionListScope } from '../../db/csm-session'
import { crud } from '../../lib/entity'

/**
 * Sessions (issue 15, seed 002 §2 `session`): the realm's `csm_session` rows, read only here (the live tier and the
 * recording path write them). `GET /` lists with the descriptor's filters plus room, category and reference dates;
 * `GET /:id` answers one with its channel's and room's names, its categories' names and its recording's video.
 */
// Typed as the detail so the typed client sees what `GET /:id` answers (the expand below); list items are SessionItem.
export const session = crud<SessionDetail, never, never>(sessionEntity as unknown as EntityDescriptor<SessionDetail>, {
  permissions: { list: 'csm_session_list', get: ['csm_session_get', 'csm_session_edit'] },
  computed: SESSION_LIST_COMPUTED,
  // The detail (`GET /:id`): names, categories and the recording's video (worker/db/csm-session.ts).
  expand: async (c, row) => ({ ...row, ...(await sessionDetailExtras(c.env.DB, String(row.realm), row as Session)) }),
  listScope: (c, auth) => sessionListScope(auth.realm, parse(SessionListFilter, c.req.query())),
})
