import * as v from 'valibot'
import { ANIMATION_KINDS, ANIMATION_PROVIDERS, DEFAULT_ANIMATION_PROVIDER, Voice, type AnimationKind, type AnimationProvider } from './ai'
import { defineEntity } from './entity'
import { Id } from './tms/common'

/**
 * Assistants (seed 002 §3 "Assistant", §4; issue 16 "Assistants"): an image, a voice (female by default), animations
 * and the standard flag, built on a persona chosen at creation that cannot change afterwards (§4 "Selecting a
 * persona for an assistant … cannot be changed later"). The defaults the console offers — voices, avatars and
 * helpers — are the lists below, answered by `GET /personai/assistant/defaults`.
 */

export type VoiceGender = 'female' | 'male'

/** A voice the console offers for an assistant: a provider's built-in voice with its gender and language. */
export interface DefaultVoice {
  id: string
  label: string
  gender: VoiceGender
  voice: Voice
}

const voice = (id: string, label: string, gender: VoiceGender, voiceOf: Pick<Voice, 'provider' | 'code' | 'language'>): DefaultVoice => ({
  id,
  label,
  gender,
  // Parsed: the provider's settings with their defaults, as the API stores them.
  voice: v.parse(Voice, { ...voiceOf, settings: {} }),
})

/**
 * The default voices (decision: the providers' documented built-in voices — MiniMax system voices, Google Neural2
 * voices of the three console languages, ElevenLabs premade voices — plus the browser's own for each language).
 * The first is the assistants' default: female, on the default provider minimax (seed 000 §9).
 */
export const DEFAULT_VOICES: readonly DefaultVoice[] = [
  voice('minimax-presenter-female', 'MiniMax · Presenter (female)', 'female', { provider: 'minimax', code: 'presenter_female', language: 'pt-BR' }),
  voice('minimax-presenter-male', 'MiniMax · Presenter (male)', 'male', { provider: 'minimax', code: 'presenter_male', language: 'pt-BR' }),
  voice('google-pt-br-female', 'Google · pt-BR Neural2-A (female)', 'female', { provider: 'google', code: 'pt-BR-Neural2-A', language: 'pt-BR' }),
  voice('google-pt-br-male', 'Google · pt-BR Neural2-B (male)', 'male', { provider: 'google', code: 'pt-BR-Neural2-B', language: 'pt-BR' }),
  voice('google-en-us-female', 'Google · en-US Neural2-F (female)', 'female', { provider: 'google', code: 'en-US-Neural2-F', language: 'en-US' }),
  voice('google-es-es-female', 'Google · es-ES Neural2-A (female)', 'female', { provider: 'google', code: 'es-ES-Neural2-A', language: 'es-ES' }),
  voice('elevenlabs-rachel', 'ElevenLabs · Rachel (female)', 'female', { provider: 'elevenlabs', code: '21m00Tcm4TlvDq8ikWAM', language: 'en-US' }),
  voice('elevenlabs-adam', 'ElevenLabs · Adam (male)', 'male', { provider: 'elevenlabs', code: 'pNInz6obpgDQGcFAsgB3', language: 'en-US' }),
  voice('browser-pt-br', 'Browser · pt-BR', 'female', { provider: 'browser', code: '', language: 'pt-BR' }),
]

/** The assistants' default voice (seed 002 §3: "Default assistant audio voice is female"). */
export const DEFAULT_ASSISTANT_VOICE: Voice = DEFAULT_VOICES[0].voice

/** The built-in avatars (images shipped with the console under /personai/avatars/). */
export const DEFAULT_AVATARS = ['ana', 'bia', 'caio', 'davi'] as const
export type DefaultAvatar = (typeof DEFAULT_AVATARS)[number]
export const avatarUrl = (avatar: DefaultAvatar) => `/personai/avatars/${avatar}.svg`

/**
 * The helpers (decision: the seed names them without saying what they are): the roles an assistant plays for the
 * people it helps — tutor, support, guide — each suggesting an avatar and a voice when an assistant is created.
 */
