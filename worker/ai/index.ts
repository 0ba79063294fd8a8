import type * as v from 'valibot'
import type { AiStatus } from '#shared/schemas/ai'
import { PAID_OPERATIONS } from '#shared/schemas/ai'
import { adjustCreditsStatement, aiSettings, creditsUsed, reserveCredits, type AiSettings } from '../db/ai'
import { contentPrices } from '../db/ledger-catalog'
import { ApiError } from '../lib/errors'
import { LocalEngine } from './local'
import { OpenAiEngine } from './openai'
import { AiError, type GenerateRequest, type Generated, type StreamEvent, type StreamRequest, type TextEngine, type Usage } from './types'
import { chooseVisionEngine } from './vision'
import { WorkersAiEngine, type AiBinding } from './workers-ai'

export { AiError } from './types'
export type { TextEngine } from './types'

/** Tokens one AI credit pays for: a remote text call costs one credit per started 1,000 tokens (prompt and answer). */
export const TOKENS_PER_CREDIT = 1000
/** Answer tokens reserved for a call that names no limit, before the provider reports what it used. */
const DEFAULT_MAX_TOKENS = 1024

/** The realm's calendar month (YYYY-MM) in its time zone: the period of the monthly cap. */
export function monthOf(timeZone: string, at = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(at)
  return `${parts.find((p) => p.type === 'year')?.value}-${parts.find((p) => p.type === 'month')?.value}`
}

/** Credits a call of `usage` costs. */
export const creditsFor = (usage: Usage) => Math.ceil(usage.total_tokens / TOKENS_PER_CREDIT)

/**
 * The text engine the realm's settings choose, and why it is not the chosen one when a setting is missing (then the
 * local engine answers, and the status says so: a provider that is not configured is reported, never faked).
 */
export function chooseTextEngine(env: Env, s: AiSettings): { engine: TextEngine; problem: string | null } {
  if (s.textProvider === 'openai') {
    if (!s.endpoint || !s.model) return { engine: new LocalEngine(), problem: 'ai_not_configured' }
    return { engine: new OpenAiEngine({ endpoint: s.endpoint, model: s.model, apiKey: s.apiKey }), problem: null }
  }
  if (s.textProvider === 'workers_ai') {
    const binding: AiBinding | undefined = env.AI
    if (!binding) return { engine: new LocalEngine(), problem: 'ai_binding_missing' }
    return { engine: new WorkersAiEngine(binding, s.model), problem: null }
  }
  return { engine: new LocalEngine(), problem: null }
}

/** The realm's AI settings; 404-like failure for an unknown realm is the caller's (every caller has a live realm). */
export async function settingsOf(env: Env, realm: string): Promise<AiSettings> {
  const s = await aiSettings(env.DB, realm)
  if (!s) throw new AiError('ai_not_configured', 'ai.error.not_configured', realm)
  return s
}

/**
 * A text engine whose remote calls are metered against the realm's monthly cap: each call reserves its estimated
 * credits first (refused with `ai_cap_reached` when the month would pass the cap, before the provider is called),
 * then settles what the provider reported, or gives the reservation back when the call fails. The local engine
 * costs nothing and is never refused.
 */
export class MeteredEngine implements TextEngine {
  readonly kind: TextEngine['kind']
  constructor(
    private readonly db: D1Database,
    private readonly settings: AiSettings,
    private readonly inner: TextEngine,
  ) {
    this.kind = inner.kind
  }

  async generate<S extends v.GenericSchema>(req: GenerateRequest<S>): Promise<Generated<v.InferOutput<S>>> {
    if (this.kind === 'local') return this.inner.generate(req)
    // A structured call may be retried once: both attempts are reserved.
    const reserved = this.estimate(req.prompt.length + (req.system?.length ?? 0) + sourceChars(req.sources), req.maxTokens, 2)
    const month = await this.reserve(reserved)
    try {
      const out = await this.inner.generate(req)
      await this.settle(month, creditsFor(out.usage) - reserved)
      return out
    } catch (err) {
      // A provider that answered (even wrongly) was used: the reservation stands for an invalid answer; given back otherwise.
      await this.settle(month, err instanceof AiError && err.code === 'ai_failed' ? 0 : -reserved)
      throw err
    }
  }

