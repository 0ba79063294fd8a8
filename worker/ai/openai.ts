import * as v from 'valibot'
import type { SourceRef } from '#shared/schemas/ai'
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
import { estimateUsage, groundedSystem, shapeInstruction, validationFeedback } from './prompt'

/** How long a provider may take before the call is abandoned (a stalled provider must not hold a request forever). */
export const PROVIDER_TIMEOUT_MS = 60_000

export interface OpenAiOptions {
  /** The realm's `agent_endpoint_url`: a base (`…/v1`) or the full `…/chat/completions` address. */
  endpoint: string
  model: string
  apiKey: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** The chat-completions address of an endpoint setting. */
export function completionsUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '')
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`
}

const Completion = v.object({
  choices: v.pipe(v.array(v.object({ message: v.object({ content: v.nullish(v.string(), '') }) })), v.minLength(1)),
  usage: v.optional(v.object({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() })),
})
const Chunk = v.object({
  choices: v.optional(v.array(v.object({ delta: v.optional(v.object({ content: v.nullish(v.string()) })) })), []),
  usage: v.nullish(v.object({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() })),
})

/**
 * The OpenAI-compatible adapter (any provider speaking the chat-completions protocol: OpenAI, Azure-style gateways,
 * vLLM, Ollama, OpenRouter…). Structured output asks for `response_format: json_object`, validates the JSON with the
 * caller's schema and retries once with the validation errors; streaming reads the server-sent events.
 */
export class OpenAiEngine implements TextEngine {
  readonly kind = 'openai' as const
  constructor(private readonly o: OpenAiOptions) {}

  generate<S extends v.GenericSchema>(req: GenerateRequest<S>): Promise<Generated<v.InferOutput<S>>> {
    return structured(this.kind, (messages) => this.complete(messages, { json: true, maxTokens: req.maxTokens }), req)
  }

  async *stream(req: StreamRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    const sources = req.sources ?? []
    const messages: ChatTurn[] = [{ role: 'system', content: groundedSystem(req.system, sources) }, ...req.messages.filter((m) => m.role !== 'system')]
    const response = await this.post({ messages, stream: true, stream_options: { include_usage: true }, max_tokens: req.maxTokens }, signal)
    let text = ''
    let usage: Usage | null = null
    for await (const data of serverSentData(response, this.o.timeoutMs ?? PROVIDER_TIMEOUT_MS)) {
      if (data === '[DONE]') break
      let json: unknown
      try {
        json = JSON.parse(data)
      } catch {
        throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid stream event')
      }
      const chunk = v.safeParse(Chunk, json)
      if (!chunk.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid stream event')
      if (chunk.output.usage) usage = chunk.output.usage
      const delta = chunk.output.choices.map((c) => c.delta?.content ?? '').join('')
      if (delta) {
        text += delta
        yield { type: 'delta', text: delta }
      }
    }
    yield { type: 'done', text, usage: usage ?? estimateUsage(messages, text), engine: this.kind, sources: cited(text, sources) }
  }

  /** One chat completion (its turns may carry image parts: the vision adapter's call). */
  async complete(messages: Turn[], opts: { json: boolean; maxTokens?: number }): Promise<{ content: string; usage: Usage }> {
    const response = await this.post({ messages, max_tokens: opts.maxTokens, ...(opts.json ? { response_format: { type: 'json_object' } } : {}) })
    let body: unknown
    try {
      body = await withTimeout(response.json(), this.o.timeoutMs ?? PROVIDER_TIMEOUT_MS)
    } catch (err) {
      if (err instanceof AiError) throw err
      throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
    }
    const parsed = v.safeParse(Completion, body)
    if (!parsed.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
    const content = parsed.output.choices[0].message.content ?? ''
    return { content, usage: parsed.output.usage ?? estimateUsage(messages, content) }
  }

  /**
   * POSTs to the provider. The timeout covers the wait for the answer's headers; bodies have their own (the whole
   * JSON body, or each gap between a stream's events), so a long stream that keeps talking is never cut.
   */
  private async post(body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(), this.o.timeoutMs ?? PROVIDER_TIMEOUT_MS)
    let response: Response
    try {
      response = await (this.o.fetch ?? fetch)(completionsUrl(this.o.endpoint), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.o.apiKey}` },
        body: JSON.stringify({ model: this.o.model, ...body }),
        signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      })
    } catch {
      throw new AiError('ai_provider_failed', 'ai.error.provider_failed', timeout.signal.aborted ? 'timeout' : 'unreachable')
    } finally {
      clearTimeout(timer)
    }
    if (response.ok) return response
    await response.body?.cancel().catch(() => undefined)
    if (response.status === 401 || response.status === 403) throw new AiError('ai_provider_auth', 'ai.error.provider_auth', response.status)
    throw new AiError('ai_provider_failed', 'ai.error.provider_failed', response.status)
  }
}

