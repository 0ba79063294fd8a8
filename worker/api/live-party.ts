import { Hono } from 'hono'
import * as v from 'valibot'
import { ChatBatch, LivePresence, LiveTxUsage } from '#shared/schemas/channel-live'
import { verifyTicket } from '../../party/ticket'
import { runBatch } from '../db/batch'
import { type ChatTarget, insertChatStatements, listChatMessages } from '../db/channel-live'
import { recordTxUsage } from '../db/live-tx'
import { apiError } from '../lib/errors'
import { guarded, guardedJson } from '../lib/guard'
import { leaveLive, renewLive } from '../lib/live-capacity'
import { type AppEnv, type Ctx, parse, pathParam } from './context'

/**
 * What the live APIs of the parties share (channel, room, quiz and poll: README "Live channel decisions"): the
 * party's own call authenticated by its service ticket, the PARTY_SECRET tickets are signed with, a channel mode's
 * test, the chat history's query, and the chat, presence and transmission calls of the channel party's machinery.
 */

/** The party's service ticket (`x-party-ticket`) for room `{id}`, or 401: the realm comes from the ticket, never from the caller. */
export async function partyCaller(c: Ctx, party: string): Promise<{ realm: string; id: string }> {
  const id = pathParam(c, 'id')
  const ticket = await verifyTicket(c.env.PARTY_SECRET ?? '', c.req.header('x-party-ticket') ?? null, party, id)
  if (!ticket) throw apiError(401, 'unauthorized', 'A valid party ticket is required.', 'x-party-ticket')
  return { realm: ticket.realm, id }
}

/** The secret tickets are signed with; 503 when the Worker has none. */
export function partySecret(c: Ctx): string {
  const s = c.env.PARTY_SECRET
  if (!s) throw apiError(503, 'unavailable', 'live.unavailable', '', null)
  return s
}

export const modeOn = (modes: Record<string, unknown>, name: string) => modes[name] === true

export const HistoryQuery = v.object({
  after: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'validation.integer'), v.transform(Number))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'validation.integer'), v.transform(Number), v.minValue(1), v.maxValue(1000)), '200'),
})

/**
 * The party calls of a chat room of the channel party's machinery (`party`, its service ticket `api`, chat kept as
 * `target`), each in the ticket's realm and room, which `requireTarget` checks first (404 otherwise):
 * - POST {id}/messages: a batch of chat messages; (room, seq) already stored counts once;
 * - GET {id}/messages?after=&limit=: the history after a sequence, or the last `limit`;
 * - POST {id}/presence: `present` renews the leases of who is in the room (every 60 s), `left` frees the places of who left;
 * - POST {id}/tx: the transmission seconds each nick has transmitted in the room during the renewal period
 *   (absolute counts, the highest kept); answers each nick's seconds here and elsewhere in the realm.
 */
export function partyChatRoutes(opts: {
  party: string
  api: string
  target: ChatTarget
  requireTarget: (db: D1Database, realm: string, id: string) => Promise<unknown>
}) {
  const { party, api, target, requireTarget } = opts
  return new Hono<AppEnv>()
    .post(
      '/:id/messages',
      guardedJson('public', ChatBatch, async (c, _auth, body) => {
        const { realm, id } = await partyCaller(c, api)
        await requireTarget(c.env.DB, realm, id)
        const results = await runBatch(c.env.DB, insertChatStatements(c.env.DB, realm, id, body.messages, target))
        const stored = results.reduce((n, r) => n + (r.meta.changes ?? 0), 0)
        return c.json({ stored, received: body.messages.length })
      }),
    )
    .get(
      '/:id/messages',
      guarded('public', async (c) => {
        const { realm, id } = await partyCaller(c, api)
        const q = parse(HistoryQuery, c.req.query())
        const items = await listChatMessages(c.env.DB, realm, id, q.after ?? null, q.limit, target)
        return c.json({ items })
      }),
    )
    .post(
      '/:id/presence',
      guardedJson('public', LivePresence, async (c, _auth, body) => {
        const { realm, id } = await partyCaller(c, api)
        const db = c.env.DB
        await requireTarget(db, realm, id)
        const room = { party, room: id }
        if (body.left?.length) await leaveLive(db, realm, { ...room, nick: body.left })
        if (body.present) await renewLive(db, realm, { ...room, present: body.present })
        return c.json({ present: body.present?.length ?? 0, left: body.left?.length ?? 0 })
      }),
    )
    .post(
      '/:id/tx',
      guardedJson('public', LiveTxUsage, async (c, _auth, body) => {
        const { realm, id } = await partyCaller(c, api)
        await requireTarget(c.env.DB, realm, id)
        const at = { party, room: id, period: body.period_start, now: new Date().toISOString() }
        return c.json(await recordTxUsage(c.env.DB, realm, at, body.usage))
      }),
    )
}
