import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { LOCALES } from '~/i18n/config'
import { browserProsody, microphoneErrorKey, pickBrowserVoice, recognitionErrorKey } from '~/lib/speech'

describe('the browser speech adapter', () => {
  it('maps every microphone error of seed 002 §8 to its message', () => {
    expect(microphoneErrorKey(new DOMException('x', 'NotFoundError'))).toBe('speech.error.microphone_not_found')
    expect(microphoneErrorKey(new DOMException('x', 'NotReadableError'))).toBe('speech.error.microphone_not_readable')
    expect(microphoneErrorKey(new DOMException('x', 'NotAllowedError'))).toBe('speech.error.microphone_permission_denied')
    expect(microphoneErrorKey(new Error('boom'))).toBe('speech.error.microphone_unexpected')
    expect(microphoneErrorKey(null)).toBe('speech.error.microphone_unexpected')
  })

  it('maps every speech-recognition error of seed 002 §8 to its message', () => {
    const codes = {
      'no-speech': 'no_speech',
      aborted: 'aborted',
      'audio-capture': 'audio_capture',
      network: 'network',
      'not-allowed': 'not_allowed',
      'bad-grammar': 'unexpected',
    }
    for (const [code, key] of Object.entries(codes)) expect(recognitionErrorKey(code)).toBe(`speech.error.${key}`)
  })

  it.each(LOCALES)('%s: has every speech message', (locale) => {
    const keys = [
      ...['NotFoundError', 'NotReadableError', 'NotAllowedError', 'Other'].map((n) => microphoneErrorKey({ name: n })),
      ...['no-speech', 'aborted', 'audio-capture', 'network', 'not-allowed', 'other'].map(recognitionErrorKey),
    ]
    expect(keys.filter((k) => !catalogues[locale][k])).toEqual([])
  })

  it('maps the seed’s pitch and rate ranges onto the browser’s', () => {
    expect(browserProsody(null)).toEqual({ rate: 1, pitch: 1 })
    expect(browserProsody({ provider: 'minimax', settings: { pitch: 8, speed: 4, volume: 1 } })).toEqual({ rate: 4, pitch: 2 })
    expect(browserProsody({ provider: 'google', settings: { pitch: -8, speaking_rate: 0.05, volume_gain: 0 } })).toEqual({ rate: 0.1, pitch: 0 })
  })

  it('picks a voice by name, then by language tag, then by language', () => {
    const voices = [
      { name: 'Luciana', voiceURI: 'Luciana', lang: 'pt-BR' },
      { name: 'Samantha', voiceURI: 'Samantha', lang: 'en-US' },
      { name: 'Jorge', voiceURI: 'Jorge', lang: 'es-ES' },
    ] as SpeechSynthesisVoice[]
    expect(pickBrowserVoice(voices, 'pt-BR', 'Samantha')?.name).toBe('Samantha')
    expect(pickBrowserVoice(voices, 'pt-BR')?.name).toBe('Luciana')
    expect(pickBrowserVoice(voices, 'es-MX')?.name).toBe('Jorge')
    expect(pickBrowserVoice(voices, 'fr-FR')).toBeNull()
  })
})
