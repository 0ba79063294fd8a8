import type * as v from 'valibot'
import type { SourceRef, TextProvider } from '#shared/schemas/ai'

/** One turn of a conversation given to a text engine. */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** Tokens a provider reported (or the engine estimated) for one call. */
export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

/**
 * A structured generation: the caller's valibot schema in, validated data out (docs ai.md "structured in, validated
 * out"). `local` is what the offline engine answers without a model (a feature's template filled from its sources);
 * a feature without one cannot run on the local engine, and says so.
 */
export interface GenerateRequest<S extends v.GenericSchema> {
  schema: S
  /** Describes the JSON wanted (fields, lengths) for a model; the schema still decides. */
  shape: string
  system?: string
  prompt: string
  sources?: SourceRef[]
  maxTokens?: number
  local?: (sources: SourceRef[]) => unknown
}

export interface Generated<T> {
  data: T
  engine: TextProvider
  usage: Usage
  /** Attempts the provider needed (2 when the first answer failed validation). */
  attempts: number
  sources: SourceRef[]
}

/** A streamed answer to a conversation, grounded in `sources` (the retrieved passages). */
export interface StreamRequest {
  system?: string
  messages: ChatTurn[]
  sources?: SourceRef[]
  maxTokens?: number
  /** Language of the answer (BCP 47); the local engine words its quotes in it. */
  language?: string
}

export type StreamEvent = { type: 'delta'; text: string } | { type: 'done'; text: string; usage: Usage; engine: TextProvider; sources: SourceRef[] }

/** One text provider (docs ai.md: openai-compatible, workers-ai, local). */
export interface TextEngine {
  readonly kind: TextProvider
  generate<S extends v.GenericSchema>(req: GenerateRequest<S>): Promise<Generated<v.InferOutput<S>>>
  stream(req: StreamRequest, signal?: AbortSignal): AsyncIterable<StreamEvent>
}

/**
 * Why an AI call failed, as the API answers it: `ai_failed` (the seed's "failed to generate": no valid answer after
 * the retry), `ai_provider_failed` (the provider errored, stalled or could not be reached), `ai_provider_auth` (it
 * refused the key), `ai_not_configured`, `ai_unsupported` (the local engine has no template for this), `ai_cap_reached`.
 */
export type AiCause = 'ai_failed' | 'ai_provider_failed' | 'ai_provider_auth' | 'ai_not_configured' | 'ai_unsupported' | 'ai_cap_reached'

export class AiError extends Error {
  constructor(
    readonly code: AiCause,
    message: string,
    readonly detail: unknown = null,
  ) {
    super(message)
  }
}
