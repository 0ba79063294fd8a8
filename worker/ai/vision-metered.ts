import type * as v from 'valibot'
import { adjustCreditsStatement, reserveCredits, type AiSettings } from '../db/ai'
import { creditsFor, monthOf } from './index'
import { AiError, type Seen, type VisionEngine, type VisionRequest } from './types'

/**
 * One vision question metered against the realm's monthly AI cap, as text calls are: `reserved` credits first
 * (`ai_cap_reached` before the provider is called when the month would pass the cap), then settled with the usage the
 * provider reported; given back when the provider failed. An answer that failed validation twice used the provider:
 * its reservation stands. Used by the persona image check and the essay transcription.
 */
export async function askMetered<S extends v.GenericSchema>(
  env: Pick<Env, 'DB'>,
  settings: AiSettings,
  vision: VisionEngine,
  reserved: number,
  req: VisionRequest<S>,
): Promise<Seen<v.InferOutput<S>>> {
  const month = monthOf(settings.timeZone)
  if (!(await reserveCredits(env.DB, settings.realm, month, reserved, new Date().toISOString())))
    throw new AiError('ai_cap_reached', 'ai.error.cap_reached', { cap: settings.cap, month })
  let settle = -reserved
  try {
    const seen = await vision.ask(req)
    settle = creditsFor(seen.usage) - reserved
    return seen
  } catch (err) {
    if (err instanceof AiError && err.code === 'ai_failed') settle = 0
    throw err
  } finally {
    if (settle !== 0) await adjustCreditsStatement(env.DB, settings.realm, month, settle, new Date().toISOString()).run()
  }
}
