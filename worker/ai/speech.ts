import * as v from 'valibot'
import type { Voice } from '#shared/schemas/ai'
import { adjustCreditsStatement, reserveCredits, type AiSettings } from '../db/ai'
import { monthOf } from './index'
import { PROVIDER_TIMEOUT_MS } from './openai'
import { AiError } from './types'

/**
 * Text-to-speech behind one interface (docs ai.md "speech"), with the per-provider settings of seed 002 §3: Google
 * (pitch, volume_gain, speaking_rate), MiniMax (pitch, speed, volume), ElevenLabs (stability, similarity_boost,
 * use_speaker_boost). A voice whose provider has no key in the realm (or the `browser` provider) is spoken by the
 * browser's Web Speech API (`app/lib/speech.ts`); the answer says so rather than pretending.
 */
export interface Synthesizer {
  readonly provider: Exclude<Voice['provider'], 'browser'>
  synthesize(text: string, voice: Voice): Promise<{ audio: Uint8Array; contentType: string }>
}

/** Characters one AI credit pays for in speech synthesis. */
export const CHARS_PER_CREDIT = 1000

async function post(url: string, init: RequestInit): Promise<Response> {
  let response: Response
  try {
    response = await fetch(url, { ...init, method: 'POST', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) })
  } catch {
    throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'unreachable')
  }
  if (response.status === 401 || response.status === 403) throw new AiError('ai_provider_auth', 'ai.error.provider_auth', response.status)
  if (!response.ok) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', response.status)
  return response
}

async function jsonOf<S extends v.GenericSchema>(response: Response, schema: S): Promise<v.InferOutput<S>> {
  const parsed = v.safeParse(schema, await response.json().catch(() => null))
  if (!parsed.success) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'invalid answer')
  return parsed.output
}

const base64Bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16))
const num = (settings: Record<string, unknown>, key: string, fallback: number) => (typeof settings[key] === 'number' ? (settings[key] as number) : fallback)

/** Google Cloud Text-to-Speech: `POST /v1/text:synthesize?key=…`, answered `{ audioContent }` (base64 MP3). */
export class GoogleSpeech implements Synthesizer {
  readonly provider = 'google' as const
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}
  async synthesize(text: string, voice: Voice) {
    const s = voice.settings as Record<string, unknown>
    const response = await post(`${this.base.replace(/\/+$/, '')}/v1/text:synthesize?key=${encodeURIComponent(this.key)}`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        input: { text },
        voice: { languageCode: voice.language, ...(voice.code ? { name: voice.code } : {}) },
        audioConfig: { audioEncoding: 'MP3', pitch: num(s, 'pitch', 0), speakingRate: num(s, 'speaking_rate', 1), volumeGainDb: num(s, 'volume_gain', 0) },
      }),
    })
    const { audioContent } = await jsonOf(response, v.object({ audioContent: v.pipe(v.string(), v.minLength(1)) }))
    return { audio: base64Bytes(audioContent), contentType: 'audio/mpeg' }
  }
}

