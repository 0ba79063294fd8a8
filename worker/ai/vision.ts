import type * as v from 'valibot'
import type { VisionProvider } from '#shared/schemas/ai'
import type { AiSettings } from '../db/ai'
import { OpenAiEngine, validatedAnswer, type OpenAiOptions } from './openai'
import { shapeInstruction } from './prompt'
import { AiError, type ImageInput, type Seen, type Turn, type VisionEngine, type VisionRequest } from './types'
import { WorkersAiEngine, type AiBinding } from './workers-ai'

/**
 * The vision capability of the AI layer (docs ai.md "vision"): a question about one image, answered as JSON that the
 * caller's valibot schema validates (one retry with the validation errors, as text generation). Adapters:
 * - `openai`: any OpenAI-compatible chat-completions endpoint (the realm's agent endpoint and key), the image sent as
 *   an `image_url` content part holding a data URL, JSON asked with `response_format: json_object`;
 * - `workers_ai`: the `AI` binding with a multimodal model taking the same message parts
 *   (`DEFAULT_WORKERS_AI_VISION_MODEL` unless the realm names one);
 * - `none`: no vision provider. There is no local vision engine (the browser's face detector is the local check);
 *   asking it answers `ai_not_configured`, never a guess.
 */

/**
 * The Workers AI model used when the realm names none: Meta's Llama 4 Scout, the multimodal model of the catalogue
 * that takes OpenAI-style messages with `image_url` parts (data URLs) and a `response_format` of `json_object`
 * (the 3.2 vision model takes a separate `image` input and needs a licence agreement call first; LLaVA answers
 * free text only).
 */
export const DEFAULT_WORKERS_AI_VISION_MODEL = '@cf/meta/llama-4-scout-17b-16e-instruct'

/** Media types an image may be sent as (what the console's image uploads can be). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])

/** The image as a `data:` URL (base64), the form both adapters send. */
export function dataUrl(image: ImageInput): string {
  if (!IMAGE_TYPES.has(image.type)) throw new AiError('ai_unsupported', 'ai.error.image_type', image.type)
  let binary = ''
  const step = 0x8000
  for (let i = 0; i < image.bytes.length; i += step) binary += String.fromCharCode(...image.bytes.subarray(i, i + step))
  return `data:${image.type};base64,${btoa(binary)}`
}

/** The turns of a vision question: the JSON instruction, then the question with the image. */
export function visionTurns(req: VisionRequest<v.GenericSchema>): Turn[] {
  return [
    { role: 'system', content: `${req.system?.trim() || 'You look at images and answer precisely.'}\n\n${shapeInstruction(req.shape)}` },
    {
      role: 'user',
      content: [
        { type: 'text', text: req.question },
        { type: 'image_url', image_url: { url: dataUrl(req.image) } },
      ],
    },
  ]
}

/** The OpenAI-compatible vision adapter: the realm's agent endpoint, its key, and the vision model (or the agent model). */
export class OpenAiVision implements VisionEngine {
  readonly kind = 'openai' as const
  private readonly engine: OpenAiEngine
  constructor(private readonly o: OpenAiOptions) {
    this.engine = new OpenAiEngine(o)
  }
  get model() {
    return this.o.model
  }

  async ask<S extends v.GenericSchema>(req: VisionRequest<S>): Promise<Seen<v.InferOutput<S>>> {
    const out = await validatedAnswer((m) => this.engine.complete(m, { json: true, maxTokens: req.maxTokens }), visionTurns(req), req.schema)
    return { ...out, engine: this.kind, model: this.o.model }
  }
}

/** The Workers AI vision adapter (the `AI` binding when deployed). */
export class WorkersAiVision implements VisionEngine {
  readonly kind = 'workers_ai' as const
  private readonly engine: WorkersAiEngine
  constructor(
    binding: AiBinding,
    readonly model: string = DEFAULT_WORKERS_AI_VISION_MODEL,
  ) {
    this.engine = new WorkersAiEngine(binding, model)
  }

  async ask<S extends v.GenericSchema>(req: VisionRequest<S>): Promise<Seen<v.InferOutput<S>>> {
    const out = await validatedAnswer((m) => this.engine.complete(m, req.maxTokens, true), visionTurns(req), req.schema)
    return { ...out, engine: this.kind, model: this.model }
  }
}

/** No vision provider: every question answers `ai_not_configured` (the caller records the check as not run). */
export class NoVision implements VisionEngine {
  readonly kind = 'none' as const
  readonly model = ''
  constructor(readonly problem: string = 'not_configured') {}
  ask<S extends v.GenericSchema>(): Promise<Seen<v.InferOutput<S>>> {
    return Promise.reject(new AiError('ai_not_configured', 'ai.error.not_configured', this.problem))
  }
}

/**
 * The vision engine the realm's settings choose, and why it is `none` when the chosen provider lacks a setting
 * (`not_configured`: no agent endpoint or model for openai; `binding_missing`: Workers AI chosen without the binding).
 */
export function chooseVisionEngine(env: Env, s: AiSettings): { engine: VisionEngine; problem: 'not_configured' | 'binding_missing' | null } {
  const chosen: VisionProvider = s.visionProvider
  if (chosen === 'openai') {
    const model = s.visionModel || s.model
    if (!s.endpoint || !model) return { engine: new NoVision('not_configured'), problem: 'not_configured' }
    return { engine: new OpenAiVision({ endpoint: s.endpoint, model, apiKey: s.apiKey }), problem: null }
  }
  if (chosen === 'workers_ai') {
    const binding: AiBinding | undefined = env.AI
    if (!binding) return { engine: new NoVision('binding_missing'), problem: 'binding_missing' }
    return { engine: new WorkersAiVision(binding, s.visionModel || DEFAULT_WORKERS_AI_VISION_MODEL), problem: null }
  }
  return { engine: new NoVision('not_configured'), problem: 'not_configured' }
}
