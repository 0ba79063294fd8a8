import * as v from 'valibot'
import { cited, PROVIDER_TIMEOUT_MS, serverSentData, structured } from './openai'
import { estimateUsage, groundedSystem } from './prompt'
import {
  AiError,
  type ChatTurn,
  type GenerateRequest,
  type Generated,
  type StreamEvent,
  type StreamRequest,
  type TextEngine,
  type Turn,
  type Usage,
} from './types'

/** The part of Cloudflare's `AI` binding this adapter uses (`env.AI.run(model, inputs)`). */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>
}

/** The model used when the realm names none (a Workers AI instruction model). */
export const DEFAULT_WORKERS_AI_MODEL = '@cf/meta/llama-3.1-8b-instruct'

const Answer = v.object({
  response: v.union([v.string(), v.record(v.string(), v.unknown()), v.array(v.unknown())]),
  usage: v.optional(v.object({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() })),
})
const Event = v.object({
  response: v.optional(v.string()),
  usage: v.optional(v.object({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() })),
})

/**
 * The Workers AI adapter (the `AI` binding, when the Worker is deployed on Cloudflare with it): the same structured
 * output and grounding as the OpenAI-compatible one over `env.AI.run`; streaming reads its server-sent events.
 */
export class WorkersAiEngine implements TextEngine {
  readonly kind = 'workers_ai' as const
  constructor(
    private readonly ai: AiBinding,
    private readonly model: string,
  ) {}

  generate<S extends v.GenericSchema>(req: GenerateRequest<S>): Promise<Generated<v.InferOutput<S>>> {
    return structured(this.kind, (messages) => this.complete(messages, req.maxTokens), req)
  }

  async *stream(req: StreamRequest): AsyncIterable<StreamEvent> {
    const sources = req.sources ?? []
    const messages: ChatTurn[] = [{ role: 'system', content: groundedSystem(req.system, sources) }, ...req.messages.filter((m) => m.role !== 'system')]
    const out = await this.run({ messages, stream: true, max_tokens: req.maxTokens })
    if (!(out instanceof ReadableStream)) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'not a stream')
    let text = ''
    let usage: Usage | null = null
    for await (const data of serverSentData(new Response(out), PROVIDER_TIMEOUT_MS)) {
      if (data === '[DONE]') break
      let event: v.InferOutput<typeof Event>
      try {
        event = v.parse(Event, JSON.parse(data))
      } catch {
        throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid stream event')
      }
      if (event.usage) usage = event.usage
      if (event.response) {
        text += event.response
        yield { type: 'delta', text: event.response }
      }
    }
    yield { type: 'done', text, usage: usage ?? estimateUsage(messages, text), engine: this.kind, sources: cited(text, sources) }
  }

  /** One completion (its turns may carry image parts, for a vision model; `json` asks for a JSON object). */
  async complete(messages: Turn[], maxTokens?: number, json = false): Promise<{ content: string; usage: Usage }> {
    const out = v.safeParse(Answer, await this.run({ messages, max_tokens: maxTokens, ...(json ? { response_format: { type: 'json_object' } } : {}) }))
    if (!out.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
    const content = typeof out.output.response === 'string' ? out.output.response : JSON.stringify(out.output.response)
    return { content, usage: out.output.usage ?? estimateUsage(messages, content) }
  }

  private async run(inputs: Record<string, unknown>): Promise<unknown> {
    try {
      return await this.ai.run(this.model || DEFAULT_WORKERS_AI_MODEL, inputs)
    } catch (err) {
      throw new AiError('ai_provider_failed', 'ai.error.provider_failed', String(err).slice(0, 200))
    }
  }
}