/**
 * Structured output over any chat model (docs ai.md): ask for the JSON, validate it with the caller's schema, retry
 * once with the validation errors, then fail with the seed's "failed to generate" message.
 */
export async function structured<S extends v.GenericSchema>(
  kind: TextEngine['kind'],
  complete: (messages: Turn[]) => Promise<{ content: string; usage: Usage }>,
  req: GenerateRequest<S>,
): Promise<Generated<v.InferOutput<S>>> {
  const sources = req.sources ?? []
  const messages: ChatTurn[] = [
    { role: 'system', content: groundedSystem(req.system, sources) + '\n\n' + shapeInstruction(req.shape) },
    { role: 'user', content: req.prompt },
  ]
  const out = await validatedAnswer(complete, messages, req.schema)
  return { ...out, engine: kind, sources }
}

/**
 * The validate-and-retry loop of structured output over any turns (text or with images): the answer's JSON checked
 * with the schema, one retry with the validation errors, then `ai_failed`.
 */
export async function validatedAnswer<S extends v.GenericSchema>(
  complete: (messages: Turn[]) => Promise<{ content: string; usage: Usage }>,
  messages: Turn[],
  schema: S,
): Promise<{ data: v.InferOutput<S>; usage: Usage; attempts: number }> {
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
  let issues: string[] = []
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await complete(messages)
    add(usage, answer.usage)
    const json = parseJsonAnswer(answer.content)
    if (json === undefined) issues = ['The answer was not JSON.']
    else {
      const result = v.safeParse(schema, json)
      if (result.success) return { data: result.output, usage, attempts: attempt }
      issues = result.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`)
    }
    messages.push({ role: 'assistant', content: answer.content }, { role: 'user', content: validationFeedback(issues) })
  }
  throw new AiError('ai_failed', 'ai.error.failed_to_generate', issues.slice(0, 10))
}

/** The JSON of a model's answer (a code fence around it tolerated), undefined when it is not JSON. */
function parseJsonAnswer(content: string): unknown {
  const text = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function add(total: Usage, u: Usage) {
  total.prompt_tokens += u.prompt_tokens
  total.completion_tokens += u.completion_tokens
  total.total_tokens += u.total_tokens
}

/** The passages a model's answer cites by their `[n]` markers (all of them when it cites none by number). */
export function cited(text: string, sources: SourceRef[]): SourceRef[] {
  const marks = new Set([...text.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1]) - 1))
  const picked = sources.filter((_, i) => marks.has(i))
  return picked.length ? picked : sources
}

/** A promise that rejects with the provider failure after `ms` (a body that never ends). */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new AiError('ai_provider_failed', 'ai.error.provider_failed', 'timeout')), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

/** The `data:` payloads of a server-sent-event response, one per event; a gap longer than `idleMs` fails the call. */
export async function* serverSentData(response: Response, idleMs: number): AsyncIterable<string> {
  if (!response.body) return
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  try {
    for (;;) {
      let read: ReadableStreamReadResult<string>
      try {
        read = await withTimeout(reader.read(), idleMs)
      } catch (err) {
        throw err instanceof AiError ? err : new AiError('ai_provider_failed', 'ai.error.provider_failed', 'stream broken')
      }
      const { done, value } = read
      if (done) break
      buffer += value
      let end: number
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, end)
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '')
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n')
        if (data) yield data
      }
    }
    const rest = buffer
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n')
    if (rest) yield rest
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}
