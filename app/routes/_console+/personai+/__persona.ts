import { readNumber } from '~/lib/form-kit'
import { DEFAULT_VOICE_PROVIDER, VOICE_PROVIDERS, type VoiceProvider } from '#shared/schemas/ai'
import { PersonaUpdate, type Persona } from '#shared/schemas/persona'

/** The persona form's schema: the API's own whole-persona body (identification, voice, messages). */
export const personaSchema = PersonaUpdate

/** The settings each voice provider has (seed 002 §3 "Voice"), in the order the form shows them. */
export const VOICE_SETTINGS: Record<VoiceProvider, readonly string[]> = {
  minimax: ['pitch', 'speed', 'volume'],
  google: ['pitch', 'volume_gain', 'speaking_rate'],
  elevenlabs: ['stability', 'similarity_boost', 'use_speaker_boost'],
  browser: ['pitch', 'rate'],
}
/** The one boolean setting (a checkbox: unchecked posts nothing). */
const BOOLEAN_SETTINGS = new Set(['use_speaker_boost'])

const isProvider = (x: unknown): x is VoiceProvider => typeof x === 'string' && (VOICE_PROVIDERS as readonly string[]).includes(x)

/**
 * The form's values → the API's body, in the browser (live) and in the action: tags typed in one box, separated by
 * commas; the voice (a variant the kit cannot coerce) with its numbers read in the page's language, only the
 * chosen provider's settings kept, unchecked boxes false; no provider chosen is no voice.
 */
export function preparePersona(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values }
  out.tags =
    typeof values.tags === 'string'
      ? values.tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : (values.tags ?? [])
  for (const f of ['is_public', 'fluid_conversation', 'synchronized_speech', 'humanized']) out[f] = values[f] === true || values[f] === 'on'
  out.image_file_id = typeof values.image_file_id === 'string' ? values.image_file_id : ''
  out.voice = voiceBody(values.voice)
  return out
}

function voiceBody(raw: unknown): Record<string, unknown> | null {
  const voice = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  if (!isProvider(voice.provider)) return null
  const given = (voice.settings && typeof voice.settings === 'object' ? voice.settings : {}) as Record<string, unknown>
  const settings: Record<string, unknown> = {}
  for (const key of VOICE_SETTINGS[voice.provider]) {
    const value = given[key]
    if (BOOLEAN_SETTINGS.has(key)) settings[key] = value === true || value === 'on'
    else if (typeof value === 'string' && value.trim() !== '') settings[key] = readNumber(value)
    else if (typeof value === 'number') settings[key] = value
  }
  const index = voice.voice_index
  return {
    provider: voice.provider,
    code: typeof voice.code === 'string' ? voice.code : '',
    language: typeof voice.language === 'string' && voice.language ? voice.language : 'pt-BR',
    voice_index: typeof index === 'string' && index.trim() !== '' ? readNumber(index) : typeof index === 'number' ? index : 0,
    custom: voice.custom === true || voice.custom === 'on',
    settings,
  }
}

/** The form's starting values: a persona as the API answers it (tags in one box), or a new one's defaults. */
export function personaStart(p: Persona | null, locale: string): Record<string, unknown> {
  const shown = (x: unknown) => (typeof x === 'number' ? x.toLocaleString(locale, { maximumFractionDigits: 4, useGrouping: false }) : x)
  if (!p)
    return {
      language: 'pt-BR',
      tags: '',
      image_file_id: '',
      voice: { provider: DEFAULT_VOICE_PROVIDER, code: '', language: 'pt-BR', voice_index: '0', settings: {} },
      messages: { greeting: '', unknown_answer: '', call_helper: '' },
    }
  const voice = p.voice
    ? {
        ...p.voice,
        voice_index: shown(p.voice.voice_index),
        settings: Object.fromEntries(Object.entries(p.voice.settings ?? {}).map(([k, x]) => [k, shown(x)])),
      }
    : { provider: '', code: '', language: p.language, voice_index: '0', settings: {} }
  return { ...p, tags: p.tags.join(', '), voice }
}
