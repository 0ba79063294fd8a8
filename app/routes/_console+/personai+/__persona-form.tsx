import { useField } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckboxInput, KitForm, NumberInput, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { FileUpload } from '~/components/ui/file-upload'
import { PersonaImage } from './__persona-photo'
import { Icon } from '~/components/ui/icon'
import { speak } from '~/lib/speech'
import { PROVIDER_RANGES, VOICE_FILE_EXTENSIONS, VOICE_PROVIDERS, VOICE_RANGES, type Range, type Voice } from '#shared/schemas/ai'
import { PERSONA_LANGUAGES, speechTypeOf, type Persona } from '#shared/schemas/persona'
import { VOICE_SETTINGS, personaSchema, personaStart, preparePersona } from './__persona'
import { VoiceClone } from '~/components/persona-media/voice-clone'

/** The range of each voice setting (seed 000 §5/§9 and the providers' documented ranges; README "Speech"). */
const SETTING_RANGES: Record<string, Range> = {
  pitch: VOICE_RANGES.pitch,
  speed: VOICE_RANGES.tempo,
  rate: VOICE_RANGES.rate,
  speaking_rate: VOICE_RANGES.rate,
  volume: PROVIDER_RANGES.volume,
  volume_gain: PROVIDER_RANGES.volume_gain,
  stability: PROVIDER_RANGES.unit,
  similarity_boost: PROVIDER_RANGES.unit,
}

const isTrue = (x: unknown) => x === true || x === 'on' || x === 'true'

/**
 * The persona's identification, voice and messages (seed 002 §2 editor steps; one whole-persona save): the speech
 * type derived from the flags is shown as they change; the voice has its provider's settings with the seed's ranges
 * and a sample spoken by the browser.
 */
export function PersonaForm({
  persona,
  lastResult,
  timeZone,
  voiceCloneReady,
}: {
  persona: Persona | null
  lastResult: unknown
  timeZone: string
  /** Whether the realm has a voice-cloning provider's key (ElevenLabs). */
  voiceCloneReady: boolean
}) {
  const { t, i18n } = useTranslation()
  const languages = PERSONA_LANGUAGES.map((l) => ({ value: l, label: t(`persona.editor.language.${l}`) }))
  return (
    <KitForm
      id="persona-form"
      schema={personaSchema}
      prepare={preparePersona}
      lastResult={lastResult}
      defaultValue={personaStart(persona, i18n.language)}
      timeZone={timeZone}
      protect
      className="persona-form"
      aria-label={t(persona ? 'pages.persona.edit' : 'pages.persona.create')}
      labels={{
        name: t('resources.persona.fields.name'),
        bio: t('resources.persona.fields.bio'),
        tags: t('resources.persona.fields.tags'),
        image_file_id: t('resources.persona.fields.image'),
        'voice.code': t('persona.editor.voice.code'),
        'voice.language': t('resources.persona.fields.language'),
        'voice.voice_index': t('persona.editor.voice.voice_index'),
        ...Object.fromEntries(Object.keys(SETTING_RANGES).map((k) => [`voice.settings.${k}`, t(`persona.editor.voice.settings.${k}`)])),
      }}
    >
      <section className="card" id="persona-identification" aria-labelledby="persona-identification-title">
        <h2 id="persona-identification-title">{t('persona.editor.step.identification')}</h2>
        <TextInput name="name" label={t('resources.persona.fields.name')} required />
        <TextArea name="bio" label={t('resources.persona.fields.bio')} rows={3} />
        <TextInput name="tags" label={t('resources.persona.fields.tags')} hint={t('persona.editor.hint.tags')} />
        <PersonaImage url={persona?.image_url ?? ''} fileId={persona?.image_file_id ?? ''} check={persona?.image_check} />
        <SelectInput name="language" label={t('resources.persona.fields.language')} options={languages} />
        <div className="switch-grid">
          <CheckboxInput name="is_public" label={t('resources.persona.fields.is_public')} />
          <CheckboxInput name="fluid_conversation" label={t('resources.persona.fields.fluid_conversation')} />
          <CheckboxInput name="synchronized_speech" label={t('resources.persona.fields.synchronized_speech')} />
          <CheckboxInput name="humanized" label={t('resources.persona.fields.humanized')} />
        </div>
        <SpeechTypeNote />
      </section>

      <section className="card" id="persona-voice" aria-labelledby="persona-voice-title">
        <h2 id="persona-voice-title">{t('persona.editor.step.voice')}</h2>
        <VoiceFields voiceCloneReady={voiceCloneReady} />
      </section>

      <section className="card" id="persona-messages" aria-labelledby="persona-messages-title">
        <h2 id="persona-messages-title">{t('persona.editor.step.messages')}</h2>
        <TextArea name="messages.greeting" label={t('resources.persona.fields.greeting')} rows={2} />
        <TextArea name="messages.unknown_answer" label={t('resources.persona.fields.unknown_answer')} rows={2} />
        <TextArea name="messages.call_helper" label={t('resources.persona.fields.call_helper')} rows={2} />
      </section>
    </KitForm>
  )
}

