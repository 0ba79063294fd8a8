import { Hono } from 'hono'
import { SpeechRequest } from '#shared/schemas/ai'
import { aiApiError, settingsOf } from '../../ai'
import { speakWith } from '../../ai/speech'
import { guardedJson } from '../../lib/guard'
import type { AppEnv } from '../context'

/**
 * POST /api/ai/speech: speaks a text with a voice in the acting realm (the voice step's sample playback): the
 * provider's audio as base64 with its type, or `{ engine: 'browser', reason }` when the browser must speak it (the
 * `browser` voice, or a provider without a key in this realm). Metered against the monthly cap.
 */
export const speech = new Hono<AppEnv>().post(
  '/',
  guardedJson(
    { any: ['persona_persona_create', 'persona_persona_edit', 'persona_assistant_create', 'persona_assistant_edit'], flags: ['persona_enabled'] },
    SpeechRequest,
    async (c, auth, body) => {
      try {
        return c.json(await speakWith(c.env, await settingsOf(c.env, auth.realm), body.text, body.voice))
      } catch (err) {
        throw aiApiError(err)
      }
    },
  ),
)
