import * as v from 'valibot'
import type { SourceRef } from '#shared/schemas/ai'
import { AiError, type GenerateRequest, type Generated, type StreamEvent, type StreamRequest, type TextEngine, type Usage } from './types'

const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }

/** How the local engine introduces a quote, per interface language (it quotes; it never speaks as a model). */
const QUOTE_INTRO: Record<string, (title: string) => string> = {
  pt: (t) => `De “${t}”:`,
  en: (t) => `From “${t}”:`,
  es: (t) => `De «${t}»:`,
}

/** The local engine's answer from retrieved passages: each quoted exactly, introduced by its source and cited `[n]`. */
export function extractiveAnswer(sources: SourceRef[], language = 'pt-BR'): string {
  const intro = QUOTE_INTRO[language.slice(0, 2)] ?? QUOTE_INTRO.pt
  return sources.map((s, i) => `${intro(s.title)} ${s.quote} [${i + 1}]`).join('\n')
}

/**
 * The offline engine (docs ai.md "the local engine is real, and says what it is"): no model. A conversation is
 * answered with the retrieved passages quoted word for word and cited; a structured generation runs the feature's
 * own template (`local`) over its sources and validates the result with the same schema a model's answer meets.
 * Deterministic: the same sources and question always give the same answer. It reports `engine: 'local'`.
 */
export class LocalEngine implements TextEngine {
  readonly kind = 'local' as const

  async generate<S extends v.GenericSchema>(req: GenerateRequest<S>): Promise<Generated<v.InferOutput<S>>> {
    const sources = req.sources ?? []
    if (!req.local) throw new AiError('ai_unsupported', 'ai.error.local_unsupported')
    const result = v.safeParse(req.schema, req.local(sources))
    if (!result.success) throw new AiError('ai_failed', 'ai.error.failed_to_generate', result.issues.map((i) => i.message).slice(0, 10))
    return { data: result.output, engine: this.kind, usage: NO_USAGE, attempts: 1, sources }
  }

  async *stream(req: StreamRequest): AsyncIterable<StreamEvent> {
    const sources = req.sources ?? []
    const text = extractiveAnswer(sources, req.language)
    // Streamed word by word, as a model's answer is, so clients handle both the same way.
    for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: 'delta', text: piece }
    yield { type: 'done', text, usage: NO_USAGE, engine: this.kind, sources }
  }
}
