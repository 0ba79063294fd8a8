import * as v from 'valibot'
import { UrlWithDefaultScheme } from './common'

/**
 * The AI and speech layer's shared vocabulary (docs ai.md; seed 002 §3 "Persona", §9; seed 000 §9): providers,
 * voice settings with the seed's ranges, and what the Worker tells the console about a realm's AI. The Worker's
 * adapters live in `worker/ai/`; the console and the parties import only these types and schemas.
 */

/** Text generation providers a realm can choose (`ai_text_provider`); `local` is the offline engine (no model). */
export const TEXT_PROVIDERS = ['local', 'openai', 'workers_ai'] as const
export type TextProvider = (typeof TEXT_PROVIDERS)[number]

/**
 * Vision providers a realm can choose (`vision_provider`) for the persona image's server check (faces, celebrity):
 * `none` (the default: the check does not run, and the console says so), the OpenAI-compatible endpoint of the
 * realm's agent settings, or Workers AI. There is no local vision engine: the browser runs its own face detector.
 */
export const VISION_PROVIDERS = ['none', 'openai', 'workers_ai'] as const
export type VisionProvider = (typeof VISION_PROVIDERS)[number]

/** Speech (text-to-speech) providers of a persona's voice; `browser` is the Web Speech API. Default minimax (seed 000 §9). */
export const VOICE_PROVIDERS = ['minimax', 'google', 'elevenlabs', 'browser'] as const
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number]
export const DEFAULT_VOICE_PROVIDER: VoiceProvider = 'minimax'

/** Animation providers; `browser` renders a talking animation from the persona's image. Default did (seed 000 §9). */
export const ANIMATION_PROVIDERS = ['did', 'browser'] as const
export type AnimationProvider = (typeof ANIMATION_PROVIDERS)[number]
export const DEFAULT_ANIMATION_PROVIDER: AnimationProvider = 'did'

/** The animations a persona has (seed 002 §3): idle, talk, enter, leave, and the video application. */
export const ANIMATION_KINDS = ['idle', 'talk', 'enter', 'leave', 'video'] as const
export type AnimationKind = (typeof ANIMATION_KINDS)[number]

/** Voice cloning providers; none is built in (the console says a provider must be configured). */
export const VOICE_CLONE_PROVIDERS = ['elevenlabs'] as const

/** Price-list keys (ledger/content) of the paid AI operations; seeded as system prices. */
export const PAID_OPERATIONS = {
  animation: 'persona.animation',
  voice_clone: 'persona.voice_clone',
  answer_revision: 'tms.answer_revision',
  // Content generation (issue 18): one operation per generated content of a job, and a task model's generation.
  genesis_summary: 'lesson.summary',
  genesis_class_plan: 'lesson.class_plan',
  genesis_handout: 'lesson.handout',
  genesis_slide: 'lesson.slides',
  genesis_narrative: 'lesson.narration',
  genesis_task: 'lesson.tasks',
  genesis_question_pairs: 'lesson.qa_pairs',
  model_generation: 'tms.model_generation',
  // Lesson narration and persona videos (issue 18): one operation per slide; narration is priced per started 1,000 characters.
  lesson_narration_audio: 'lesson.narration_audio',
  lesson_persona_video: 'lesson.persona_video',
} as const
export type PaidOperationKind = keyof typeof PAID_OPERATIONS

/** A number within [min, max] that is a multiple of `step` from `min` (seed 000 §5 "numeric value … multiple of the step"). */
export interface Range {
  min: number
  max: number
  step: number
}

/** Seed 000 §5 / 002 §9 voice ranges: voice index 0–4 step 1; pitch −8–8 step 0.2; tempo and rate 0.05–4 step 0.05. */
export const VOICE_RANGES = {
  voice_index: { min: 0, max: 4, step: 1 },
  pitch: { min: -8, max: 8, step: 0.2 },
  tempo: { min: 0.05, max: 4, step: 0.05 },
  rate: { min: 0.05, max: 4, step: 0.05 },
} as const satisfies Record<string, Range>

/**
 * Ranges of the provider settings the seed lists without numbers: Google's documented volume gain (−96 to 16 dB),
 * MiniMax's volume (0–10), ElevenLabs' stability and similarity (0–1).
 */
export const PROVIDER_RANGES = {
  volume_gain: { min: -96, max: 16, step: 0.5 },
  volume: { min: 0, max: 10, step: 0.1 },
  unit: { min: 0, max: 1, step: 0.05 },
} as const satisfies Record<string, Range>

/** True when `x` lies in the range and on its step (to 1e-9, so 0.2 steps survive floating point). */
export function onStep(x: number, r: Range): boolean {
  if (!Number.isFinite(x) || x < r.min - 1e-9 || x > r.max + 1e-9) return false
  const n = (x - r.min) / r.step
  return Math.abs(n - Math.round(n)) < 1e-6
}

