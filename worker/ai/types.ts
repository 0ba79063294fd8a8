import type * as v from 'valibot'
import type { SourceRef, TextProvider, VisionProvider } from '#shared/schemas/ai'

/** One turn of a conversation given to a text engine. */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** A part of a turn's content (OpenAI's chat-completions content parts): text, or an image by URL (a data URL here). */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** A turn whose content may carry images: what a vision question sends. A plain `ChatTurn` is one. */
export interface Turn {
  role: ChatTurn['role']
  content: string | ContentPart[]
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

/** An image given to a vision engine: its bytes and media type (image/png, image/jpeg, image/webp). */
export interface ImageInput {
  bytes: Uint8Array
  type: string
}

/**
 * A question about one image with a structured answer (docs ai.md "vision"): the caller's valibot schema in,
 * validated data out, with the same retry as text generation.
 */
export interface VisionRequest<S extends v.GenericSchema> {
  schema: S
  /** Describes the JSON wanted; the schema still decides. */
  shape: string
  question: string
  image: ImageInput
  system?: string
  maxTokens?: number
}

export interface Seen<T> {
  data: T
  engine: Exclude<VisionProvider, 'none'>
  model: string
  usage: Usage
  attempts: number
}

/** One vision provider (openai-compatible, workers-ai); `none` answers `ai_not_configured`. */
export interface VisionEngine {
  readonly kind: VisionProvider
  readonly model: string
  ask<S extends v.GenericSchema>(req: VisionRequest<S>): Promise<Seen<v.InferOutput<S>>>
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