/** The speech type the flags give (seed 002 §3), updated as they change. */
export function SpeechTypeNote() {
  const { t } = useTranslation()
  const [sync] = useField<string>('synchronized_speech')
  const [human] = useField<string>('humanized')
  const type = speechTypeOf({ synchronized_speech: isTrue(sync.value), humanized: isTrue(human.value) })
  return (
    <p className="hint" data-testid="speech-type" aria-live="polite">
      {t('resources.persona.fields.speech_type')}: <strong>{t(`persona.speech_type.${type}`)}</strong> — {t(`persona.editor.speech_hint.${type}`)}
    </p>
  )
}

/** Provider, code, language, index and the provider's settings; a sample; the custom voice upload. */
function VoiceFields({ voiceCloneReady }: { voiceCloneReady: boolean }) {
  const { t, i18n } = useTranslation()
  const [provider] = useField<string>('voice.provider')
  const chosen = (VOICE_PROVIDERS as readonly string[]).includes(provider.value ?? '') ? (provider.value as Voice['provider']) : null
  const fmt = (x: number) => x.toLocaleString(i18n.language, { maximumFractionDigits: 2 })
  const hint = (r: Range) => t('persona.editor.voice.range', { min: fmt(r.min), max: fmt(r.max), step: fmt(r.step) })
  return (
    <>
      <SelectInput
        name="voice.provider"
        label={t('persona.editor.voice.provider')}
        placeholder={t('persona.editor.voice.none')}
        options={VOICE_PROVIDERS.map((p) => ({ value: p, label: t(`persona.editor.voice.providers.${p}`) }))}
      />
      {chosen ? (
        <>
          <div className="field-grid">
            <TextInput name="voice.code" label={t('persona.editor.voice.code')} hint={t('persona.editor.voice.code_hint')} />
            <TextInput name="voice.language" label={t('resources.persona.fields.language')} hint={t('persona.editor.voice.language_hint')} />
            <NumberInput name="voice.voice_index" label={t('persona.editor.voice.voice_index')} decimal={false} hint={hint(VOICE_RANGES.voice_index)} />
          </div>
          <div className="field-grid">
            {VOICE_SETTINGS[chosen].map((key) =>
              key === 'use_speaker_boost' ? (
                <CheckboxInput key={key} name={`voice.settings.${key}`} label={t(`persona.editor.voice.settings.${key}`)} />
              ) : (
                <NumberInput key={key} name={`voice.settings.${key}`} label={t(`persona.editor.voice.settings.${key}`)} hint={hint(SETTING_RANGES[key])} />
              ),
            )}
          </div>
          <VoiceSample />
          <CustomVoice ready={voiceCloneReady} />
          <VoiceClone />
        </>
      ) : (
        <p className="hint">{t('persona.editor.voice.none_hint')}</p>
      )}
    </>
  )
}

/** Plays a sample sentence with the browser's speech synthesis, using the form's current voice settings. */
function VoiceSample() {
  const { t } = useTranslation()
  const [playing, setPlaying] = useState(false)
  return (
    <div className="field">
      <button
        type="button"
        className="btn"
        disabled={playing}
        onClick={(e) => {
          const form = e.currentTarget.form
          if (!form) return
          const values = preparePersona(readVoice(new FormData(form)))
          const voice = values.voice as Voice | null
          setPlaying(true)
          void speak(t('persona.editor.voice.sample_text'), { language: voice?.language ?? 'pt-BR', voice }).finally(() => setPlaying(false))
        }}
      >
        <Icon name="send" /> {t(playing ? 'persona.editor.voice.playing' : 'persona.editor.voice.sample')}
      </button>
      <p className="hint">{t('persona.editor.voice.sample_hint')}</p>
    </div>
  )
}

/** The voice fields of the form's data as the kit reads them (`voice.settings.pitch` → nested). */
function readVoice(data: FormData): Record<string, unknown> {
  const voice: Record<string, unknown> = { settings: {} }
  for (const [name, value] of data.entries()) {
    if (typeof value !== 'string' || !name.startsWith('voice.')) continue
    const path = name.slice('voice.'.length)
    if (path.startsWith('settings.')) (voice.settings as Record<string, unknown>)[path.slice('settings.'.length)] = value
    else voice[path] = value
  }
  return { voice }
}

/**
 * A custom voice (seed 002 §5: audio/wav, audio/ogg, audio/mpeg; .mp3 .wav .ogg): the recording is uploaded and
 * can be listened to; cloning it needs a provider configured in the realm, which the screen says when there is none.
 */
function CustomVoice({ ready }: { ready: boolean }) {
  const { t } = useTranslation()
  const [sample, setSample] = useState<string | null>(null)
  return (
    <fieldset className="fieldset">
      <legend>{t('persona.editor.voice.custom')}</legend>
      <FileUpload
        label={t('persona.editor.voice.custom_upload')}
        options={{ accept: VOICE_FILE_EXTENSIONS.map((e) => e.slice(1)) }}
        hint={t('persona.editor.voice.custom_hint')}
        onUploaded={(file) => setSample(file.cdn_full_url)}
      />
      {sample ? (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- a voice recording to clone: the speaker's own sample has no caption file
        <audio controls src={sample} aria-label={t('persona.editor.voice.custom_sample')} />
      ) : null}
      <p className="hint" role="note">
        {t(ready ? 'persona.editor.voice.clone_pending' : 'persona.editor.voice.clone_needs_provider')}
      </p>
    </fieldset>
  )
}