const ranged = (r: Range) =>
  v.pipe(
    v.number('validation.number'),
    v.minValue(r.min, 'validation.min_value'),
    v.maxValue(r.max, 'validation.max_value'),
    v.check((x) => onStep(x, r), 'validation.step'),
  )

/** Per-provider voice settings (seed 002 §3): google pitch, volume_gain, speaking_rate; minimax pitch, speed, volume; elevenlabs stability, similarity_boost, use_speaker_boost. */
export const GoogleVoiceSettings = v.object({
  pitch: v.optional(ranged(VOICE_RANGES.pitch), 0),
  volume_gain: v.optional(ranged(PROVIDER_RANGES.volume_gain), 0),
  speaking_rate: v.optional(ranged(VOICE_RANGES.rate), 1),
})
export const MinimaxVoiceSettings = v.object({
  pitch: v.optional(ranged(VOICE_RANGES.pitch), 0),
  speed: v.optional(ranged(VOICE_RANGES.tempo), 1),
  volume: v.optional(ranged(PROVIDER_RANGES.volume), 1),
})
export const ElevenlabsVoiceSettings = v.object({
  stability: v.optional(ranged(PROVIDER_RANGES.unit), 0.5),
  similarity_boost: v.optional(ranged(PROVIDER_RANGES.unit), 0.75),
  use_speaker_boost: v.optional(v.boolean('validation.boolean'), true),
})
/** The browser's Web Speech API: rate and pitch of SpeechSynthesisUtterance (pitch mapped from the seed's −8–8). */
export const BrowserVoiceSettings = v.object({
  pitch: v.optional(ranged(VOICE_RANGES.pitch), 0),
  rate: v.optional(ranged(VOICE_RANGES.rate), 1),
})

const code = v.pipe(v.string('validation.required'), v.trim(), v.maxLength(120, 'validation.max_length'))
const language = v.pipe(v.string('validation.required'), v.trim(), v.regex(/^[a-z]{2,3}(-[A-Z][a-zA-Z]{1,3})?$/, 'validation.language'))

/** A persona's or assistant's voice: provider, voice code, language, index in the provider's default list, settings, custom flag. */
export const Voice = v.variant('provider', [
  v.object({
    provider: v.literal('minimax'),
    code,
    language,
    voice_index: v.optional(ranged(VOICE_RANGES.voice_index), 0),
    custom: v.optional(v.boolean(), false),
    settings: v.optional(MinimaxVoiceSettings, {}),
  }),
  v.object({
    provider: v.literal('google'),
    code,
    language,
    voice_index: v.optional(ranged(VOICE_RANGES.voice_index), 0),
    custom: v.optional(v.boolean(), false),
    settings: v.optional(GoogleVoiceSettings, {}),
  }),
  v.object({
    provider: v.literal('elevenlabs'),
    code,
    language,
    voice_index: v.optional(ranged(VOICE_RANGES.voice_index), 0),
    custom: v.optional(v.boolean(), false),
    settings: v.optional(ElevenlabsVoiceSettings, {}),
  }),
  v.object({
    provider: v.literal('browser'),
    code,
    language,
    voice_index: v.optional(ranged(VOICE_RANGES.voice_index), 0),
    custom: v.optional(v.boolean(), false),
    settings: v.optional(BrowserVoiceSettings, {}),
  }),
])
export type Voice = v.InferOutput<typeof Voice>

/** Custom voice uploads (seed 002 §5, §9): these types and extensions only. */
export const VOICE_FILE_TYPES = ['audio/wav', 'audio/ogg', 'audio/mpeg'] as const
export const VOICE_FILE_EXTENSIONS = ['.mp3', '.wav', '.ogg'] as const

/** A source passage a generated text or a persona answer came from (docs ai.md "grounded and traceable"). */
export interface SourceRef {
  /** The chunk's id (stable across reads; the transcript records it). */
  id: string
  /** What the chunk belongs to, e.g. a knowledge item id. */
  source: string
  /** A human title of the source (file name, URL, lesson name). */
  title: string
  /** The quoted words, exactly as in the chunk. */
  quote: string
  score: number
}

/** What the console may know about a realm's AI (never a secret): providers in use, which keys are set, the cap and this month's use. */
export interface AiStatus {
  text_provider: TextProvider
  /** The text provider actually answering: `local` when the chosen one is not configured. */
  text_engine: TextProvider
  /** Why the chosen provider is not used, when it is not (e.g. `ai_not_configured`). */
  text_problem: string | null
  model: string
  speech: Record<Exclude<VoiceProvider, 'browser'>, boolean>
  animation: Record<Exclude<AnimationProvider, 'browser'>, boolean>
  voice_clone: Record<(typeof VOICE_CLONE_PROVIDERS)[number], boolean>
  /** The vision provider chosen, the one that answers (`none` when the chosen one is not configured) and why not. */
  vision: { provider: VisionProvider; engine: VisionProvider; problem: string | null; model: string }
  /** Credits per month (-1: no cap), those used this month, and the month (YYYY-MM, in the realm's time zone). */
  cap: number
  used: number
  month: string
  /** Prices of the paid operations in this realm's price list (points; null when not priced). */
  prices: Record<'animation' | 'voice_clone' | 'answer_revision', number | null>
}

