import { Hono } from 'hono'
import { AI_SECRET_FIELDS, AiSettingsUpdate, type AiSettingsView, type TextProvider, type VisionProvider } from '#shared/schemas/ai'
import { maskSecret, SECRET_MASK } from '#shared/schemas/entity'
import { aiSettingsRow, ESSAY_CHECK_LIMIT, saveAiSettingsStatement } from '../../db/ai'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { guarded, guardedJson } from '../../lib/guard'
import type { AppEnv } from '../context'

const view = (row: Record<string, string | number | null>): AiSettingsView => ({
  text_provider: String(row.text_provider) as TextProvider,
  monthly_credit_cap: Number(row.monthly_credit_cap),
  minimax_group_id: String(row.minimax_group_id ?? ''),
  vision_provider: String(row.vision_provider ?? 'none') as VisionProvider,
  vision_model: String(row.vision_model ?? ''),
  minimax_api_key: maskSecret(String(row.minimax_api_key ?? '')),
  google_api_key: maskSecret(String(row.google_api_key ?? '')),
  elevenlabs_api_key: maskSecret(String(row.elevenlabs_api_key ?? '')),
  did_api_key: maskSecret(String(row.did_api_key ?? '')),
  languagetool_url: String(row.languagetool_url ?? ''),
  languagetool_username: String(row.languagetool_username ?? ''),
  languagetool_api_key: maskSecret(String(row.languagetool_api_key ?? '')),
  essay_check_limit: Number(row.essay_check_limit ?? ESSAY_CHECK_LIMIT),
  updated_at: row.updated_at === null ? null : String(row.updated_at),
  updated_by: row.updated_by === null ? null : String(row.updated_by),
})

/**
 * /api/ai/settings: the acting realm's AI settings (docs ai.md): the text provider, the monthly cap of AI credits and
 * the speech, animation and cloning providers' secrets. Secrets are write-only, as the realm's other secrets: answered
 * masked, left unchanged by `''` or the mask sent back, cleared by `null`. Changes are audited with secrets masked.
 */
export const settings = new Hono<AppEnv>()
  .get(
    '/',
    guarded({ any: ['mas_realm_get', 'mas_realm_edit'] }, async (c, auth) => c.json(view(await aiSettingsRow(c.env.DB, auth.realm)))),
  )
  .put(
    '/',
    guardedJson({ all: ['mas_realm_edit'] }, AiSettingsUpdate, async (c, auth, body) => {
      const db = c.env.DB
      const before = await aiSettingsRow(db, auth.realm)
      const values: Record<string, string | number> = {}
      for (const [field, value] of Object.entries(body)) {
        if (value === undefined) continue
        const isSecret = (AI_SECRET_FIELDS as readonly string[]).includes(field)
        if (isSecret && typeof value === 'string' && (value === '' || value.startsWith(SECRET_MASK))) continue
        values[field] = value === null ? '' : value
      }
      if (Object.keys(values).length) {
        await runBatch(db, [
          saveAiSettingsStatement(db, auth.realm, values, auth.nick, new Date().toISOString()),
          auditStatement(db, {
            realm: auth.realm,
            actor: auth.nick,
            action: 'update',
            entity: 'realm_ai',
            entityId: auth.realm,
            before,
            after: { ...before, ...values },
            secrets: AI_SECRET_FIELDS,
            requestId: c.get('requestId'),
          }),
        ])
      }
      return c.json(view(await aiSettingsRow(db, auth.realm)))
    }),
  )
