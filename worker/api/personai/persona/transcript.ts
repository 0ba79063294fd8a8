import { Hono } from 'hono'
import * as v from 'valibot'
import { ChatSessionId } from '#shared/schemas/persona-chat'
import { findChatSession, listChatMessages, listChatSessions } from '../../../db/persona-chat'
import { apiError } from '../../../lib/errors'
import { accepts, guarded } from '../../../lib/guard'
import { type AppEnv, parse, pathParam } from '../../context'
import { personaAnyAccess, requirePersona } from '../common'

/**
 * /personai/persona/{personaId}/transcript: the public chat's transcripts (issue 16 "Transcripts are stored per
 * session"), for staff who read or edit personas. Every message says where its answer came from (the dialog, or the
 * knowledge passages); sessions past the realm's retention have their visitor data cleared (`redacted_at`).
 */
const READ = personaAnyAccess('persona_persona_get', 'persona_persona_edit')
const PAGE = 25

const Cursor = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z~[A-Za-z0-9_-]{16,64}$/, 'validation.cursor'),
  v.transform((s) => {
    const [at, id] = s.split('~')
    return { at, id }
  }),
)
const ListQuery = v.object({
  cursor: v.optional(Cursor),
  helper: v.optional(v.picklist(['1', 'true'], 'validation.boolean')),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'validation.integer'), v.transform(Number), v.minValue(1), v.maxValue(100))),
})

export const transcript = new Hono<AppEnv>()
  /** GET …/transcript?cursor=&helper=1&limit=: the persona's chat sessions, newest first (`helper`: the visitor asked for a human). */
  .get(
    '/',
    accepts<{ query: { cursor?: string; helper?: string; limit?: string } }>()(
      guarded(READ, async (c, auth) => {
        const p = await requirePersona(c, auth)
        const q = parse(ListQuery, c.req.query())
        const limit = q.limit ?? PAGE
        const items = await listChatSessions(c.env.DB, auth.realm, p.id, { limit: limit + 1, before: q.cursor, helper: q.helper !== undefined })
        const more = items.length > limit
        const page = items.slice(0, limit)
        const last = page[page.length - 1]
        return c.json({ items: page, next_cursor: more && last ? `${last.started_at}~${last.id}` : null })
      }),
    ),
  )
  /** GET …/transcript/{sessionId}: one session with every message, in order. */
  .get(
    '/:sessionId',
    guarded(READ, async (c, auth) => {
      const p = await requirePersona(c, auth)
      const id = parse(ChatSessionId, pathParam(c, 'sessionId'))
      const session = await findChatSession(c.env.DB, auth.realm, id)
      if (!session || session.persona_id !== p.id) throw apiError(404, 'not_found', 'persona.chat.session_not_found', 'session_id', id)
      const { realm: _realm, ...view } = session
      return c.json({ session: view, messages: await listChatMessages(c.env.DB, auth.realm, id) })
    }),
  )
