import * as v from 'valibot'
import type { AnimationKind } from '#shared/schemas/ai'
import { AiError } from './types'
import { PROVIDER_TIMEOUT_MS } from './openai'

/**
 * Paid media providers behind interfaces (docs ai.md "media"): animation (D-ID by default, seed 000 §9) and voice
 * cloning (ElevenLabs). There is no local stand-in for either: locally the console animates the persona's image in
 * the browser and says that voice cloning needs a provider. Every call here is paid: callers run it through
 * `paidOperation` (worker/ai/paid.ts), which debits before and refunds when the provider fails.
 */

/** What an animation request sends: the persona's image, and the words it says (talk) or none (idle, enter, leave). */
export interface AnimationRequest {
  kind: AnimationKind
  imageUrl: string
  text?: string
  voiceCode?: string
  /** Audio the image says (a lesson slide's stored narration), instead of `text`: a public URL the provider downloads. */
  audioUrl?: string
}

/** A provider's job: `pending` until its result URL exists, `failed` with the provider's reason. */
export type MediaJob = { ref: string; status: 'pending' } | { ref: string; status: 'done'; url: string } | { ref: string; status: 'failed'; reason: string }

export interface AnimationAdapter {
  readonly provider: string
  start(req: AnimationRequest): Promise<MediaJob>
  check(ref: string): Promise<MediaJob>
}

export interface VoiceCloneRequest {
  name: string
  sample: Blob
  fileName: string
}

export interface VoiceCloneAdapter {
  readonly provider: string
  clone(req: VoiceCloneRequest): Promise<{ voice_code: string }>
}

async function call(url: string, init: RequestInit): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) })
  } catch {
    throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'unreachable')
  }
  if (response.status === 401 || response.status === 403) throw new AiError('ai_provider_auth', 'ai.error.provider_auth', response.status)
  if (!response.ok) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', response.status)
  try {
    return await response.json()
  } catch {
    throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
  }
}

const Talk = v.object({
  id: v.string(),
  status: v.picklist(['created', 'started', 'done', 'error', 'rejected']),
  result_url: v.optional(v.string()),
  error: v.optional(v.unknown()),
})

const job = (t: v.InferOutput<typeof Talk>): MediaJob =>
  t.status === 'done' && t.result_url
    ? { ref: t.id, status: 'done', url: t.result_url }
    : t.status === 'error' || t.status === 'rejected'
      ? { ref: t.id, status: 'failed', reason: JSON.stringify(t.error ?? t.status).slice(0, 300) }
      : { ref: t.id, status: 'pending' }

/**
 * D-ID's talks API: `POST /talks` with the image (`source_url`) and a script (text spoken with a voice, or silence
 * for idle/enter/leave), answered `{ id, status }`; `GET /talks/{id}` until `done` with `result_url`. Basic auth with
 * the realm's key (`animation_did_api_key`).
 */
export class DidAnimation implements AnimationAdapter {
  readonly provider = 'did'
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}

  async start(req: AnimationRequest): Promise<MediaJob> {
    const script = req.audioUrl
      ? { type: 'audio', audio_url: req.audioUrl }
      : req.text
        ? { type: 'text', input: req.text, ...(req.voiceCode ? { provider: { type: 'microsoft', voice_id: req.voiceCode } } : {}) }
        : { type: 'text', input: '<break time="3000ms"/>', ssml: true }
    const body = { source_url: req.imageUrl, script, config: { stitch: true }, name: req.kind }
    const answer = v.safeParse(
      Talk,
      await call(`${this.base.replace(/\/+$/, '')}/talks`, { method: 'POST', headers: this.headers(), body: JSON.stringify(body) }),
    )
    if (!answer.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
    const out = job(answer.output)
    if (out.status === 'failed') throw new AiError('ai_provider_failed', 'ai.error.provider_failed', out.reason)
    return out
  }

  async check(ref: string): Promise<MediaJob> {
    const answer = v.safeParse(Talk, await call(`${this.base.replace(/\/+$/, '')}/talks/${encodeURIComponent(ref)}`, { headers: this.headers() }))
    if (!answer.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
    return job(answer.output)
  }

  private headers() {
    return { authorization: `Basic ${this.key}`, 'content-type': 'application/json', accept: 'application/json' }
  }
}

/** ElevenLabs' instant voice cloning: `POST /v1/voices/add` (multipart: name, files) with `xi-api-key`, answered `{ voice_id }`. */
export class ElevenlabsVoiceClone implements VoiceCloneAdapter {
  readonly provider = 'elevenlabs'
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}

  async clone(req: VoiceCloneRequest): Promise<{ voice_code: string }> {
    const form = new FormData()
    form.set('name', req.name)
    form.append('files', req.sample, req.fileName)
    const answer = v.safeParse(
      v.object({ voice_id: v.pipe(v.string(), v.minLength(1)) }),
      await call(`${this.base.replace(/\/+$/, '')}/v1/voices/add`, { method: 'POST', headers: { 'xi-api-key': this.key }, body: form }),
    )
    if (!answer.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
    return { voice_code: answer.output.voice_id }
  }
}

/** The realm's animation provider, or null when none is configured (the console then animates in the browser). */
export function animationAdapter(env: Env, didKey: string): AnimationAdapter | null {
  return didKey ? new DidAnimation(env.DID_API_URL, didKey) : null
}

/** The realm's voice cloning provider, or null (the console explains a provider must be configured). */
export function voiceCloneAdapter(env: Env, elevenlabsKey: string): VoiceCloneAdapter | null {
  return elevenlabsKey ? new ElevenlabsVoiceClone(env.ELEVENLABS_API_URL, elevenlabsKey) : null
}