/** Body of a paid AI operation: the price the user confirmed and the idempotency key of this attempt. */
export const PaidConfirmation = v.object({
  confirm_points: v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(0, 'validation.min_value')),
  idempotency_key: v.pipe(v.string('validation.required'), v.trim(), v.minLength(8, 'validation.min_length'), v.maxLength(128, 'validation.max_length')),
})

/** The realm's AI secrets (write-only: answered masked; `''` or the mask leaves one unchanged, `null` clears it). */
export const AI_SECRET_FIELDS = ['minimax_api_key', 'google_api_key', 'elevenlabs_api_key', 'did_api_key', 'languagetool_api_key'] as const
const secret = v.nullable(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(500, 'validation.max_length')))

/** PUT /api/ai/settings: any subset of the realm's AI settings (the OpenAI-compatible endpoint, model and key are realm fields). */
export const AiSettingsUpdate = v.strictObject({
  text_provider: v.optional(v.picklist(TEXT_PROVIDERS, 'validation.picklist')),
  monthly_credit_cap: v.optional(
    v.pipe(
      v.number('validation.number'),
      v.integer('validation.integer'),
      v.minValue(-1, 'validation.min_value'),
      v.maxValue(1_000_000_000, 'validation.max_value'),
    ),
  ),
  minimax_group_id: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(100, 'validation.max_length'))),
  vision_provider: v.optional(v.picklist(VISION_PROVIDERS, 'validation.picklist')),
  /** The vision model; `''` uses the agent model (openai) or the default Workers AI vision model. */
  vision_model: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(200, 'validation.max_length'))),
  minimax_api_key: v.optional(secret),
  google_api_key: v.optional(secret),
  elevenlabs_api_key: v.optional(secret),
  did_api_key: v.optional(secret),
  /** The essay checker (issue 17): a LanguageTool-compatible server (`''`: the local checker) and its premium user and key. */
  languagetool_url: v.optional(UrlWithDefaultScheme),
  languagetool_username: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(200, 'validation.max_length'))),
  languagetool_api_key: v.optional(secret),
  /** Online Checks a student may run per essay of an answer (0: the Online Check is off). */
  essay_check_limit: v.optional(
    v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(0, 'validation.min_value'), v.maxValue(100, 'validation.max_value')),
  ),
})
export type AiSettingsUpdate = v.InferInput<typeof AiSettingsUpdate>

/** The realm's AI settings as answered (secrets masked). */
export interface AiSettingsView {
  text_provider: TextProvider
  monthly_credit_cap: number
  minimax_group_id: string
  vision_provider: VisionProvider
  vision_model: string
  minimax_api_key: string
  google_api_key: string
  elevenlabs_api_key: string
  did_api_key: string
  languagetool_url: string
  languagetool_username: string
  languagetool_api_key: string
  essay_check_limit: number
  updated_at: string | null
  updated_by: string | null
}

/** POST /api/ai/speech: a voice sample (the editor's playback) — the words and the voice. */
export const SpeechRequest = v.object({
  text: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(2000, 'validation.max_length')),
  voice: Voice,
})

/**
 * The server's check of a persona image (issue 16): `checked` (a face found, no celebrity recognised) by `provider`,
 * or `not_run` with why (`not_configured`: no vision provider; `provider_failed`, `ai_failed`: the provider errored
 * or answered no valid JSON twice; `cap_reached`: the realm's monthly AI credits; `binding_missing`: Workers AI
 * chosen without the binding; `before_check`: an image saved before the check existed). Refusals (`no_face`,
 * `celebrity`) are never saved on a persona: they are the API's error causes.
 */
export const IMAGE_CHECK_REASONS = ['not_configured', 'provider_failed', 'ai_failed', 'cap_reached', 'binding_missing', 'before_check'] as const
export type ImageCheckReason = (typeof IMAGE_CHECK_REASONS)[number]
export type ImageCheck =
  | { status: 'checked'; provider: Exclude<VisionProvider, 'none'>; model: string; faces: number; at: string }
  | { status: 'not_run'; provider: VisionProvider; reason: ImageCheckReason; at: string | null }

/** POST /personai/persona/image-check: an uploaded image of the realm to check before it is saved as a persona's. */
export const ImageCheckRequest = v.object({
  image_file_id: v.pipe(v.string('validation.required'), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'validation.id')),
})
