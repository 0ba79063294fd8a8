import { AssistantCreate, AssistantUpdate, DEFAULT_VOICES, type Assistant } from '#shared/schemas/assistant'
import { ANIMATION_KINDS } from '#shared/schemas/ai'

/** An assistant as the screens get it (the list's and get's `persona_name` when the API adds it). */
export type AssistantRow = Omit<Assistant, 'persona_name'> & { persona_name?: string | null }

/** The form's schema: the API's own create or update body. */
export const assistantSchema = (mode: 'create' | 'edit') => (mode === 'create' ? AssistantCreate : AssistantUpdate)

/** The voice choice that keeps an assistant's current voice (one that is none of the defaults). */
export const CURRENT_VOICE = 'current'

/**
 * The form's values → the API's body (browser and action): the voice chosen among the defaults (or the current one,
 * posted as JSON), the standard box unchecked as false, no persona on edit (it cannot change).
 */
export const prepareAssistant = (mode: 'create' | 'edit') => (values: Record<string, unknown>) => {
  const { voice_choice, voice_json, ...rest } = values
  let voice: unknown = DEFAULT_VOICES.find((x) => x.id === voice_choice)?.voice
  if (voice_choice === CURRENT_VOICE && typeof voice_json === 'string') {
    try {
      voice = JSON.parse(voice_json)
    } catch {
      voice = voice_json
    }
  }
  const out: Record<string, unknown> = { ...rest, voice, standard: values.standard === true || values.standard === 'on' }
  out.image_file_id = typeof values.image_file_id === 'string' ? values.image_file_id : ''
  if (mode === 'edit') delete out.persona_id
  return out
}

/** The id of the default voice an assistant's voice is, or CURRENT_VOICE. */
export function voiceChoice(voice: Assistant['voice'] | null): string {
  if (!voice) return DEFAULT_VOICES[0].id
  const same = DEFAULT_VOICES.find((x) => JSON.stringify(x.voice) === JSON.stringify(voice))
  return same?.id ?? CURRENT_VOICE
}

/** The form's starting values. */
export function assistantStart(a: AssistantRow | null, persona: string): Record<string, unknown> {
  if (!a)
    return {
      persona_id: persona,
      voice_choice: DEFAULT_VOICES[0].id,
      animations: { provider: 'did', ...Object.fromEntries(ANIMATION_KINDS.map((k) => [k, ''])) },
      image_file_id: '',
    }
  return { ...a, voice_choice: voiceChoice(a.voice), voice_json: JSON.stringify(a.voice) }
}