/** MiniMax T2A v2: `POST /v1/t2a_v2?GroupId=…` with a bearer key, answered `{ data: { audio: <hex> }, base_resp: { status_code } }`. */
export class MinimaxSpeech implements Synthesizer {
  readonly provider = 'minimax' as const
  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly group: string,
  ) {}
  async synthesize(text: string, voice: Voice) {
    const s = voice.settings as Record<string, unknown>
    const response = await post(`${this.base.replace(/\/+$/, '')}/v1/t2a_v2?GroupId=${encodeURIComponent(this.group)}`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.key}` },
      body: JSON.stringify({
        model: 'speech-02-hd',
        text,
        stream: false,
        // MiniMax takes whole pitch steps: the seed's 0.2 steps are rounded.
        voice_setting: { voice_id: voice.code, speed: num(s, 'speed', 1), vol: num(s, 'volume', 1), pitch: Math.round(num(s, 'pitch', 0)) },
        audio_setting: { format: 'mp3', sample_rate: 32000 },
      }),
    })
    const out = await jsonOf(
      response,
      v.object({ data: v.nullish(v.object({ audio: v.string() })), base_resp: v.object({ status_code: v.number(), status_msg: v.optional(v.string()) }) }),
    )
    if (out.base_resp.status_code === 1004 || out.base_resp.status_code === 2049)
      throw new AiError('ai_provider_auth', 'ai.error.provider_auth', out.base_resp.status_code)
    if (out.base_resp.status_code !== 0 || !out.data?.audio) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', out.base_resp.status_code)
    return { audio: hexBytes(out.data.audio), contentType: 'audio/mpeg' }
  }
}

/** ElevenLabs: `POST /v1/text-to-speech/{voice_id}` with `xi-api-key`, answered with the MP3 bytes. */
export class ElevenlabsSpeech implements Synthesizer {
  readonly provider = 'elevenlabs' as const
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}
  async synthesize(text: string, voice: Voice) {
    const s = voice.settings as Record<string, unknown>
    const response = await post(`${this.base.replace(/\/+$/, '')}/v1/text-to-speech/${encodeURIComponent(voice.code)}?output_format=mp3_44100_128`, {
      headers: { 'content-type': 'application/json', 'xi-api-key': this.key, accept: 'audio/mpeg' },
      body: JSON.stringify({
        text,
        model_id: 'eleven_multilingual_v2',
        voice_settings: {
          stability: num(s, 'stability', 0.5),
          similarity_boost: num(s, 'similarity_boost', 0.75),
          use_speaker_boost: s.use_speaker_boost !== false,
        },
      }),
    })
    const audio = new Uint8Array(await response.arrayBuffer())
    if (!audio.length) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'empty audio')
    return { audio, contentType: response.headers.get('content-type') ?? 'audio/mpeg' }
  }
}

/** The synthesizer of a voice in a realm, or null when the browser speaks it (the `browser` provider, or no key for its provider). */
export function synthesizerFor(env: Env, s: AiSettings, voice: Voice): Synthesizer | null {
  switch (voice.provider) {
    case 'google':
      return s.google ? new GoogleSpeech(env.GOOGLE_TTS_API_URL, s.google) : null
    case 'minimax':
      return s.minimax && s.minimaxGroup ? new MinimaxSpeech(env.MINIMAX_API_URL, s.minimax, s.minimaxGroup) : null
    case 'elevenlabs':
      return s.elevenlabs ? new ElevenlabsSpeech(env.ELEVENLABS_API_URL, s.elevenlabs) : null
    default:
      return null
  }
}

/** Speech as answered: audio from the provider, or the browser speaks (with the reason when a provider was asked for). */
export type Spoken =
  { engine: Synthesizer['provider']; content_type: string; audio: string } | { engine: 'browser'; reason: 'browser_voice' | 'ai_not_configured' }

/**
 * Speaks `text` with `voice` in the realm: the provider's audio (base64), metered against the monthly cap (one
 * credit per started 1,000 characters, reserved before the call and given back when it fails), or the browser.
 */
export async function speakWith(env: Env, s: AiSettings, text: string, voice: Voice): Promise<Spoken> {
  const synth = synthesizerFor(env, s, voice)
  if (!synth) return { engine: 'browser', reason: voice.provider === 'browser' ? 'browser_voice' : 'ai_not_configured' }
  const credits = Math.max(1, Math.ceil(text.length / CHARS_PER_CREDIT))
  const month = monthOf(s.timeZone)
  if (!(await reserveCredits(env.DB, s.realm, month, credits, new Date().toISOString())))
    throw new AiError('ai_cap_reached', 'ai.error.cap_reached', { cap: s.cap, month })
  try {
    const { audio, contentType } = await synth.synthesize(text, voice)
    let binary = ''
    for (let i = 0; i < audio.length; i += 0x8000) binary += String.fromCharCode(...audio.subarray(i, i + 0x8000))
    return { engine: synth.provider, content_type: contentType, audio: btoa(binary) }
  } catch (err) {
    await adjustCreditsStatement(env.DB, s.realm, month, -credits, new Date().toISOString()).run()
    throw err
  }
}
