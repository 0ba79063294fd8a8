import type { Voice } from '#shared/schemas/ai'

/**
 * The local speech adapter (docs ai.md "speech: local = browser Web Speech"): the browser speaks with
 * `speechSynthesis` and listens with `SpeechRecognition`. Every microphone and speech-recognition error of seed 002
 * §8 maps to its message key here, so the chat and the editor show the same words.
 */

/** Seed 002 §8 microphone errors, from the DOMException `getUserMedia` rejects with. */
export function microphoneErrorKey(err: unknown): string {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : ''
  switch (name) {
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'speech.error.microphone_not_found'
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'speech.error.microphone_not_readable'
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'speech.error.microphone_permission_denied'
    default:
      return 'speech.error.microphone_unexpected'
  }
}

/** Seed 002 §8 speech-recognition errors, from `SpeechRecognitionErrorEvent.error`. */
export function recognitionErrorKey(code: string): string {
  switch (code) {
    case 'no-speech':
      return 'speech.error.no_speech'
    case 'aborted':
      return 'speech.error.aborted'
    case 'audio-capture':
      return 'speech.error.audio_capture'
    case 'network':
      return 'speech.error.network'
    case 'not-allowed':
    case 'service-not-allowed':
      return 'speech.error.not_allowed'
    default:
      return 'speech.error.unexpected'
  }
}

/**
 * SpeechSynthesisUtterance's rate and pitch from a voice's settings: the seed's pitch (−8 to 8) maps onto the
 * browser's 0–2 (0 → 1), rates and speeds (0.05–4) are clamped to the browser's 0.1–10.
 */
export function browserProsody(voice: Pick<Voice, 'provider' | 'settings'> | null): { rate: number; pitch: number } {
  const s = (voice?.settings ?? {}) as Record<string, number | boolean | undefined>
  const rate = Number(s.rate ?? s.speaking_rate ?? s.speed ?? 1)
  const pitch = Number(s.pitch ?? 0)
  return { rate: Math.min(10, Math.max(0.1, rate)), pitch: Math.min(2, Math.max(0, 1 + pitch / 8)) }
}

/** The browser voice closest to a language (exact tag, then same language), or null for the browser's default. */
export function pickBrowserVoice(voices: readonly SpeechSynthesisVoice[], language: string, code?: string): SpeechSynthesisVoice | null {
  if (code) {
    const named = voices.find((v) => v.name === code || v.voiceURI === code)
    if (named) return named
  }
  const lang = language.toLowerCase()
  return voices.find((v) => v.lang.toLowerCase() === lang) ?? voices.find((v) => v.lang.toLowerCase().slice(0, 2) === lang.slice(0, 2)) ?? null
}

/** Speaks `text` with the browser (resolves when it ends; `onBoundary` marks words for the talking animation). */
export function speak(text: string, o: { language: string; voice: Voice | null; onBoundary?: () => void }): Promise<void> {
  const synth = typeof window !== 'undefined' ? window.speechSynthesis : undefined
  if (!synth || typeof SpeechSynthesisUtterance === 'undefined') return Promise.resolve()
  return new Promise((resolve) => {
    const u = new SpeechSynthesisUtterance(text)
    u.lang = o.language
    const chosen = pickBrowserVoice(synth.getVoices(), o.language, o.voice?.provider === 'browser' ? o.voice.code : undefined)
    if (chosen) u.voice = chosen
    const { rate, pitch } = browserProsody(o.voice)
    u.rate = rate
    u.pitch = pitch
    u.onboundary = () => o.onBoundary?.()
    u.onend = () => resolve()
    u.onerror = () => resolve()
    synth.speak(u)
  })
}

/** True when the browser can recognise speech. */
export function canRecognise(): boolean {
  if (typeof window === 'undefined') return false
  const w = window as unknown as Record<string, unknown>
  return Boolean(w.SpeechRecognition ?? w.webkitSpeechRecognition)
}
