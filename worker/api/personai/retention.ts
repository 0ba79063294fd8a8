import { Hono } from 'hono'
import { ChatRetentionUpdate } from '#shared/schemas/persona-chat'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { chatRetention, saveChatRetentionStatement } from '../../db/persona-chat'
import { guarded, guardedJson } from '../../lib/guard'
import { nowIso } from '../../lib/tms'
import type { AppEnv } from '../context'

/**
 * /personai/retention: how long the realm's public persona chats keep their visitors' personal data (issue 16
 * "visitors' personal data follows the realm's retention"; the seed names no such setting, so it is this one). Read
 * with mas_realm_get or mas_realm_edit, written with mas_realm_edit (audited). The hourly job then clears the
 * visitor's nick and name and the text of the visitor's messages of every session quiet for longer.
 */
export const retention = new Hono<AppEnv>()
  .get(
    '/',
    guarded({ any: ['mas_realm_get', 'mas_realm_edit'] }, async (c, auth) => c.json(await chatRetention(c.env.DB, auth.realm))),
  )
  .put(
    '/',
    guardedJson({ all: ['mas_realm_edit'] }, ChatRetentionUpdate, async (c, auth, body) => {
      const db = c.env.DB
      const before = await chatRetention(db, auth.realm)
      const at = nowIso()
      await runBatch(db, [
        saveChatRetentionStatement(db, auth.realm, body.days, auth.nick, at),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'update',
          entity: 'persona_chat_retention',
          entityId: auth.realm,
          before: { days: before.days },
          after: { days: body.days },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(await chatRetention(db, auth.realm))
    }),
  )