export const HELPERS = [
  { id: 'tutor', avatar: 'ana', voice: 'minimax-presenter-female' },
  { id: 'support', avatar: 'caio', voice: 'minimax-presenter-male' },
  { id: 'guide', avatar: 'bia', voice: 'google-pt-br-female' },
] as const satisfies readonly { id: string; avatar: DefaultAvatar; voice: string }[]
export type HelperId = (typeof HELPERS)[number]['id']
export const HELPER_IDS = HELPERS.map((h) => h.id) as [HelperId, ...HelperId[]]

/** GET /personai/assistant/defaults. */
export interface AssistantDefaults {
  voices: DefaultVoice[]
  default_voice: string
  avatars: { id: DefaultAvatar; url: string }[]
  helpers: { id: HelperId; avatar: DefaultAvatar; voice: string }[]
}

const required = (max: number) =>
  v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(max, 'validation.max_length'))
const animationUrl = v.optional(
  v.union(
    [
      v.literal(''),
      v.pipe(
        v.string('validation.url'),
        v.trim(),
        v.maxLength(2000, 'validation.max_length'),
        v.url('validation.url'),
        v.regex(/^https:\/\//i, 'validation.url'),
      ),
    ],
    'validation.url',
  ),
  '',
)

/** The assistant's animations (seed 002 §3: idle, talk, enter, leave, video application; provider did by default). */
export const AssistantAnimations = v.object({
  provider: v.optional(v.picklist(ANIMATION_PROVIDERS, 'validation.picklist'), DEFAULT_ANIMATION_PROVIDER),
  ...(Object.fromEntries(ANIMATION_KINDS.map((k) => [k, animationUrl])) as Record<AnimationKind, typeof animationUrl>),
})
export type AssistantAnimations = v.InferOutput<typeof AssistantAnimations>

const fields = {
  name: required(120),
  /** An uploaded image of the realm; `''` none (the avatar, if any, is shown). */
  image_file_id: v.optional(v.union([v.literal(''), Id], 'validation.id'), ''),
  avatar: v.optional(v.union([v.literal(''), v.picklist(DEFAULT_AVATARS)], 'validation.picklist'), ''),
  helper: v.optional(v.union([v.literal(''), v.picklist(HELPER_IDS)], 'validation.picklist'), ''),
  voice: v.optional(Voice, DEFAULT_ASSISTANT_VOICE),
  animations: v.optional(AssistantAnimations, {}),
  standard: v.optional(v.boolean('validation.boolean'), false),
}

/** POST /personai/assistant: the persona is chosen here, once. */
export const AssistantCreate = v.object({ ...fields, persona_id: Id })
export type AssistantCreate = v.InferOutput<typeof AssistantCreate>
/**
 * PUT /personai/assistant/{id}: every field but the persona. A `persona_id` may be sent back as it is (a form posting
 * the whole record); another one is refused (409 persona_locked).
 */
export const AssistantUpdate = v.object({ ...fields, persona_id: v.optional(Id) })
export type AssistantUpdate = v.InferOutput<typeof AssistantUpdate>

export type Assistant = {
  id: string
  realm: string
  name: string
  persona_id: string
  /** The persona's name (list and get answers). */
  persona_name: string | null
  image_file_id: string
  image_url: string
  avatar: DefaultAvatar | ''
  helper: HelperId | ''
  voice: Voice
  animations: AssistantAnimations & { provider: AnimationProvider }
  standard: boolean
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

export const assistantEntity = defineEntity<Omit<Assistant, 'persona_name'>>({
  name: 'assistant',
  table: 'assistant',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    persona_id: { type: 'text', list: true, filter: 'eq' },
    image_file_id: { type: 'text' },
    image_url: { type: 'text', list: true },
    avatar: { type: 'text', list: true },
    helper: { type: 'text', list: true, filter: 'eq' },
    voice: { type: 'json' },
    animations: { type: 'json' },
    standard: { type: 'bool', list: true, filter: 'eq' },
    created_at: { type: 'text', sort: true, list: true },
    created_by: { type: 'text' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: 'name',
})