  async *stream(req: StreamRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    if (this.kind === 'local') {
      yield* this.inner.stream(req, signal)
      return
    }
    const reserved = this.estimate(
      req.messages.reduce((n, m) => n + m.content.length, 0) + (req.system?.length ?? 0) + sourceChars(req.sources),
      req.maxTokens,
      1,
    )
    const month = await this.reserve(reserved)
    let settled = false
    try {
      for await (const event of this.inner.stream(req, signal)) {
        if (event.type === 'done') {
          await this.settle(month, creditsFor(event.usage) - reserved)
          settled = true
        }
        yield event
      }
    } finally {
      if (!settled) await this.settle(month, -reserved)
    }
  }

  private estimate(chars: number, maxTokens = DEFAULT_MAX_TOKENS, attempts: number): number {
    return Math.max(1, Math.ceil(((Math.ceil(chars / 4) + maxTokens) * attempts) / TOKENS_PER_CREDIT))
  }

  private async reserve(credits: number): Promise<string> {
    const month = monthOf(this.settings.timeZone)
    if (!(await reserveCredits(this.db, this.settings.realm, month, credits, new Date().toISOString())))
      throw new AiError('ai_cap_reached', 'ai.error.cap_reached', { cap: this.settings.cap, month })
    return month
  }

  private async settle(month: string, delta: number): Promise<void> {
    if (delta !== 0) await adjustCreditsStatement(this.db, this.settings.realm, month, delta, new Date().toISOString()).run()
  }
}

const sourceChars = (sources: { quote: string }[] | undefined) => (sources ?? []).reduce((n, s) => n + s.quote.length + 16, 0)

/** The realm's text engine, metered against its cap: what every feature calls (`generate`, `stream`). */
export async function textFor(env: Env, realm: string): Promise<{ engine: TextEngine; settings: AiSettings; problem: string | null }> {
  const settings = await settingsOf(env, realm)
  const { engine, problem } = chooseTextEngine(env, settings)
  return { engine: new MeteredEngine(env.DB, settings, engine), settings, problem }
}

/** What the console may know about the realm's AI: providers, which keys are set (never the keys), the cap and this month's use. */
export async function aiStatus(env: Env, realm: string): Promise<AiStatus> {
  const s = await settingsOf(env, realm)
  const { engine, problem } = chooseTextEngine(env, s)
  const vision = chooseVisionEngine(env, s)
  const month = monthOf(s.timeZone)
  const [used, prices] = await Promise.all([creditsUsed(env.DB, realm, month), contentPrices(env.DB, realm, Object.values(PAID_OPERATIONS))])
  return {
    text_provider: s.textProvider,
    text_engine: engine.kind,
    text_problem: problem,
    model: engine.kind === 'local' ? '' : s.model,
    speech: { minimax: Boolean(s.minimax && s.minimaxGroup), google: Boolean(s.google), elevenlabs: Boolean(s.elevenlabs) },
    animation: { did: Boolean(s.did) },
    voice_clone: { elevenlabs: Boolean(s.elevenlabs) },
    vision: {
      provider: s.visionProvider,
      engine: vision.engine.kind,
      problem: s.visionProvider === 'none' ? null : vision.problem,
      model: vision.engine.model,
    },
    cap: s.cap,
    used,
    month,
    prices: {
      animation: prices.get(PAID_OPERATIONS.animation) ?? null,
      voice_clone: prices.get(PAID_OPERATIONS.voice_clone) ?? null,
      answer_revision: prices.get(PAID_OPERATIONS.answer_revision) ?? null,
    },
  }
}

const STATUS: Record<AiError['code'], 409 | 429 | 502> = {
  ai_failed: 502,
  ai_provider_failed: 502,
  ai_provider_auth: 502,
  ai_not_configured: 409,
  ai_unsupported: 409,
  ai_cap_reached: 429,
}

/** An AI failure as the API answers it (the envelope, with the layer's cause and message); other errors unchanged. */
export function aiApiError(err: unknown): unknown {
  if (!(err instanceof AiError)) return err
  return new ApiError(STATUS[err.code], [{ field: 'ai', cause: err.code, value: err.detail, message: err.message }])
}
