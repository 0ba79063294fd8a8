import { Hono } from 'hono'
import type { AppEnv } from '../context'
import { aiStatus } from '../../ai'
import { guarded } from '../../lib/guard'

/**
 * GET /api/ai/status: what the acting realm's AI layer is (docs ai.md): the text provider chosen and the one answering
 * (the local engine when the chosen one lacks a setting, with the reason), which speech, animation and cloning
 * providers have keys (never the keys), the monthly cap, this month's use and the prices of the paid operations.
 * Readable by whoever edits personas or the realm's settings.
 */
export const status = new Hono<AppEnv>().get(
  '/',
  guarded({ any: ['persona_persona_list', 'persona_assistant_list', 'mas_realm_get', 'mas_realm_edit'] }, async (c, auth) =>
    c.json(await aiStatus(c.env, auth.realm)),
  ),
)
