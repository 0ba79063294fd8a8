import { useField, useFormMetadata } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckboxInput, KitForm, KitField, SelectInput, TextInput } from '~/components/form/kit'
import { FileUpload } from '~/components/ui/file-upload'
import { ANIMATION_KINDS, ANIMATION_PROVIDERS } from '#shared/schemas/ai'
import { DEFAULT_AVATARS, HELPERS, avatarUrl, type AssistantDefaults } from '#shared/schemas/assistant'
import { CURRENT_VOICE, assistantSchema, assistantStart, prepareAssistant, type AssistantRow } from './__assistant'

/**
 * The assistant's form (seed 002 §3 "Assistant"): name, the persona (chosen on create only, §4), helper, image or
 * default avatar, voice among the default voices (female by default), animations and the standard flag.
 */
export function AssistantForm({
  mode,
  assistant,
  personas,
  persona,
  defaults,
  lastResult,
  timeZone,
}: {
  mode: 'create' | 'edit'
  assistant: AssistantRow | null
  personas: { value: string; label: string }[]
  /** The persona preselected on create (`?persona=`). */
  persona: string
  defaults: AssistantDefaults
  lastResult: unknown
  timeZone: string
}) {
  const { t } = useTranslation()
  const voices = defaults.voices.map((x) => ({ value: x.id, label: x.label }))
  if (assistant && assistantStart(assistant, '').voice_choice === CURRENT_VOICE) voices.unshift({ value: CURRENT_VOICE, label: t('assistant.current_voice') })
  return (
    <KitForm
      id="assistant-form"
      schema={assistantSchema(mode)}
      prepare={prepareAssistant(mode)}
      lastResult={lastResult}
      defaultValue={assistantStart(assistant, persona)}
      timeZone={timeZone}
      protect
      className="assistant-form"
      aria-label={t(mode === 'create' ? 'pages.assistant.create' : 'pages.assistant.edit')}
      labels={{
        name: t('resources.assistant.fields.name'),
        persona_id: t('resources.assistant.fields.persona_id'),
        voice: t('resources.assistant.fields.voice'),
        ...Object.fromEntries(ANIMATION_KINDS.map((k) => [`animations.${k}`, t('assistant.animation_url', { kind: t(`persona.editor.animation.${k}`) })])),
      }}
    >
      <section className="card" aria-labelledby="assistant-main-title">
        <h2 id="assistant-main-title">{t('persona.editor.step.identification')}</h2>
        <TextInput name="name" label={t('resources.assistant.fields.name')} required />
        {mode === 'create' ? (
          <>
            <SelectInput
              name="persona_id"
              label={t('resources.assistant.fields.persona_id')}
              options={personas}
              placeholder={t('tms.form.none')}
              hint={t('assistant.persona_hint')}
              required
            />
            {personas.length === 0 ? <p className="hint">{t('assistant.no_personas')}</p> : null}
          </>
        ) : (
          <p>{t('assistant.persona_fixed', { name: assistant?.persona_name ?? assistant?.persona_id ?? '' })}</p>
        )}
        <HelperField defaults={defaults} />
        <CheckboxInput name="standard" label={t('resources.assistant.fields.standard')} hint={t('assistant.standard_hint')} />
      </section>
      <section className="card" aria-labelledby="assistant-image-title">
        <h2 id="assistant-image-title">{t('resources.assistant.fields.image')}</h2>
        <AvatarField />
        <AssistantImage url={assistant?.image_url ?? ''} fileId={assistant?.image_file_id ?? ''} />
      </section>
      <section className="card" aria-labelledby="assistant-voice-title">
        <h2 id="assistant-voice-title">{t('resources.assistant.fields.voice')}</h2>
        <SelectInput name="voice_choice" label={t('assistant.default_voice')} options={voices} hint={t('assistant.voice_hint')} />
        {assistant ? <input type="hidden" name="voice_json" value={JSON.stringify(assistant.voice)} /> : null}
      </section>
      <section className="card" aria-labelledby="assistant-animations-title">
        <h2 id="assistant-animations-title">{t('resources.assistant.fields.animations')}</h2>
        <SelectInput
          name="animations.provider"
          label={t('assistant.animation_provider')}
          options={ANIMATION_PROVIDERS.map((p) => ({ value: p, label: t(`assistant.animation_providers.${p}`) }))}
        />
        <div className="field-grid">
          {ANIMATION_KINDS.map((k) => (
            <TextInput
              key={k}
              name={`animations.${k}`}
              type="url"
              label={t('assistant.animation_url', { kind: t(`persona.editor.animation.${k}`) })}
              hint={t('assistant.animation_hint')}
            />
          ))}
        </div>
      </section>
    </KitForm>
  )
}

/** The helper; choosing one suggests its avatar and voice. */
function HelperField({ defaults }: { defaults: AssistantDefaults }) {
  const { t } = useTranslation()
  const form = useFormMetadata()
  const [helper] = useField<string>('helper')
  return (
    <KitField name="helper" label={t('resources.assistant.fields.helper')} hint={t('assistant.helper_hint')}>
      {({ key, defaultValue, ...c }) => (
        <select
          key={key}
          {...c}
          className="input"
          value={helper.value ?? ''}
          onChange={(e) => {
            const chosen = HELPERS.find((h) => h.id === e.target.value)
            form.update({ name: 'helper', value: e.target.value })
            if (chosen && defaults.voices.some((x) => x.id === chosen.voice)) {
              form.update({ name: 'avatar', value: chosen.avatar })
              form.update({ name: 'voice_choice', value: chosen.voice })
            }
          }}
        >
          <option value="">{t('tms.form.none')}</option>
          {HELPERS.map((h) => (
            <option key={h.id} value={h.id}>
              {t(`assistant.helper.${h.id}`)}
            </option>
          ))}
        </select>
      )}
    </KitField>
  )
}

/** A default avatar, shown as it looks. */
function AvatarField() {
  const { t } = useTranslation()
  const [avatar] = useField<string>('avatar')
  const shown = (DEFAULT_AVATARS as readonly string[]).includes(avatar.value ?? '') ? (avatar.value as (typeof DEFAULT_AVATARS)[number]) : null
  return (
    <div className="field-grid">
      <SelectInput
        name="avatar"
        label={t('resources.assistant.fields.avatar')}
        placeholder={t('assistant.avatar_none')}
        options={DEFAULT_AVATARS.map((a) => ({ value: a, label: t(`assistant.avatar.${a}`) }))}
      />
      {shown ? <img src={avatarUrl(shown)} alt={t(`assistant.avatar.${shown}`)} width={96} height={96} /> : null}
    </div>
  )
}

/** An uploaded image instead of an avatar. */
function AssistantImage({ url, fileId }: { url: string; fileId: string }) {
  const { t } = useTranslation()
  const [shown, setShown] = useState(url)
  const [value, setValue] = useState(fileId)
  return (
    <div className="field">
      {shown ? <img src={shown} alt={t('resources.assistant.fields.image')} className="avatar-large" /> : null}
      <FileUpload
        label={t('resources.assistant.fields.image')}
        options={{ accept: ['png', 'jpg', 'jpeg', 'webp'], persist: true }}
        onUploaded={(file) => {
          setShown(file.cdn_full_url)
          setValue(file.id)
        }}
      />
      <input type="hidden" name="image_file_id" value={value} />
      {shown ? (
        <button
          type="button"
          className="btn"
          onClick={() => {
            setShown('')
            setValue('')
          }}
        >
          {t('persona.editor.remove_image')}
        </button>
      ) : null}
    </div>
  )
}
