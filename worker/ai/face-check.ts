import * as v from 'valibot'
import type { ImageCheckReason, VisionProvider } from '#shared/schemas/ai'
import type { AiSettings } from '../db/ai'
import { TOKENS_PER_CREDIT } from './index'
import { IMAGE_TOKENS } from './prompt'
import { AiError, type ImageInput, type VisionEngine } from './types'
import { chooseVisionEngine } from './vision'
import { askMetered } from './vision-metered'

/** What a vision provider answers about a persona image: how many faces, and a celebrity it recognises (or null). */
export const FaceAnswer = v.object({
  faces: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)),
  celebrity: v.nullable(
    v.object({
      name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
      confidence: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    }),
  ),
})
export type FaceAnswer = v.InferOutput<typeof FaceAnswer>

/** A recognised celebrity refuses the image from this confidence up (below it the provider is guessing). */
export const CELEBRITY_MIN_CONFIDENCE = 0.5

const SHAPE =
  '{"faces": <number of human faces in the image, 0 when none>, "celebrity": null, or {"name": "<the person\'s name>", "confidence": <0 to 1>} ' +
  'when a face in the image is of a celebrity or well-known public figure you recognise}'
const QUESTION =
  'This image is proposed as the picture of a virtual presenter. Count the human faces in it (drawings and photos of people count; ' +
  'animals and objects do not). Then say whether any face is of a celebrity or well-known public figure you recognise, with your ' +
  'confidence; answer null when you do not recognise one.'

/** Answer tokens asked for (the JSON is short). */
const MAX_TOKENS = 200

/**
 * The outcome of a check: `checked` (a face, no celebrity), a refusal (`no_face`, `celebrity`), or `not_run` and why
 * (no provider, a provider failure or invalid answers, the realm's cap). Only the first three are definitive.
 */
export type FaceCheck =
  | { outcome: 'checked'; provider: Exclude<VisionProvider, 'none'>; model: string; faces: number }
  | { outcome: 'no_face'; provider: Exclude<VisionProvider, 'none'>; model: string; faces: 0 }
  | { outcome: 'celebrity'; provider: Exclude<VisionProvider, 'none'>; model: string; faces: number; name: string; confidence: number }
  | { outcome: 'not_run'; provider: VisionProvider; reason: ImageCheckReason }

/** Credits reserved for one check before the provider answers: both attempts of the image, the prompt and the answer. */
const RESERVED = Math.max(1, Math.ceil((2 * (IMAGE_TOKENS + Math.ceil((QUESTION.length + SHAPE.length) / 4) + MAX_TOKENS)) / TOKENS_PER_CREDIT))

/**
 * Checks a persona image with the realm's vision provider (issue 16): a face must be found and no celebrity
 * recognised. A provider call is metered against the realm's monthly AI cap as text calls are (`askMetered`). Never throws for the provider's
 * sake: a failure is a check that did not run, with why.
 */
export async function checkFace(env: Env, settings: AiSettings, image: ImageInput, engine?: VisionEngine): Promise<FaceCheck> {
  const chosen = engine ? { engine, problem: null } : chooseVisionEngine(env, settings)
  const vision = chosen.engine
  if (vision.kind === 'none') return { outcome: 'not_run', provider: settings.visionProvider, reason: chosen.problem ?? 'not_configured' }
  try {
    const seen = await askMetered(env, settings, vision, RESERVED, { schema: FaceAnswer, shape: SHAPE, question: QUESTION, image, maxTokens: MAX_TOKENS })
    const { faces, celebrity } = seen.data
    const by = { provider: seen.engine, model: seen.model }
    if (faces === 0) return { outcome: 'no_face', ...by, faces: 0 }
    if (celebrity && celebrity.confidence >= CELEBRITY_MIN_CONFIDENCE)
      return { outcome: 'celebrity', ...by, faces, name: celebrity.name, confidence: celebrity.confidence }
    return { outcome: 'checked', ...by, faces }
  } catch (err) {
    if (!(err instanceof AiError)) throw err
    const reasons: Partial<Record<AiError['code'], ImageCheckReason>> = {
      ai_failed: 'ai_failed',
      ai_not_configured: 'not_configured',
      ai_cap_reached: 'cap_reached',
    }
    return { outcome: 'not_run', provider: vision.kind, reason: reasons[err.code] ?? 'provider_failed' }
  }
}
